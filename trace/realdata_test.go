package trace_test

import (
	"bytes"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func TestRealLogsLoad(t *testing.T) {
	for _, lg := range realLogs() {
		t.Run(lg.File, func(t *testing.T) {
			tr, err := trace.Load(testdata.Path(t, lg.File), trace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tr.Len() != lg.Jobs {
				t.Errorf("jobs = %d, want %d", tr.Len(), lg.Jobs)
			}
			if u := tr.NumUsers(); u != lg.Users {
				t.Errorf("users = %d, want %d", u, lg.Users)
			}
			if tr.Procs != lg.Procs {
				t.Errorf("procs = %d, want %d", tr.Procs, lg.Procs)
			}
			// Round trip through the SWF writer.
			var buf bytes.Buffer
			if err := tr.WriteSWF(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := trace.Read(swf.NewReader(&buf), trace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(back.Jobs) != len(tr.Jobs) {
				t.Fatalf("round trip: %d jobs, want %d", len(back.Jobs), len(tr.Jobs))
			}
			for i := range tr.Jobs {
				if back.Jobs[i] != tr.Jobs[i] {
					t.Fatalf("round trip: job %d = %+v, want %+v", i, back.Jobs[i], tr.Jobs[i])
				}
			}
			if len(back.Header.Lines) != len(tr.Header.Lines) {
				t.Fatalf("round trip: %d header lines, want %d", len(back.Header.Lines), len(tr.Header.Lines))
			}
			for i := range tr.Header.Lines {
				if back.Header.Lines[i] != tr.Header.Lines[i] {
					t.Errorf("round trip: header line %d = %q, want %q", i, back.Header.Lines[i].Raw, tr.Header.Lines[i].Raw)
				}
			}
		})
	}
}
