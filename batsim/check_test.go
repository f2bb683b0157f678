package batsim

import (
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/trace"
)

func TestCheckDoubtful(t *testing.T) {
	tests := []struct {
		file            string
		noRes, noSubmit int
		first           []int64
	}{
		{"batsim.swf", 2, 1, []int64{2, 3, 5}},
		{"nowait.swf", 0, 0, nil},
	}
	for _, tc := range tests {
		tr, err := trace.Load(testdata.Odd(tc.file), trace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		d := Check(tr)
		if d.NoResources != tc.noRes || d.NoSubmit != tc.noSubmit || len(d.First) != len(tc.first) {
			t.Fatalf("%s: %+v, want %d res 0, %d subtime -1, jobs %v", tc.file, d, tc.noRes, tc.noSubmit, tc.first)
		}
		for i := range tc.first {
			if d.First[i] != tc.first[i] {
				t.Errorf("%s: jobs %v, want %v", tc.file, d.First, tc.first)
			}
		}
		if d.Any() != strings.Contains(d.String(), "Batsim cannot run them") {
			t.Errorf("%s: %q", tc.file, d.String())
		}
	}
}
