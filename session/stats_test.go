package session

import (
	"math"
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

// TestStatsByHand works out the statistics of two small logs by hand.
//
// Under Last (threshold 20 min), user 0: job 1 runs 0-1000; job 2 (100-110)
// arrives before job 1 ends and joins its batch; job 3 (500) arrives 390 s
// after the end of job 2, the previous job: a second batch, think time 390
// (under Max it would be 500 - 1000 < 0, the same batch); job 4 arrives at
// 100,000, a new session, 99,500 s after the previous session's last
// arrival. User 1 has one job, a session of its own.
//
// Under Arrival (60 min), two users submit every 3,000 s: user 1's session
// lasts exactly 60,000 s (1,000 minutes, not long), user 2's 60,001 s.
func TestStatsByHand(t *testing.T) {
	last := mkTrace(tj{0, 0, 0, 1000}, tj{0, 100, 0, 10}, tj{0, 500, 0, 10}, tj{0, 100000, 0, 10}, tj{1, 50, 0, 10})
	p, err := Identify(last, Default(Last))
	if err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	check := func(what string, got, want float64) {
		t.Helper()
		if !(math.Abs(got-want) <= 1e-12) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	check("users", float64(st.Users), 2)
	check("sessions", float64(st.Sessions), 3)
	check("batches", float64(st.Batches), 4)
	check("single-job sessions", st.SingleJobSessions, 2.0/3)
	check("jobs in single-job sessions", st.JobsInSingleJobSessions, 2.0/5)
	check("single-job batches", st.SingleJobBatches, 3.0/4)
	check("sessions per user, mean", st.SessionsPerUser.Mean, 1.5)
	check("sessions per user, max", st.SessionsPerUser.Max, 2)
	check("think time", st.ThinkTime.Mean, 390)
	check("think times", float64(st.ThinkTime.N), 1)
	check("session gap", st.SessionGap.Mean, 99500)
	check("inter-arrivals up to a day", float64(st.InterArrival.N), 2)
	check("inter-arrival mean, up to a day", st.InterArrival.Mean, 250)
	check("inter-arrivals", float64(st.InterArrivalAll.N), 3)
	check("inter-arrival max", st.InterArrivalAll.Max, 99500)

	// Under Max the think time runs from the latest end of the session's
	// earlier jobs: job 3 at 1100 follows job 1's end (1000) by 100 s,
	// job 2's (110) by 990.
	p, err = Identify(mkTrace(tj{0, 0, 0, 1000}, tj{0, 100, 0, 10}, tj{0, 1100, 0, 10}), Default(Max))
	if err != nil {
		t.Fatal(err)
	}
	st = p.Stats()
	check("think times under Max", float64(st.ThinkTime.N), 1)
	check("think time under Max", st.ThinkTime.Mean, 100)

	var jobs []tj
	for k := int64(0); k <= 20; k++ {
		jobs = append(jobs, tj{1, 3000 * k, 0, 10}, tj{2, 3000*k + k/20, 0, 10})
	}
	p, err = Identify(mkTrace(jobs...), Default(Arrival))
	if err != nil {
		t.Fatal(err)
	}
	st = p.Stats()
	check("session length max", st.SessionLength.Max, 60001)
	check("session length min", st.SessionLength.Min, 60000)
	check("sessions over 1000 min", st.LongSessions, 0.5)
}
