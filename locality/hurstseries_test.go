package locality_test

import (
	"reflect"
	"testing"

	"github.com/hpcwl/hpcwl/locality"
	"github.com/hpcwl/hpcwl/trace"
)

// TestHurstSeries checks that the analysis of a log is the analysis of its
// series of arrivals, and that the series is left as it was.
func TestHurstSeries(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, unit := range []int64{3600, 1800} {
		x := locality.Arrivals(tr, unit)
		kept := append([]float64(nil), x...)
		got := locality.HurstSeries(x, locality.HurstOptions{})
		want := locality.Hurst(tr, locality.HurstOptions{Unit: unit})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("unit %d: HurstSeries H %v (%d points), Hurst H %v (%d points)", unit, got.H, len(got.Points), want.H, len(want.Points))
		}
		if !reflect.DeepEqual(x, kept) {
			t.Errorf("unit %d: the series was modified", unit)
		}
	}
}
