package trace

import (
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestIDSetMatchesMap checks the run-length set of job numbers against a
// map on sequences that count up, skip, repeat and go back.
func TestIDSetMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		var s idSet
		m := map[int64]bool{}
		id := int64(rng.IntN(5))
		for range rng.IntN(300) {
			switch rng.IntN(6) {
			case 0:
				id -= int64(rng.IntN(20))
			case 1:
				id += int64(rng.IntN(5))
			default:
				id++
			}
			if got, want := s.add(id), !m[id]; got != want {
				t.Fatalf("trial %d: add(%d) = %v, want %v", trial, id, got, want)
			}
			m[id] = true
		}
	}
}

// TestScannerMatchesLoad checks that scanning a log job by job gives the
// jobs, oddities, warnings and SHA-256 of loading it whole.
func TestScannerMatchesLoad(t *testing.T) {
	const name = "../builtin/KTH-SP2-1996-2.1-cln.swf.gz"
	want, err := Load(name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenScanner(name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Procs() != want.Procs || s.Name() != name {
		t.Errorf("procs %d, name %q; want %d, %q", s.Procs(), s.Name(), want.Procs, name)
	}
	var got []Job
	for {
		var j Job
		err := s.Next(&j)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, j)
	}
	if !slices.Equal(got, want.Jobs) || s.Len() != len(want.Jobs) {
		t.Errorf("scanned %d jobs, loaded %d, or they differ", len(got), len(want.Jobs))
	}
	if s.SHA256() != want.SHA256 || !reflect.DeepEqual(s.Oddities(), want.Oddities) || !slices.Equal(s.Warnings(), want.Check()) {
		t.Errorf("sha %s oddities %+v warnings %q; want %s %+v %q", s.SHA256(), s.Oddities(), s.Warnings(), want.SHA256, want.Oddities, want.Check())
	}
	// Out of order and repeated job numbers are found as Check finds them.
	tr := &Trace{Name: "x", Jobs: []Job{{ID: 3, Submit: 5}, {ID: 4, Submit: 4}, {ID: 3, Submit: 6}, {ID: 9, Submit: 1}, {ID: 4, Submit: 7}}}
	w := tr.Check()
	if len(w) != 2 || w[0] != "x: 2 job(s) reuse an earlier job number (first: job 3); results by job number are ambiguous" ||
		w[1] != "x: 2 job(s) are submitted before the job above them (first: job 4); the log is not in submit order (hpcwl convert --sort fixes that)" {
		t.Errorf("Check: %q", w)
	}
}
