package feedback

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// TestBatchDelaysAndPools works the recorded think times, inter-arrival
// times and per-user pools of Zakay's models out by hand (sessions by
// inter-arrival time, threshold 1 h; every job starts on submission).
//
//	user 0: jobs at 20000 (100 s) and 30000 (100 s): two sessions of one
//	        batch; the second's IAT 10000, TT 30000 - 20100 = 9900
//	user 1: jobs at 0 (100 s) and 50 (100 s) overlap: one batch; a job at
//	        400 (10 s): IAT 400 - 50 = 350, TT 400 - 150 = 250; a job at
//	        10000: a new session, IAT 9600, TT 10000 - 410 = 9590
//	no user: a job at 40000, in no pool
//
// A user's first batch has IAT 0 and no TT.
func TestBatchDelaysAndPools(t *testing.T) {
	tr := mkTrace(100, tj{1, 0, 0, 100}, tj{1, 50, 0, 100}, tj{1, 400, 0, 10}, tj{1, 10000, 0, 10},
		tj{0, 20000, 0, 100}, tj{0, 30000, 0, 100}, tj{-1, 40000, 0, 10})
	p, err := session.Identify(tr, session.Options{Method: session.Interarrival, Threshold: 3600})
	if err != nil {
		t.Fatal(err)
	}
	g := session.BatchGraph(p, session.Transitive)
	d := newBatchDelays(g)
	batchOf := p.BatchOf()
	for _, c := range []struct {
		job   int
		iat   int64
		tt    int64
		hasTT bool
	}{
		{0, 0, 0, false}, {2, 350, 250, true}, {3, 9600, 9590, true},
		{4, 0, 0, false}, {5, 10000, 9900, true}, {6, 0, 0, false},
	} {
		b := batchOf[c.job]
		if d.iat[b] != c.iat || d.hasTT[b] != c.hasTT || (c.hasTT && d.tt[b] != c.tt) {
			t.Errorf("job %d's batch: IAT %d, TT %d (%v), want %d, %d (%v)", c.job, d.iat[b], d.tt[b], d.hasTT[b], c.iat, c.tt, c.hasTT)
		}
	}
	if batchOf[0] != batchOf[1] {
		t.Errorf("jobs 0 and 1 overlap but are in batches %d and %d", batchOf[0], batchOf[1])
	}
	per, all := userPools(g, d)
	want := map[int32]pools{
		0: {interTT: []int64{9900}, interIAT: []int64{10000}},
		1: {intraTT: []int64{250}, intraIAT: []int64{350}, interTT: []int64{9590}, interIAT: []int64{9600}},
	}
	for ui, u := range p.Users {
		w := want[u.ID]
		if !samePools(per[ui], w) {
			t.Errorf("user %d: pools %+v, want %+v", u.ID, per[ui], w)
		}
	}
	wantAll := pools{intraTT: []int64{250}, intraIAT: []int64{350}, interTT: []int64{9900, 9590}, interIAT: []int64{10000, 9600}}
	if !samePools(all, wantAll) {
		t.Errorf("pooled: %+v, want %+v", all, wantAll)
	}
}

func samePools(a, b pools) bool {
	return slices.Equal(a.intraTT, b.intraTT) && slices.Equal(a.intraIAT, b.intraIAT) &&
		slices.Equal(a.interTT, b.interTT) && slices.Equal(a.interIAT, b.interIAT)
}

// TestDrawAndBelow: draw takes the user's pool, else the pooled one, else
// the default; below keeps the values strictly under the limit.
func TestDrawAndBelow(t *testing.T) {
	rng := userRNGs(1, 3)[0]
	for _, c := range []struct {
		name         string
		xs, fallback []int64
		want         int64
	}{
		{"own pool", []int64{7}, []int64{9}, 7},
		{"pooled", nil, []int64{9}, 9},
		{"default", nil, nil, 5},
	} {
		if got := draw(rng, c.xs, c.fallback, 5); got != c.want {
			t.Errorf("%s: drew %d, want %d", c.name, got, c.want)
		}
	}
	if got := below([]int64{10, 28799, 28800, -5, 40000}, 28800); !slices.Equal(got, []int64{10, 28799, -5}) {
		t.Errorf("below 8 h: %v", got)
	}
}

