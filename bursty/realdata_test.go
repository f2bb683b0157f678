package bursty

import (
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/trace"
)

// TestHPC2N checks the analysis of HPC2N (successful jobs only) against the
// paper's Tables II, V and VI (docs/validation.md, "Minh-Wolters").
func TestHPC2N(t *testing.T) {
	if testing.Short() {
		t.Skip("real log")
	}
	if quick {
		t.Skip("the whole log: not under the mutation tag (TestHPC2NPrefix checks a prefix)")
	}
	tr, err := trace.Load(testdata.Path(t, "HPC2N-2002-2.2-cln.swf.gz"), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(tr, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("jobs %d skipped %d/%d unknown %v fraction %.4f bots %d multi %d mean %.3f max %d corr %.4f spatial %.4f random %.4f N %d (%s) mean ia %.1f dur<1000 %.4f bia<=Δ %.4f hurst %+v",
		r.Jobs, r.SkippedStatus, r.SkippedFields, r.Unknown, r.FractionInBoTs, r.BoTs, r.MultiJobBoTs, r.MeanBoTSize, r.MaxBoTSize,
		r.Correlation, r.SpatialNE, r.SpatialNERandom, r.SpatialN, r.SpatialNFrom, r.MeanInterArrival, r.DurationUnder1000, r.BIAUnderDelta, r.Hurst)
	for _, v := range r.Variability {
		t.Logf("variability %v..%v: %d bots, %.1f s", v.Low, v.High, v.BoTs, v.Variability)
	}
	for _, p := range r.Temporal {
		t.Logf("T %v: real %.4f poisson %.4f", p.Scale, p.Real, p.Poisson)
	}
	opt := DefaultOptions()
	opt.Contiguity = PerUser
	pu, err := Analyze(tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("per-user fraction %.4f jobs in bots %d; global jobs in bots %d", pu.FractionInBoTs, pu.JobsInBoTs, r.JobsInBoTs)
	opt = DefaultOptions()
	opt.Allocated, opt.MaxProcs = true, 240
	al, err := Analyze(tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	// Our values (deterministic) ...
	pins := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"jobs", float64(r.Jobs), 201993, 0},
		{"jobs in bots", float64(r.JobsInBoTs), 129936, 0},
		{"jobs in bots per user", float64(pu.JobsInBoTs), 133191, 0},
		{"correlation", float64(r.Correlation), -0.063059, 5e-6},
		{"spatial NE", float64(r.SpatialNE), 0.299571, 5e-6},
		{"correlation, allocated", float64(al.Correlation), -0.062222, 5e-6},
		{"spatial NE, allocated, N = 240", float64(al.SpatialNE), 0.291981, 5e-6},
		// ... and the published ones: Table II 65 %, Table V 0.299 and
		// 0.999, Table VI −0.063.
		{"Table II fraction in BoTs", r.FractionInBoTs, 0.65, 0.01},
		{"Table V spatial NE", float64(r.SpatialNE), 0.299, 0.01},
		{"Table V random NE", float64(r.SpatialNERandom), 0.999, 0.002},
		{"Table VI correlation", float64(r.Correlation), -0.063, 0.002},
	}
	for _, p := range pins {
		if !(math.Abs(p.got-p.want) <= p.tol) {
			t.Errorf("%s: %v, want %v ± %v", p.name, p.got, p.want, p.tol)
		}
	}
}
