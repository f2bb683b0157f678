package feedback

import (
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// TestPerUserLateness works three users by hand: user 1 has jobs recorded
// at 0, 100 and 300, submitted at 0, 160 and 420 (lateness 0, 60, 120:
// mean 60, relative 1 + 60/300, additional 2 x 60 / 2); user 2 one job, 30 s
// late (no additional lateness); user 3's only job was never submitted.
func TestPerUserLateness(t *testing.T) {
	tr := mkTrace(1, tj{1, 0, 0, 10}, tj{2, 50, 0, 10}, tj{1, 100, 0, 10}, tj{1, 300, 0, 10}, tj{3, 400, 0, 10})
	got := PerUserLateness(tr, []sim.Time{0, 80, 160, 420, -1})
	if len(got) != 2 {
		t.Fatalf("%d users: %+v", len(got), got)
	}
	u1, u2 := got[0], got[1]
	if u1.User != 1 || u1.Jobs != 3 || u1.Mean != 60 || !(math.Abs(u1.Relative-1.2) <= 1e-12) || u1.Additional != 60 {
		t.Errorf("user 1: %+v", u1)
	}
	if u2.User != 2 || u2.Jobs != 1 || u2.Mean != 30 || !math.IsNaN(u2.Relative) || !math.IsNaN(u2.Additional) {
		t.Errorf("user 2: %+v", u2)
	}
}

func TestSubmitDifferences(t *testing.T) {
	d, dist := SubmitDifferences([]sim.Time{10, 20, -1, 40, 70}, []sim.Time{0, 20, 5, 10, 0})
	want := []int64{10, 0, 30, 70}
	if len(d) != len(want) {
		t.Fatalf("%v", d)
	}
	for i := range want {
		if d[i] != want[i] {
			t.Errorf("difference %d = %d, want %d", i, d[i], want[i])
		}
	}
	// Lower median of {0, 10, 30, 70}: 10.
	if dist.N != 4 || dist.P50 != 10 || dist.Max != 70 || dist.Mean != 27.5 {
		t.Errorf("distribution %+v", dist)
	}
}
