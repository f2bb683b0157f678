package main

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/feedback"
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/trace"
)

// evaluatePrefix is the part of the log `hpcwl evaluate --prefix` replays:
// the first Jobs jobs by submission time, or those submitted in the first
// Seconds of the log.
type evaluatePrefix struct {
	Spec    string `json:"spec"`
	Jobs    int    `json:"jobs,omitempty"`
	Seconds int64  `json:"seconds,omitempty"`
	// LogJobs is the number of jobs of the whole log; SpanDays the time
	// from the first to the last submission of the prefix, in days.
	LogJobs  int     `json:"log_jobs"`
	SpanDays float64 `json:"span_days"`
}

// parsePrefix parses --prefix: a bare whole number is a count of jobs
// (Madon's Fig. 11 replays the first n jobs), a duration with a unit
// (30d, 12w... as the session thresholds accept them) a length of time
// from the first submission.
func parsePrefix(s string) (*evaluatePrefix, error) {
	if s == "" {
		return nil, nil
	}
	in := strings.TrimSpace(s)
	if n, err := strconv.Atoi(in); err == nil {
		if n <= 0 {
			return nil, usagef("--prefix %q: a number of jobs must be > 0", s)
		}
		return &evaluatePrefix{Spec: in, Jobs: n}, nil
	}
	sec, err := session.ParseDuration(in)
	if err != nil || sec <= 0 {
		return nil, usagef("--prefix %q: use a number of jobs (20000) or a duration with a unit (90d, 6w, 4320h)", s)
	}
	return &evaluatePrefix{Spec: in, Seconds: sec}, nil
}

// apply returns the prefix of t: its jobs in (submit, job number) order,
// cut after the first p.Jobs of them or before the first submitted p.Seconds
// or more after the first submission. t is left alone.
func (p *evaluatePrefix) apply(t *trace.Trace) *trace.Trace {
	c := t.Clone()
	c.SortBySubmit()
	n := len(c.Jobs)
	if p.Jobs > 0 {
		n = min(n, p.Jobs)
	} else if n > 0 {
		end := c.Jobs[0].Submit + p.Seconds
		for n > 0 && c.Jobs[n-1].Submit >= end {
			n--
		}
	}
	c.Jobs = c.Jobs[:n:n]
	p.LogJobs = len(t.Jobs)
	if first, last := c.Span(); n > 0 {
		p.SpanDays = float64(last-first) / 86400
	}
	return c
}

// evaluateCurve returns the submission and termination curves of the
// recorded log and of the rigid and feedback runs (Madon's Figs. 2 and 3):
// one line per step of simulated time from 0 (the log's start) to the last
// event, with the number of submissions and terminations in the step and
// their running totals. The rigid replay submits every job at its recorded
// time; rejected jobs count as submitted but never end; recorded ends are
// those of jobs with a known wait and runtime.
func evaluateCurve(t *trace.Trace, runs [2]*feedback.Run, step int64) []curvePoint {
	n := len(t.Jobs)
	var times [6][]int64 // recorded, rigid, feedback x submits, ends
	times[0] = make([]int64, 0, n)
	times[1] = make([]int64, 0, n)
	for i := range t.Jobs {
		j := &t.Jobs[i]
		times[0] = append(times[0], j.Submit)
		if e := j.End(); e >= 0 {
			times[1] = append(times[1], e)
		}
	}
	times[2] = times[0] // rigid submissions are the recorded ones
	for k, run := range runs {
		ends := make([]int64, 0, len(run.Result.Jobs))
		for _, o := range run.Result.Jobs {
			if o.End >= 0 {
				ends = append(ends, int64(o.End))
			}
		}
		times[3+2*k] = ends
	}
	sub := runs[1].Source.Submitted()
	times[4] = make([]int64, 0, len(sub))
	for _, s := range sub {
		if s >= 0 {
			times[4] = append(times[4], int64(s))
		}
	}
	var last int64
	for _, ts := range times {
		for _, x := range ts {
			last = max(last, x)
		}
	}
	bins := int(last/step) + 1
	var counts [6][]int64
	for c, ts := range times {
		counts[c] = make([]int64, bins)
		for _, x := range ts {
			counts[c][max(x, 0)/step]++
		}
	}
	points := make([]curvePoint, bins)
	var total [6]int64
	for i := range bins {
		p := &points[i]
		p.TimeS = int64(i) * step
		p.TimeDays = float64(int64(i)*step) / 86400
		cols := p.counts()
		for c := range counts {
			total[c] += counts[c][i]
			*cols[2*c], *cols[2*c+1] = counts[c][i], total[c]
		}
	}
	return points
}

// curvePoint is one step of the curves: for the recorded log, the rigid
// and the feedback run, the submissions and terminations in the step and
// their running totals; the struct tags give the Parquet schema.
type curvePoint struct {
	TimeS             int64   `parquet:"time_s"`
	TimeDays          float64 `parquet:"time_days"`
	RecordedSubmits   int64   `parquet:"recorded_submits"`
	RecordedSubmitted int64   `parquet:"recorded_submitted"`
	RecordedEnds      int64   `parquet:"recorded_ends"`
	RecordedEnded     int64   `parquet:"recorded_ended"`
	RigidSubmits      int64   `parquet:"rigid_submits"`
	RigidSubmitted    int64   `parquet:"rigid_submitted"`
	RigidEnds         int64   `parquet:"rigid_ends"`
	RigidEnded        int64   `parquet:"rigid_ended"`
	FeedbackSubmits   int64   `parquet:"feedback_submits"`
	FeedbackSubmitted int64   `parquet:"feedback_submitted"`
	FeedbackEnds      int64   `parquet:"feedback_ends"`
	FeedbackEnded     int64   `parquet:"feedback_ended"`
}

// counts returns the count columns of p in column order.
func (p *curvePoint) counts() [12]*int64 {
	return [12]*int64{&p.RecordedSubmits, &p.RecordedSubmitted, &p.RecordedEnds, &p.RecordedEnded,
		&p.RigidSubmits, &p.RigidSubmitted, &p.RigidEnds, &p.RigidEnded,
		&p.FeedbackSubmits, &p.FeedbackSubmitted, &p.FeedbackEnds, &p.FeedbackEnded}
}

// writeEvaluateCurve writes the curves (see evaluateCurve) as CSV.
func writeEvaluateCurve(w io.Writer, t *trace.Trace, runs [2]*feedback.Run, step int64) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("time_s,time_days")
	for _, m := range []string{"recorded", "rigid", "feedback"} {
		bw.WriteString("," + m + "_submits," + m + "_submitted," + m + "_ends," + m + "_ended")
	}
	bw.WriteString("\n")
	var b []byte
	points := evaluateCurve(t, runs, step)
	for i := range points {
		p := &points[i]
		b = strconv.AppendInt(b[:0], p.TimeS, 10)
		b = append(b, ',')
		b = strconv.AppendFloat(b, p.TimeDays, 'f', -1, 64)
		for _, c := range p.counts() {
			b = append(b, ',')
			b = strconv.AppendInt(b, *c, 10)
		}
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}
