package batsim_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/hpcwl/hpcwl/batsim"
	"github.com/hpcwl/hpcwl/trace"
)

// FuzzRead checks that no input makes Read panic, and that whatever it
// accepts survives a round trip.
func FuzzRead(f *testing.F) {
	if data, err := os.ReadFile("testdata/foreign.json"); err == nil {
		f.Add(data)
	}
	var buf bytes.Buffer
	batsim.Write(&buf, smallTrace())
	f.Add(buf.Bytes())
	f.Add([]byte(`{"nb_res": 4, "jobs": [{"id": "a!b", "subtime": 1e3, "res": 2, "profile": "p"}], "profiles": {"p": {"type": "delay", "delay": 5}}}`))
	f.Add([]byte(`{"nb_res": 4, "jobs": [{"id": 1, "subtime": 0, "res": 1, "profile": "p\u00e9\n"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := batsim.Read(bytes.NewReader(data), "fuzz.json", trace.Options{})
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := batsim.Write(&out, tr); err != nil {
			t.Fatalf("writing what was read: %v", err)
		}
		back, err := batsim.Read(&out, "again.json", trace.Options{})
		if err != nil {
			t.Fatalf("reading what was written: %v\n%s", err, out.Bytes())
		}
		if back.Len() != tr.Len() {
			t.Fatalf("%d jobs, want %d", back.Len(), tr.Len())
		}
		for i := range tr.Jobs {
			if back.Jobs[i] != tr.Jobs[i] {
				t.Fatalf("job %d = %+v, want %+v", i, back.Jobs[i], tr.Jobs[i])
			}
		}
	})
}
