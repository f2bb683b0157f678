package resample_test

import (
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/trace"
)

func loadReal(tb testing.TB, file string) *trace.Trace {
	tb.Helper()
	t, err := trace.Load(testdata.Path(tb, file), trace.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// TestRealLogs classifies every real log and generates one workload of
// each, checking the deterministic properties on real data.
func TestRealLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("reads all 11 logs")
	}
	for _, l := range realLogs() {
		t.Run(l.File, func(t *testing.T) {
			tr := loadReal(t, l.File)
			p, err := resample.Classify(tr, resample.ClassifyOptions{})
			if err != nil {
				t.Fatal(err)
			}
			c := p.Counts()
			start := time.Now()
			w, err := p.Generate(resample.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("weeks %d: LT %d users %d jobs; T %d users %d jobs; discarded %d users %d jobs; filtered %d; generated %d jobs %d copies in %v",
				p.Weeks(), c[resample.LongTerm].Users, c[resample.LongTerm].Jobs, c[resample.Temporary].Users, c[resample.Temporary].Jobs,
				c[resample.Discarded].Users, c[resample.Discarded].Jobs, p.Filtered, len(w.Jobs), len(w.Copies), time.Since(start))
			checkAligned(t, tr, w)
		})
	}
}