// TestDistributionArrival checks where the distribution-based model puts a
// released batch, for a day worker (07:30 to 17:30 on weekdays, R = 0);
// relative time 0 is Monday 2 January 2023, 00:00 UTC. Outside the window
// the batch waits for the next one; inside, the user continues the session
// with probability 0.8/(0.05 r + 1), drawing an intra-session delay, or
// takes a break drawn from the inter-session ones below 8 h (8 h when
// none is), and the arrival moves to the next window if the delay leaves
// the current one.
func TestDistributionArrival(t *testing.T) {
	const h, day = 3600, 24 * 3600
	clk := &trace.Clock{Start: time.Date(2023, 1, 2, 0, 0, 0, 0, time.UTC).Unix(), Loc: time.UTC}
	// User 0 has its own pools (a negative delay and an interruption
	// beyond 8 h among them); user 1 none, it draws from the pooled ones;
	// user 2's breaks are all longer than 8 h.
	per := []pools{
		{intraTT: []int64{100}, intraIAT: []int64{200}, interTT: []int64{3000, 40000}, interIAT: []int64{4000}},
		{},
		{intraTT: []int64{-50}, intraIAT: []int64{-50}, interTT: []int64{30000}, interIAT: []int64{50000}},
	}
	all := pools{intraTT: []int64{110}, intraIAT: []int64{210}, interTT: []int64{3100}, interIAT: []int64{4100}}
	resp := sim.Time(0)
	newModel := func() *distribution {
		return &distribution{per: per, all: all, rng: userRNGs(3, 5), clock: clk,
			night: make([]bool, 3), weekend: make([]bool, 3), shift: make([]int64, 3),
			respTime: func(int32) sim.Time { return resp }}
	}
	z := &zakaySource{batch: []zakayBatch{{user: 0}, {user: 1}, {user: 2}}, trigger: -1}
	m := newModel()
	monday9 := sim.Time(9 * h)
	// Saturday noon: wait for Monday 07:30, without drawing.
	if got := m.arrival(z, 0, Dependency, 5*day+12*h); got != 7*day+7*h+1800 {
		t.Errorf("released on Saturday: arrives at %d, want Monday 07:30 (%d)", got, 7*day+7*h+1800)
	}
	// The share of continuations among 4,000 releases at Monday 09:00 is
	// binomial: within four standard errors of 0.8 (response 0) and 0.4
	// (response 20 min), 4 sqrt(p (1-p) / n) = 0.025 and 0.031.
	for _, c := range []struct {
		name    string
		trigger int32
		resp    sim.Time
		r       Reason
		b       int32
		cont    sim.Time // delay of a continuation
		brk     sim.Time // delay of a break
		p       float64
	}{
		{"user 0, think time, no trigger", -1, 1200, Dependency, 0, 100, 3000, 0.8},
		{"user 0, inter-arrival, response 0", 0, 0, Follows, 0, 200, 4000, 0.8},
		{"user 0, think time, response 20 min", 0, 1200, Dependency, 0, 100, 3000, 0.4},
		{"user 1, pooled, response 20 min", 0, 1200, Follows, 1, 210, 4100, 0.4},
	} {
		m, z.trigger, resp = newModel(), c.trigger, c.resp
		const n = 4000
		conts := 0
		for range n {
			switch got := m.arrival(z, c.b, c.r, monday9) - monday9; got {
			case c.cont:
				conts++
			case c.brk:
			default:
				t.Fatalf("%s: delay %d, want %d or %d", c.name, got, c.cont, c.brk)
			}
		}
		if share, tol := float64(conts)/n, 4*math.Sqrt(c.p*(1-c.p)/n); !(math.Abs(share-c.p) <= tol) {
			t.Errorf("%s: continued %.3f of the time, want %.1f ± %.3f", c.name, share, c.p, tol)
		}
	}
	// User 2: a negative delay counts as 0; a break is 8 h when every
	// recorded one, the user's and the pooled ones, is longer. From Monday
	// 09:00 that is 17:00; from 10:00 it leaves the window and waits for
	// Tuesday 07:30.
	z.trigger, resp = -1, 0
	all = pools{interTT: []int64{28800, 40000}}
	m = newModel()
	seen := map[sim.Time]bool{}
	for range 200 {
		for _, from := range []sim.Time{monday9, monday9 + h} {
			got := m.arrival(z, 2, Dependency, from)
			switch {
			case got == from, from == monday9 && got == 17*h, from == monday9+h && got == day+7*h+1800:
				seen[got-from] = true
			default:
				t.Fatalf("user 2 released at %d: arrives at %d", from, got)
			}
		}
	}
	if len(seen) != 3 {
		t.Errorf("user 2: delays seen %v, want 0, 8 h and the wait for Tuesday", seen)
	}
}
