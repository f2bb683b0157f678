package metrics

import (
	"math"

	"github.com/hpcwl/hpcwl/sim"
)

// Accuracy summarizes how well the runtime predictions of a run matched
// the jobs' actual runtimes (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, section 8.3.2, Eq. 11-12). R is the
// time a job actually ran (End - Start: its recorded runtime, or its
// requested time when it was killed) and P a prediction.
//
// The absolute error of P is |R - P| seconds; its relative accuracy is 1
// when R = P, else min(R, P) / max(R, P) (so 0 when exactly one of them is
// 0, and 1 when both are). The figures are means over the measured jobs.
type Accuracy struct {
	// Jobs counts the jobs averaged over.
	Jobs int `json:"jobs"`
	// InitialAbsError and InitialRelAccuracy judge each job's prediction
	// on arrival (sim.Outcome.Initial), the one a scheduler plans with
	// while the job waits.
	InitialAbsError    float64 `json:"initial_abs_error"`
	InitialRelAccuracy float64 `json:"initial_rel_accuracy"`
	// AbsError and RelAccuracy weight each prediction a job had by how
	// long it was in force between the job's submission and its
	// termination (Eq. 12: the waiting time counts). A job that ended at
	// its submit time counts its last prediction. They need the run's
	// prediction log (sim.Config.RecordPredictions); without it they are
	// 0 and TimeWeighted is false.
	AbsError    float64 `json:"abs_error"`
	RelAccuracy float64 `json:"rel_accuracy"`
	// TimeWeighted reports whether AbsError and RelAccuracy were computed.
	TimeWeighted bool `json:"time_weighted"`
	// Exact is the fraction of jobs whose initial prediction equalled the
	// runtime.
	Exact float64 `json:"exact"`
}

// RelativeAccuracy returns the relative accuracy of prediction p for
// runtime r (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, section 8.3.2, Eq. 11b): 1 if r == p, else min(r, p) / max(r, p).
// Negative arguments count as 0.
func RelativeAccuracy(r, p sim.Time) float64 {
	r, p = max(r, 0), max(p, 0)
	switch {
	case r == p:
		return 1
	case r < p:
		return float64(r) / float64(p)
	}
	return float64(p) / float64(r)
}

// AbsoluteError returns |r - p| in seconds (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, section 8.3.2, Eq. 11a).
func AbsoluteError(r, p sim.Time) float64 {
	return math.Abs(float64(r - p))
}

// ComputeAccuracy returns the prediction accuracy of the jobs of res whose
// indices are listed in jobs (nil means every job that started). With a
// prediction log (res.Predictions) it also computes the time-weighted
// figures of Eq. 12.
func ComputeAccuracy(res *sim.Result, jobs []int32) Accuracy {
	if jobs == nil {
		for i := range res.Jobs {
			if res.Jobs[i].Start >= 0 {
				jobs = append(jobs, int32(i))
			}
		}
	}
	var a Accuracy
	var ae, ra, exact float64
	for _, i := range jobs {
		o := &res.Jobs[i]
		r := o.Ran()
		ae += AbsoluteError(r, o.Initial)
		ra += RelativeAccuracy(r, o.Initial)
		if r == o.Initial {
			exact++
		}
	}
	a.Jobs = len(jobs)
	if a.Jobs == 0 {
		return a
	}
	n := float64(a.Jobs)
	a.InitialAbsError, a.InitialRelAccuracy, a.Exact = ae/n, ra/n, exact/n
	if res.Predictions == nil {
		return a
	}
	a.TimeWeighted = true
	a.AbsError, a.RelAccuracy = timeWeighted(res, jobs)
	return a
}

// timeWeighted returns the means of Eq. 12's absolute error and relative
// accuracy over jobs.
func timeWeighted(res *sim.Result, jobs []int32) (ae, ra float64) {
	// Group the log by job (counting sort, keeping the order of each job's
	// predictions). A log of revisions only (res.Revisions) gets each job's arrival
	// prediction back in front of its own entries.
	if len(res.Predictions) == 0 { // no job has an entry: no grouping (8 bytes per job)
		var buf [1]sim.PredictionChange
		for _, i := range jobs {
			o := &res.Jobs[i]
			var preds []sim.PredictionChange
			if res.Revisions {
				buf[0] = sim.PredictionChange{Job: sim.Ref(i), At: o.Submit, Prediction: o.Initial}
				preds = buf[:]
			}
			e, a := JobAccuracy(o, preds)
			ae += e
			ra += a
		}
		n := float64(len(jobs))
		return ae / n, ra / n
	}
	off := make([]int32, len(res.Jobs)+1)
	for _, c := range res.Predictions {
		off[c.Job+1]++
	}
	for i := 1; i < len(off); i++ {
		off[i] += off[i-1]
	}
	byJob := make([]sim.PredictionChange, len(res.Predictions))
	next := make([]int32, len(res.Jobs))
	copy(next, off[:len(res.Jobs)])
	for _, c := range res.Predictions {
		byJob[next[c.Job]] = c
		next[c.Job]++
	}
	var buf []sim.PredictionChange
	for _, i := range jobs {
		o := &res.Jobs[i]
		preds := byJob[off[i]:off[i+1]]
		if res.Revisions {
			buf = append(buf[:0], sim.PredictionChange{Job: sim.Ref(i), At: o.Submit, Prediction: o.Initial})
			buf = append(buf, preds...)
			preds = buf
		}
		e, a := JobAccuracy(o, preds)
		ae += e
		ra += a
	}
	n := float64(len(jobs))
	return ae / n, ra / n
}

// JobAccuracy returns the time-weighted absolute error and relative
// accuracy of one terminated job (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, section 8.3.2, Eq. 12): each prediction of
// preds (the job's, in the order given) is in force from its time to the
// next one's, the last until the job's end, and the accuracies are
// weighted by these durations over End - Submit. A job that ended at its
// submit time gets its last prediction's accuracy; a job without
// predictions is judged on o.Initial.
func JobAccuracy(o *sim.Outcome, preds []sim.PredictionChange) (absErr, relAcc float64) {
	r := o.Ran()
	if len(preds) == 0 {
		return AbsoluteError(r, o.Initial), RelativeAccuracy(r, o.Initial)
	}
	life := o.End - o.Submit
	if life <= 0 {
		p := preds[len(preds)-1].Prediction
		return AbsoluteError(r, p), RelativeAccuracy(r, p)
	}
	for k, c := range preds {
		from := max(c.At, o.Submit)
		to := o.End
		if k+1 < len(preds) {
			to = min(preds[k+1].At, o.End)
		}
		if to <= from {
			continue
		}
		w := float64(to - from)
		absErr += w * AbsoluteError(r, c.Prediction)
		relAcc += w * RelativeAccuracy(r, c.Prediction)
	}
	return absErr / float64(life), relAcc / float64(life)
}
