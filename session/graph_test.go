package session

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/trace"
)

// TestSessionGraphFig1 builds the example of Madon's Fig. 1 (spec madon
// section 4.3) with a0: session 1 (job 1, 0..100) had not finished when
// session 2 (job 2 at 50, ends 60) started, so both hang from the root;
// session 3 (job 3 at 200) depends on both, which are incomparable, so both
// edges stay in the transitive reduction; session 4 depends on all three,
// but only the edge from session 3 is kept.
func TestSessionGraphFig1(t *testing.T) {
	tr := mkTrace(tj{1, 0, 0, 100}, tj{1, 50, 0, 10}, tj{1, 200, 0, 10}, tj{1, 300, 0, 10})
	p, _ := Identify(tr, Options{Method: Interarrival})
	g := SessionGraph(p, Transitive)
	want := [][]Edge{
		{{Root, 0}},
		{{Root, 50}},
		{{0, 100}, {1, 140}},
		{{2, 90}}, // the edges 0->3 and 1->3 are implied through 2
	}
	for n, w := range want {
		if got := g.Preds(n); !slices.Equal(got, w) {
			t.Errorf("preds of %d: %v, want %v", n, got, w)
		}
	}
	full := SessionGraph(p, Full)
	if got := full.Preds(3); len(got) != 3 {
		t.Errorf("full graph: preds of 3: %v, want 3 edges", got)
	}
	if !slices.Equal(g.Succs(0), []int32{2}) || !slices.Equal(g.Succs(2), []int32{3}) {
		t.Errorf("succs %v %v", g.Succs(0), g.Succs(2))
	}
	for _, gr := range []*Graph{g, full, BatchGraph(p, Full)} {
		for n := range gr.Len() {
			th := gr.SuccThinks(n)
			for i, d := range gr.Succs(n) {
				k := slices.IndexFunc(gr.Preds(int(d)), func(e Edge) bool { return e.From == int32(n) })
				if k < 0 || gr.Preds(int(d))[k].Think != th[i] {
					t.Errorf("edge %d -> %d: SuccThinks %d, preds %v", n, d, th[i], gr.Preds(int(d)))
				}
			}
		}
	}
	st := g.Stats(true)
	if st.Users[0].LongestPath != 3 || st.Users[0].MaxIn != 2 || st.Edges != 3 || st.RootEdges != 2 {
		t.Errorf("stats %+v", st.Users[0])
	}
}

// TestTransitiveReductionProperty compares the fast reduction with a
// brute-force Hasse diagram of the full relation on random users.
func TestTransitiveReductionProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		var jobs []tj
		var at int64
		for k := 0; k < 2+rng.IntN(25); k++ {
			at += int64(rng.IntN(50))
			jobs = append(jobs, tj{1, at, int64(rng.IntN(20)), int64(rng.IntN(120))})
		}
		tr := mkTrace(jobs...)
		p, _ := Identify(tr, Options{Method: Interarrival, Threshold: int64(rng.IntN(30))})
		full, red := SessionGraph(p, Full), SessionGraph(p, Transitive)
		n := full.Len()
		reach := make([][]bool, n) // reach[a][b]: a ->+ b in the full graph
		for a := range reach {
			reach[a] = make([]bool, n)
		}
		for b := 0; b < n; b++ {
			for _, e := range full.Preds(b) {
				if e.From != Root {
					reach[e.From][b] = true
				}
			}
		}
		for b := 0; b < n; b++ {
			var want []int32
			for _, e := range full.Preds(b) {
				if e.From == Root {
					continue
				}
				implied := false
				for x := 0; x < n; x++ {
					if reach[e.From][x] && reach[x][b] {
						implied = true
					}
				}
				if !implied {
					want = append(want, e.From)
				}
			}
			var got []int32
			for _, e := range red.Preds(b) {
				if e.From != Root {
					got = append(got, e.From)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d node %d: reduced preds %v, Hasse %v (jobs %v)", trial, b, got, want, jobs)
			}
			// The latest predecessor end, hence feedback start, is kept.
			ft, _ := full.Think(b)
			rt, _ := red.Think(b)
			if ft != rt {
				t.Fatalf("trial %d node %d: think %d full vs %d reduced", trial, b, ft, rt)
			}
		}
	}
}

