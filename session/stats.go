package session

import (
	"math"
	"slices"
)

// Dist summarizes a sample of durations in seconds (or counts).
type Dist struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	Min  float64 `json:"min"`
	P10  float64 `json:"p10"`
	P25  float64 `json:"p25"`
	P50  float64 `json:"median"`
	P75  float64 `json:"p75"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

// Summarize returns the distribution of xs (xs is sorted in place). Quantiles
// are order statistics: the value at rank ceil(q n).
func Summarize(xs []int64) Dist {
	if len(xs) == 0 {
		return Dist{}
	}
	slices.Sort(xs)
	var sum float64
	for _, x := range xs {
		sum += float64(x)
	}
	q := func(p float64) float64 {
		k := int(math.Ceil(p*float64(len(xs)))) - 1
		return float64(xs[min(max(k, 0), len(xs)-1)])
	}
	return Dist{N: len(xs), Mean: sum / float64(len(xs)), Min: float64(xs[0]),
		P10: q(.1), P25: q(.25), P50: q(.5), P75: q(.75), P90: q(.9), P99: q(.99), Max: float64(xs[len(xs)-1])}
}

// FractionBelow returns the fraction of the sorted sample xs that is < x.
func FractionBelow(sorted []int64, x int64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i, _ := slices.BinarySearch(sorted, x)
	return float64(i) / float64(len(sorted))
}

// Stats summarizes a partition (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 2).
type Stats struct {
	// Method is the session specification, such as "arrival:1h".
	Method string `json:"method"`
	// Users, Jobs, Batches and Sessions are counts; users without an ID
	// (-1) are not counted as a user.
	Users    int `json:"users"`
	Jobs     int `json:"jobs"`
	Batches  int `json:"batches"`
	Sessions int `json:"sessions"`
	// EstimatedEnds counts jobs whose end time was estimated (wait unknown).
	EstimatedEnds int `json:"estimated_ends"`
	// JobsPerBatch, BatchesPerSession and JobsPerSession are averages.
	JobsPerBatch      float64 `json:"jobs_per_batch"`
	BatchesPerSession float64 `json:"batches_per_session"`
	JobsPerSession    float64 `json:"jobs_per_session"`
	// SingleJobSessions and SingleJobBatches are the fractions of sessions
	// and batches holding one job (Zakay: more than 50% and 75%).
	SingleJobSessions float64 `json:"single_job_sessions"`
	SingleJobBatches  float64 `json:"single_job_batches"`
	// JobsInSingleJobSessions is the fraction of jobs in one-job sessions.
	JobsInSingleJobSessions float64 `json:"jobs_in_single_job_sessions"`
	// SessionJobs, SessionBatches and BatchJobs are the distributions of
	// jobs per session, batches per session and jobs per batch.
	SessionJobs    Dist `json:"session_jobs"`
	SessionBatches Dist `json:"session_batches"`
	BatchJobs      Dist `json:"batch_jobs"`
	// SessionsPerUser is the distribution of sessions per user.
	SessionsPerUser Dist `json:"sessions_per_user"`
	// SessionLength is the distribution of session lengths in seconds, as
	// the method defines them (section 4.5).
	SessionLength Dist `json:"session_length_s"`
	// LongSessions is the fraction of sessions longer than 1000 minutes
	// (section 4.8).
	LongSessions float64 `json:"sessions_over_1000min"`
	// ThinkTime is the distribution of think times between consecutive
	// batches of a session: first arrival minus the latest end of the
	// session's earlier jobs (Last: of the previous job), in seconds.
	ThinkTime Dist `json:"think_time_s"`
	// SessionGap is the distribution of the gaps between sessions of a
	// user: first arrival minus the previous session's last arrival.
	SessionGap Dist `json:"session_gap_s"`
	// InterArrival is the distribution of the times between successive
	// submits of a user, up to one day (longer ones cannot lie inside a
	// session; section 4.6); InterArrivalAll keeps every one.
	InterArrival    Dist `json:"inter_arrival_s"`
	InterArrivalAll Dist `json:"inter_arrival_all_s"`
}

// Stats computes the statistics of p.
func (p *Partition) Stats() *Stats {
	st := &Stats{Method: p.Options.String(), Jobs: len(p.Order), Batches: len(p.Batches),
		Sessions: len(p.Sessions), EstimatedEnds: p.EstimatedEnds}
	for _, u := range p.Users {
		if u.ID >= 0 {
			st.Users++
		}
	}
	if st.Jobs == 0 {
		return st
	}
	st.JobsPerBatch = float64(st.Jobs) / float64(st.Batches)
	st.BatchesPerSession = float64(st.Batches) / float64(st.Sessions)
	st.JobsPerSession = float64(st.Jobs) / float64(st.Sessions)
	sj := make([]int64, len(p.Sessions))
	sb := make([]int64, len(p.Sessions))
	sl := make([]int64, len(p.Sessions))
	var single, singleJobs, long int
	for i := range p.Sessions {
		s := &p.Sessions[i]
		sj[i], sb[i], sl[i] = int64(s.NumJobs()), int64(s.NumBatches()), s.Length
		if s.NumJobs() == 1 {
			single++
		}
		if s.Length > 1000*60 {
			long++
		}
	}
	singleJobs = single
	st.SingleJobSessions = float64(single) / float64(len(p.Sessions))
	st.JobsInSingleJobSessions = float64(singleJobs) / float64(st.Jobs)
	st.LongSessions = float64(long) / float64(len(p.Sessions))
	bj := make([]int64, len(p.Batches))
	single = 0
	for i := range p.Batches {
		bj[i] = int64(p.Batches[i].NumJobs())
		if bj[i] == 1 {
			single++
		}
	}
	st.SingleJobBatches = float64(single) / float64(len(p.Batches))
	st.SessionJobs, st.SessionBatches, st.BatchJobs = Summarize(sj), Summarize(sb), Summarize(bj)
	st.SessionLength = Summarize(sl)
	spu := make([]int64, 0, len(p.Users))
	for _, u := range p.Users {
		if u.ID >= 0 {
			spu = append(spu, int64(u.SessionHi-u.SessionLo))
		}
	}
	st.SessionsPerUser = Summarize(spu)
	tt, gap := p.thinkTimes()
	st.ThinkTime, st.SessionGap = Summarize(tt), Summarize(gap)
	day, all := p.interArrivals()
	st.InterArrival, st.InterArrivalAll = Summarize(day), Summarize(all)
	return st
}

// thinkTimes returns the think times before every non-first batch of a
// session and the gaps between consecutive sessions of a user.
func (p *Partition) thinkTimes() (tt, gap []int64) {
	jobs := p.Trace.Jobs
	last := p.Options.Method == Last || p.Options.Method == LastCut
	for ui := range p.Users {
		u := &p.Users[ui]
		if u.ID < 0 {
			continue
		}
		for si := u.SessionLo; si < u.SessionHi; si++ {
			s := &p.Sessions[si]
			if si > u.SessionLo {
				gap = append(gap, s.First-p.Sessions[si-1].Last)
			}
			var ref int64 = math.MinInt64
			for bi := s.BatchLo; bi < s.BatchHi; bi++ {
				b := &p.Batches[bi]
				if bi > s.BatchLo {
					r := ref
					if last {
						r = p.End[p.Order[b.Lo-1]]
					}
					tt = append(tt, jobs[p.Order[b.Lo]].Submit-r)
				}
				ref = max(ref, b.MaxEnd)
			}
		}
	}
	return tt, gap
}

// interArrivals returns each user's successive inter-arrival times, those up
// to a day and all of them.
func (p *Partition) interArrivals() (day, all []int64) {
	jobs := p.Trace.Jobs
	for ui := range p.Users {
		u := &p.Users[ui]
		if u.ID < 0 || u.SessionHi == u.SessionLo {
			continue
		}
		lo, hi := p.Sessions[u.SessionLo].Lo, p.Sessions[u.SessionHi-1].Hi
		for k := lo + 1; k < hi; k++ {
			d := jobs[p.Order[k]].Submit - jobs[p.Order[k-1]].Submit
			all = append(all, d)
			if d <= 86400 {
				day = append(day, d)
			}
		}
	}
	return day, all
}
