package similarity_test

import (
	"errors"
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/similarity"
	"github.com/hpcwl/hpcwl/trace"
)

// TestAnalyzeZerosAndUserZero: user 0 is a user; runtimes of 0 s are
// values (two of them are identical, similarity 1). User 0 has four
// sessions of identical jobs, so every similarity is 1 and the user is as
// similar at each distance as at the next.
func TestAnalyzeZerosAndUserZero(t *testing.T) {
	h := int64(3600)
	var jobs []trace.Job
	for _, s := range []int64{0, 60, 3 * h, 6 * h, 9 * h} {
		jobs = append(jobs, trace.Job{User: 0, Submit: s, Procs: 2, ReqTime: 8, Runtime: 0})
	}
	r, err := similarity.Analyze(newTrace(jobs), similarity.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Users != 1 || len(r.Distances) != 11 {
		t.Fatalf("%d users, %d distances; want 1 and 11 (0 to the default 10)", r.Users, len(r.Distances))
	}
	// Pairs: 1 in the first session at distance 0; at distance d, the
	// sessions of sizes (2, 1, 1, 1): 2+1+1, 2+1, 2 for d = 1, 2, 3.
	for d, pairs := range []int64{1, 4, 3, 2, 0} {
		got := r.Distances[d]
		for a := range similarity.NumAttributes {
			if got.Pairs[a] != pairs {
				t.Errorf("distance %d, %s: %d pairs, want %d", d, a, got.Pairs[a], pairs)
				continue
			}
			if pairs > 0 && (got.Mean[a] != 1 || got.Identical[a] != 1 || !(math.Abs(got.Median[a]-0.99995) <= 1e-12)) {
				t.Errorf("distance %d, %s: mean %v, identical %v, median %v; want 1, 1, 0.99995", d, a, got.Mean[a], got.Identical[a], got.Median[a])
			}
			if pairs == 0 && !math.IsNaN(got.Mean[a]) {
				t.Errorf("distance %d, %s: mean %v without pairs, want NaN", d, a, got.Mean[a])
			}
		}
	}
	for _, d := range r.Dominance {
		if d.Users != 1 || d.Equal != 1 || d.Shorter != 0 || d.Longer != 0 {
			t.Errorf("%+v: want the one user equal", d)
		}
	}
	// No user has pairs at distance 2 here: the 1-vs-2 cells are empty,
	// with fractions 0.
	r, err = similarity.Analyze(newTrace(jobs[:3]), similarity.Options{MaxDistance: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range r.Dominance {
		if d.Near == 1 && (d.Users != 0 || d.Shorter != 0 || d.Equal != 0 || d.Longer != 0) {
			t.Errorf("%+v: want no user and fractions 0", d)
		}
	}
}

// TestRandomizeOneSessionUsers: users of one session are the same in every
// shuffle, so each shuffle equals the original and counts as at least it.
// Values are powers of 2 so that both sums are exact: user 1's pair has
// similarity ½ in each attribute; user 2's processors 1, 1, 4 give 1, ¼,
// ¼; the mean over the four pairs is ½.
func TestRandomizeOneSessionUsers(t *testing.T) {
	tr := newTrace([]trace.Job{
		{User: 1, Submit: 0, Procs: 2, ReqTime: 4, Runtime: 8},
		{User: 1, Submit: 60, Procs: 4, ReqTime: 8, Runtime: 16},
		{User: 2, Submit: 0, Procs: 1, ReqTime: 1, Runtime: 1},
		{User: 2, Submit: 60, Procs: 1, ReqTime: 1, Runtime: 1},
		{User: 2, Submit: 120, Procs: 4, ReqTime: 4, Runtime: 4},
	})
	for _, workers := range []int{0, 1, 3} {
		r, err := similarity.Randomize(tr, similarity.Options{}, 3, 1, workers)
		if err != nil {
			t.Fatal(err)
		}
		for a := range similarity.NumAttributes {
			if r.Original[a] != 0.5 || r.Above[a] != 3 || len(r.Shuffled[a]) != 3 {
				t.Errorf("workers %d, %s: original %v, above %d, shuffled %v; want 0.5, 3", workers, a, r.Original[a], r.Above[a], r.Shuffled[a])
			}
			for _, v := range r.Shuffled[a] {
				if v != 0.5 {
					t.Errorf("workers %d, %s: shuffled %v, want 0.5", workers, a, r.Shuffled[a])
					break
				}
			}
		}
	}
	if r, err := similarity.Randomize(tr, similarity.Options{}, 1, 1, 1); err != nil || r.Shuffles != 1 {
		t.Errorf("one shuffle: %v", err)
	}
	if _, err := similarity.Randomize(tr, similarity.Options{}, 0, 1, 1); !errors.Is(err, similarity.ErrOption) {
		t.Errorf("no shuffle: %v, want ErrOption", err)
	}
}

// TestUnknownEstimate: an estimate of -1 is unknown and its pairs are
// skipped; estimates of 0 are values (two zeros are identical).
func TestUnknownEstimate(t *testing.T) {
	r, err := similarity.Analyze(newTrace([]trace.Job{
		{User: 1, Submit: 0, Procs: 1, ReqTime: -1, Runtime: 5},
		{User: 1, Submit: 10, Procs: 1, ReqTime: 0, Runtime: 5},
		{User: 1, Submit: 20, Procs: 1, ReqTime: 0, Runtime: 5},
	}), similarity.Options{MaxDistance: 2})
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Distances[0]; d.Pairs != [3]int64{3, 1, 3} || d.Mean[similarity.Estimate] != 1 {
		t.Errorf("pairs %v, mean estimate similarity %v; want [3 1 3] and 1", d.Pairs, d.Mean[similarity.Estimate])
	}
}

// TestDominanceFractions: two users, one as similar at distance 0 as at 1
// (identical jobs), one more similar at distance 1: processors (1, 4) in
// his first session (0.25), then 4 (0.25 and 1 across: 0.625).
func TestDominanceFractions(t *testing.T) {
	h := int64(3600)
	r, err := similarity.Analyze(newTrace([]trace.Job{
		{User: 1, Submit: 0, Procs: 2, ReqTime: 8, Runtime: 8},
		{User: 1, Submit: 60, Procs: 2, ReqTime: 8, Runtime: 8},
		{User: 1, Submit: 3 * h, Procs: 2, ReqTime: 8, Runtime: 8},
		{User: 2, Submit: 0, Procs: 1, ReqTime: 8, Runtime: 8},
		{User: 2, Submit: 60, Procs: 4, ReqTime: 8, Runtime: 8},
		{User: 2, Submit: 3 * h, Procs: 4, ReqTime: 8, Runtime: 8},
	}), similarity.Options{MaxDistance: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range r.Dominance {
		want := [4]float64{2, 0, 1, 0} // users, shorter, equal, longer
		if d.Attribute == "procs" {
			want = [4]float64{2, 0, 0.5, 0.5}
		}
		if d.Near == 1 {
			want = [4]float64{}
		}
		if got := [4]float64{float64(d.Users), d.Shorter, d.Equal, d.Longer}; got != want {
			t.Errorf("%s %d-%d: %v, want %v", d.Attribute, d.Near, d.Far, got, want)
		}
	}
}

// TestRandomizeSmallUser: a user with sessions of 2 and 1 jobs of 1, 2 and
// 8 processors. A shuffle keeps the sizes, so its one same-session pair is
// one of the three pairs, each with probability 1/3: the shuffled
// similarity is 1/2, 1/8 or 1/4 and its mean over 300 shuffles is 7/24
// within 0.04 (four standard errors: the values' standard deviation is
// 0.16, over sqrt(300)).
func TestRandomizeSmallUser(t *testing.T) {
	h := int64(3600)
	tr := newTrace([]trace.Job{
		{User: 1, Submit: 0, Procs: 1, ReqTime: 1, Runtime: 1},
		{User: 1, Submit: 60, Procs: 2, ReqTime: 2, Runtime: 2},
		{User: 1, Submit: 3 * h, Procs: 8, ReqTime: 8, Runtime: 8},
	})
	r, err := similarity.Randomize(tr, similarity.Options{}, 300, 5, 2)
	if err != nil {
		t.Fatal(err)
	}
	for a := range similarity.NumAttributes {
		if r.Original[a] != 0.5 {
			t.Errorf("%s: original %v, want 0.5", a, r.Original[a])
		}
		sum, above := 0.0, 0
		for _, v := range r.Shuffled[a] {
			if v != 0.5 && v != 0.125 && v != 0.25 {
				t.Fatalf("%s: shuffled %v, not one of the pairs", a, v)
			}
			sum += v
			if v >= 0.5 {
				above++
			}
		}
		if m := sum / 300; !(math.Abs(m-7.0/24) <= 0.04) || r.Above[a] != above {
			t.Errorf("%s: mean shuffled %v, want 7/24 ± 0.04; above %d, counted %d", a, m, r.Above[a], above)
		}
	}
}