// TestBatchGraphRules checks Zakay's Definition 12 on a hand-made user:
// session A = batches a1 (job 0..100), a2 (job at 150, ends 160);
// session B starts at 5000 (after A finished): b1 depends on a2 only;
// session C starts at 9000 while a job of B (5000..20000) still runs, so C's
// first batch depends on A's last batch, not on B.
func TestBatchGraphRules(t *testing.T) {
	tr := mkTrace(tj{1, 0, 0, 100}, tj{1, 150, 0, 10}, tj{1, 5000, 0, 15000}, tj{1, 9000, 0, 10})
	p, _ := Identify(tr, Default(Arrival))
	if len(p.Sessions) != 3 || len(p.Batches) != 4 {
		t.Fatalf("%d sessions %d batches", len(p.Sessions), len(p.Batches))
	}
	g := BatchGraph(p, Full)
	want := [][]Edge{{}, {{0, 50}}, {{1, 4840}}, {{1, 8840}}}
	for n, w := range want {
		if got := g.Preds(n); !slices.Equal(got, w) {
			t.Errorf("batch %d preds %v, want %v", n, got, w)
		}
	}
	jobs, think := g.Preceding()
	if !slices.Equal(jobs, []int64{-1, 1, 2, 2}) || !slices.Equal(think, []int64{-1, 50, 4840, 8840}) {
		t.Errorf("preceding %v think %v", jobs, think)
	}
}

func TestKTHGraphStats(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Madon section 9.4: no graph has arity > 11 with a60; think times
	// over edges: a0 75% < 10 h and 35% < 1 h, a60 50% < 10 h and 13% < 1 h.
	for _, c := range []struct {
		spec            string
		below1, below10 float64
	}{{"a0", 0.35, 0.75}, {"a60", 0.13, 0.50}} {
		o, _ := ParseSpec(c.spec)
		p, _ := Identify(tr, o)
		st := SessionGraph(p, Transitive).Stats(false)
		if d := st.ThinkBelow1h - c.below1; d > 0.03 || d < -0.03 {
			t.Errorf("%s: %.3f of think times below 1 h, paper %.2f", c.spec, st.ThinkBelow1h, c.below1)
		}
		if d := st.ThinkBelow10h - c.below10; d > 0.03 || d < -0.03 {
			t.Errorf("%s: %.3f below 10 h, paper %.2f", c.spec, st.ThinkBelow10h, c.below10)
		}
		if c.spec == "a60" && st.MaxArity > 11 {
			t.Errorf("a60 arity %d > 11", st.MaxArity)
		}
	}
}

// TestRecentReduction works out the Recent reduction by hand (each
// session hangs from the sessions that ended after the start of the
// session just before it, else from the one that ended last) on three
// single-user logs with a0, where every job is its own session.
func TestRecentReduction(t *testing.T) {
	for _, c := range []struct {
		name string
		tr   *trace.Trace
		want [][]Edge
	}{
		{"Madon's Fig. 1", mkTrace(tj{1, 0, 0, 100}, tj{1, 50, 0, 10}, tj{1, 200, 0, 10}, tj{1, 300, 0, 10}),
			// Session 2 (at 200) after 1 (started at 50): 0 and 1 ended
			// after 50, both kept. Session 3 (at 300) after 2 (at 200):
			// only 2 ended after 200.
			[][]Edge{{{Root, 0}}, {{Root, 50}}, {{0, 100}, {1, 140}}, {{2, 90}}}},
		{"nothing ended after the previous start", mkTrace(tj{2, 1000, 0, 10}, tj{2, 2000, 0, 1000}, tj{2, 2500, 0, 10}),
			// Session 2 (at 2500): session 1 (2000-3000) still runs,
			// session 0 ended at 1010, before 2000: the fallback keeps 0.
			[][]Edge{{{Root, 1000}}, {{0, 990}}, {{0, 1490}}}},
		{"ends equal to the previous start, user 0", mkTrace(tj{0, 0, 0, 100}, tj{0, 10, 0, 90}, tj{0, 100, 0, 1000}, tj{0, 500, 0, 10}),
			// Sessions 0 and 1 both end at 100. Session 2 (at 100) after
			// 1 (at 10): both ended after 10. Session 3 (at 500) after 2
			// (at 100, still running): 0 and 1 ended at 100, not after
			// it; the fallback keeps the last in (end, index) order, 1.
			[][]Edge{{{Root, 0}}, {{Root, 10}}, {{0, 0}, {1, 0}}, {{1, 400}}}},
	} {
		p, err := Identify(c.tr, Options{Method: Interarrival})
		if err != nil {
			t.Fatal(err)
		}
		g := SessionGraph(p, Recent)
		if g.Len() != len(c.want) {
			t.Errorf("%s: %d sessions, want %d", c.name, g.Len(), len(c.want))
			continue
		}
		for n, w := range c.want {
			if got := g.Preds(n); !slices.Equal(got, w) {
				t.Errorf("%s: preds of %d: %v, want %v", c.name, n, got, w)
			}
		}
	}
}

