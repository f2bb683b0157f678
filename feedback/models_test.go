package feedback

import (
	"math"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// TestDistributionWorkers checks the shares of night and weekend workers
// and the range of the shift R over many users of the distribution-based
// model. Each share is a binomial proportion over n users: the tolerance is
// four standard errors, 4 sqrt(p (1-p) / n), so a correct model fails with
// probability below 1e-4 at any seed (and this seed is fixed).
func TestDistributionWorkers(t *testing.T) {
	const n = 20000
	m := &distribution{rng: userRNGs(n, 11), night: make([]bool, n), weekend: make([]bool, n), shift: make([]int64, n)}
	m.drawWorkers()
	nights, weekends := 0, 0
	var lo, hi int64 = math.MaxInt64, math.MinInt64
	var sum float64
	for u := range n {
		if m.night[u] {
			nights++
		}
		if m.weekend[u] {
			weekends++
		}
		lo, hi = min(lo, m.shift[u]), max(hi, m.shift[u])
		sum += float64(m.shift[u])
	}
	for _, c := range []struct {
		name  string
		count int
		p     float64
	}{{"night workers", nights, 0.3}, {"weekend workers", weekends, 0.2}} {
		share, tol := float64(c.count)/n, 4*math.Sqrt(c.p*(1-c.p)/n)
		if !(math.Abs(share-c.p) <= tol) {
			t.Errorf("%s: share %.4f, want %.1f ± %.4f", c.name, share, c.p, tol)
		}
	}
	// R is uniform on the 7201 whole seconds from -3600 to 3600: over n
	// users both ends turn up (each is missed with probability
	// (1 - 1/7201)^n < 0.07 %) and the mean is 0 within four standard
	// errors, 4 · 2079 s / sqrt(n) = 59 s.
	if lo != -3600 || hi != 3600 {
		t.Errorf("shift R from %d s to %d s, want -3600 s to 3600 s", lo, hi)
	}
	if mean, tol := sum/n, 4*3600/math.Sqrt(3)/math.Sqrt(n); !(math.Abs(mean) <= tol) {
		t.Errorf("mean shift R %.1f s, want 0 ± %.0f s", mean, tol)
	}
}

// TestDistributionWindows pins the activity windows of a day, a night and
// a weekend worker: 07:30+R to 17:30+R or 17:30+R to 07:30+R the next day,
// on weekdays or on Saturday and Sunday, and the next window a user waits
// for outside them. Relative time 0 is Monday 2 January 2023, 00:00 UTC.
func TestDistributionWindows(t *testing.T) {
	start := time.Date(2023, 1, 2, 0, 0, 0, 0, time.UTC)
	m := &distribution{clock: &trace.Clock{Start: start.Unix(), Loc: time.UTC},
		night: []bool{false, true, false}, weekend: []bool{false, false, true}, shift: []int64{0, 600, -1800}}
	const h, day = 3600, 24 * 3600
	at := func(d int, hh, mm int) sim.Time { return sim.Time(d*day + hh*h + mm*60) }
	for _, c := range []struct {
		name       string
		u          int
		t          sim.Time
		k          int
		start, end sim.Time
		ok         bool
	}{
		{"day worker, Monday", 0, at(0, 12, 0), 0, at(0, 7, 30), at(0, 17, 30), true},
		{"day worker, Friday", 0, at(4, 1, 0), 0, at(4, 7, 30), at(4, 17, 30), true},
		{"day worker, Saturday", 0, at(4, 1, 0), 1, 0, 0, false},
		{"night worker, Monday", 1, at(0, 12, 0), 0, at(0, 17, 40), at(1, 7, 40), true},
		{"night worker, Sunday", 1, at(0, 12, 0), -1, 0, 0, false},
		{"weekend worker, Monday", 2, at(0, 12, 0), 0, 0, 0, false},
		{"weekend worker, Saturday", 2, at(0, 12, 0), 5, at(5, 7, 0), at(5, 17, 0), true},
		{"weekend worker, Sunday", 2, at(6, 12, 0), 0, at(6, 7, 0), at(6, 17, 0), true},
	} {
		s, e, ok := m.window(c.u, c.t, c.k)
		if s != c.start || e != c.end || ok != c.ok {
			t.Errorf("%s: window %d to %d (%v), want %d to %d (%v)", c.name, s, e, ok, c.start, c.end, c.ok)
		}
	}
	for _, c := range []struct {
		name string
		u    int
		t    sim.Time
		want sim.Time
	}{
		{"day worker at work", 0, at(2, 9, 0), at(2, 9, 0)},
		{"day worker before work", 0, at(2, 7, 29), at(2, 7, 30)},
		{"day worker after work", 0, at(2, 17, 30), at(3, 7, 30)},
		{"day worker on Friday night", 0, at(4, 20, 0), at(7, 7, 30)},
		{"night worker after midnight", 1, at(1, 3, 0), at(1, 3, 0)},
		{"night worker in the morning", 1, at(1, 8, 0), at(1, 17, 40)},
		{"night worker on Saturday", 1, at(5, 12, 0), at(7, 17, 40)},
		{"weekend worker on Tuesday", 2, at(1, 12, 0), at(5, 7, 0)},
		{"weekend worker on Sunday evening", 2, at(6, 18, 0), at(12, 7, 0)},
	} {
		if got := m.nextActive(c.u, c.t); got != c.want {
			t.Errorf("%s: next active at %d, want %d", c.name, got, c.want)
		}
	}
}

// TestContinuation pins the probability of continuing a session,
// 0.8/(0.05 r + 1) with r the response time in minutes.
func TestContinuation(t *testing.T) {
	for _, c := range []struct {
		resp sim.Time
		want float64
	}{{0, 0.8}, {20 * 60, 0.4}, {60 * 60, 0.2}, {30, 0.8 / 1.025}} {
		if got := continuation(c.resp); !(math.Abs(got-c.want) <= 1e-15) {
			t.Errorf("continuation(%d s) = %v, want %v", c.resp, got, c.want)
		}
	}
}
