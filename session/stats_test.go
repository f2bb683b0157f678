package session

import (
	"testing"
)

// TestSummarize pins the order statistics Summarize reports: the value at
// rank ceil(q n), for samples whose ranks tell neighbouring indices apart.
func TestSummarize(t *testing.T) {
	seq := func(n int) []int64 {
		xs := make([]int64, n)
		for i := range xs {
			xs[i] = int64(n - i) // descending: Summarize must sort
		}
		return xs
	}
	for _, c := range []struct {
		name string
		xs   []int64
		want Dist
	}{
		{"empty", nil, Dist{}},
		{"one", []int64{7}, Dist{N: 1, Mean: 7, Min: 7, P10: 7, P25: 7, P50: 7, P75: 7, P90: 7, P99: 7, Max: 7}},
		{"four", []int64{40, 10, 30, 20}, Dist{N: 4, Mean: 25, Min: 10, P10: 10, P25: 10, P50: 20, P75: 30, P90: 40, P99: 40, Max: 40}},
		{"1 to 10", seq(10), Dist{N: 10, Mean: 5.5, Min: 1, P10: 1, P25: 3, P50: 5, P75: 8, P90: 9, P99: 10, Max: 10}},
		{"1 to 200", seq(200), Dist{N: 200, Mean: 100.5, Min: 1, P10: 20, P25: 50, P50: 100, P75: 150, P90: 180, P99: 198, Max: 200}},
	} {
		if got := Summarize(c.xs); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestFractionBelow checks the strict inequality and both ends.
func TestFractionBelow(t *testing.T) {
	xs := []int64{1, 2, 2, 3}
	for _, c := range []struct {
		x    int64
		want float64
	}{{0, 0}, {1, 0}, {2, 0.25}, {3, 0.75}, {4, 1}} {
		if got := FractionBelow(xs, c.x); got != c.want {
			t.Errorf("FractionBelow(%v, %d) = %v, want %v", xs, c.x, got, c.want)
		}
	}
	if got := FractionBelow(nil, 5); got != 0 {
		t.Errorf("FractionBelow of no values = %v, want 0", got)
	}
}

// TestTimesBetweenJobs pins the inter-arrival times, think times and
// session gaps of a hand-made log under Arrival at 60 min. User 1 submits
// at 0, 100, 86,500 and 172,901 (three sessions; gaps of exactly one day and
// one day and a second), user 2 at 5 and 65, user 3 once, and a job without
// a user; every job runs 10 s without waiting.
func TestTimesBetweenJobs(t *testing.T) {
	tr := mkTrace(tj{1, 0, 0, 10}, tj{2, 5, 0, 10}, tj{-1, 6, 0, 10}, tj{2, 65, 0, 10}, tj{1, 100, 0, 10},
		tj{3, 200, 0, 10}, tj{1, 86500, 0, 10}, tj{1, 172901, 0, 10})
	p, err := Identify(tr, Default(Arrival))
	if err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	for _, c := range []struct {
		name      string
		got, want Dist
	}{
		// Every user's successive submits, across sessions: 100, 86,400 and
		// 86,401 for user 1, 60 for user 2; up to a day: all but 86,401.
		{"inter-arrival times", st.InterArrivalAll, Summarize([]int64{100, 86400, 86401, 60})},
		{"inter-arrival times up to a day", st.InterArrival, Summarize([]int64{100, 86400, 60})},
		// First submit of a batch minus the end of the session's earlier jobs.
		{"think times", st.ThinkTime, Summarize([]int64{100 - 10, 65 - 15})},
		// First arrival of a session minus the previous session's last one.
		{"session gaps", st.SessionGap, Summarize([]int64{86500 - 100, 172901 - 86500})},
	} {
		if c.got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, c.got, c.want)
		}
	}
	if st.InterArrivalAll.Max != 86401 || st.InterArrival.N != 3 {
		t.Errorf("inter-arrival times: max %v and %d up to a day, want 86401 and 3", st.InterArrivalAll.Max, st.InterArrival.N)
	}
}