// TestGraphThinkAndPreceding works out, on two hand-made users, the
// figures a user exports from a session graph: each node's think time
// (the smallest over its edges), the SWF fields 17 and 18 (the preceding
// job, the one of the nodes depended on that ended last, the first in
// log order among equal ends, and the think time from its end), and the
// per-user statistics. User 0 counts as a user (only negative IDs are
// unknown users).
func TestGraphThinkAndPreceding(t *testing.T) {
	fig1 := []tj{{1, 0, 0, 100}, {1, 50, 0, 10}, {1, 200, 0, 10}, {1, 300, 0, 10}}
	ties := []tj{{0, 0, 0, 100}, {0, 10, 0, 90}, {0, 100, 0, 1000}, {0, 500, 0, 10}}
	for _, c := range []struct {
		name        string
		jobs        []tj
		think       []int64 // -1: only the root
		job, jthink []int64
		user        UserGraph
	}{
		// Session 2 hangs from 0 (think 100) and 1 (140), session 3
		// from 2 (90); job 1 ended last (at 100) of sessions 0 and 1.
		{"Madon's Fig. 1", fig1, []int64{-1, -1, 100, 90}, []int64{-1, -1, 1, 3}, []int64{-1, -1, 100, 90},
			UserGraph{User: 1, Nodes: 4, LongestPath: 3, MaxIn: 2, MaxOut: 1, Arity: 2}},
		// Sessions 0 and 1 both end at 100; sessions 2 and 3 hang from
		// both (3 also starts while 2 runs): job 1 is the first of the
		// two equal ends.
		{"equal ends, user 0", ties, []int64{-1, -1, 0, 400}, []int64{-1, -1, 1, 1}, []int64{-1, -1, 0, 400},
			UserGraph{User: 0, Nodes: 4, LongestPath: 2, MaxIn: 2, MaxOut: 2, Arity: 2}},
	} {
		p, err := Identify(mkTrace(c.jobs...), Options{Method: Interarrival})
		if err != nil {
			t.Fatal(err)
		}
		g := SessionGraph(p, Transitive)
		for n, want := range c.think {
			got, ok := g.Think(n)
			if ok != (want >= 0) || ok && got != want {
				t.Errorf("%s: Think(%d) = %d, %v; want %d", c.name, n, got, ok, want)
			}
		}
		job, think := g.Preceding()
		if !slices.Equal(job, c.job) || !slices.Equal(think, c.jthink) {
			t.Errorf("%s: Preceding = %v, %v; want %v, %v", c.name, job, think, c.job, c.jthink)
		}
		if st := g.Stats(true); len(st.Users) != 1 || st.Users[0] != c.user {
			t.Errorf("%s: per-user stats %+v, want %+v", c.name, st.Users, c.user)
		}
	}
	// Both users in one log: each user's figures are the same, whatever
	// the position of its nodes among the others'.
	both := append(slices.Clone(fig1), ties...)
	p, err := Identify(mkTrace(both...), Options{Method: Interarrival})
	if err != nil {
		t.Fatal(err)
	}
	st := SessionGraph(p, Transitive).Stats(true)
	want := map[int32]UserGraph{1: {User: 1, Nodes: 4, LongestPath: 3, MaxIn: 2, MaxOut: 1, Arity: 2},
		0: {User: 0, Nodes: 4, LongestPath: 2, MaxIn: 2, MaxOut: 2, Arity: 2}}
	if len(st.Users) != 2 || st.Users[0] != want[st.Users[0].User] || st.Users[1] != want[st.Users[1].User] || st.Nodes != 8 || st.Edges != 3+4 || st.RootEdges != 4 {
		t.Errorf("two users: %+v", st)
	}
}
