package bursty

import (
	"io"
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/trace"
)

// quick is set by the mutation build tag (scripts/mutation runs bursty's
// tests once per mutant, hundreds of times): TestHPC2N and TestFitHPC2N
// then check only the analysis and the model of the first prefixJobs jobs
// of HPC2N, whose values they pin in every run, and leave out the whole
// log and the published values it is compared with.
var quick bool

// prefixJobs is the number of jobs of HPC2N's prefix.
const prefixJobs = 10000

// hpc2nPrefix reads the first prefixJobs jobs of HPC2N, with its header.
func hpc2nPrefix(t *testing.T) *trace.Trace {
	t.Helper()
	s, err := trace.OpenScanner(testdata.Path(t, "HPC2N-2002-2.2-cln.swf.gz"), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	jobs := make([]trace.Job, prefixJobs)
	for i := range jobs {
		if err := s.Next(&jobs[i]); err == io.EOF {
			t.Fatalf("HPC2N has only %d jobs", i)
		} else if err != nil {
			t.Fatal(err)
		}
	}
	return trace.New(*s.Header(), jobs, trace.Options{})
}

// pin is a value checked within a tolerance.
type pin struct {
	name      string
	got, want float64
	tol       float64
}

func checkPins(t *testing.T, pins []pin) {
	t.Helper()
	for _, p := range pins {
		if !(math.Abs(p.got-p.want) <= p.tol) {
			t.Errorf("%s: %v, want %v ± %v", p.name, p.got, p.want, p.tol)
		}
	}
}
