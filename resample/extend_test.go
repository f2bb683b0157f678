package resample_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// manyUsers is a 40-week log with 20 long-term users (1-20) and 30
// temporary ones (21-50), user u's runtimes 3600+u s.
func manyUsers() *trace.Trace {
	spans := map[int32][2]int{}
	for u := int32(1); u <= 20; u++ {
		spans[u] = [2]int{0, 39}
	}
	for u := int32(21); u <= 50; u++ {
		a := 5 + int(u-21)
		spans[u] = [2]int{a, a + 2}
	}
	return synth(40, "UTC", spans)
}

func TestParsePreference(t *testing.T) {
	tests := []struct {
		in   string
		bias float64
		ok   bool
	}{
		{"runtime:high", 4, true}, {"jobs-per-week:low", 0.5, true}, {"procs:high", 1, true}, {"area:low", 2, true}, {"jobs:high", 2, true},
		{"runtime", 4, false}, {"runtime:mid", 4, false}, {"memory:high", 4, false}, {"runtime:high", 0, false}, {"runtime:high", -1, false},
	}
	for _, tc := range tests {
		p, err := resample.ParsePreference(tc.in, tc.bias)
		if (err == nil) != tc.ok {
			t.Errorf("%q bias %v: err %v", tc.in, tc.bias, err)
		}
		if err == nil && p.Bias != tc.bias {
			t.Errorf("%q: bias %v", tc.in, p.Bias)
		}
	}
}

// Users above the pool's median runtime are preferred for runtime:high,
// those below for runtime:low.
func TestPreferred(t *testing.T) {
	p, err := resample.Classify(manyUsers(), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.LongTerm) != 20 {
		t.Fatalf("%d long-term users", len(p.LongTerm))
	}
	for _, high := range []bool{true, false} {
		got := p.Preferred(p.LongTerm, &resample.Preference{Feature: resample.FeatureRuntime, High: high, Bias: 2})
		for i, u := range p.LongTerm {
			want := u.ID > 10
			if !high {
				want = u.ID <= 10
			}
			if got[i] != want {
				t.Errorf("high %v: user %d preferred %v", high, u.ID, got[i])
			}
		}
	}
	set := &resample.Preference{Users: map[int32]bool{3: true, 30: true}, Label: "set", Bias: 2}
	if n := slices.Index(p.Preferred(p.LongTerm, set), true); p.LongTerm[n].ID != 3 {
		t.Errorf("set: first preferred long-term user %d", p.LongTerm[n].ID)
	}
}

// A huge bias gives every long-term slot to preferred users, a tiny one
// none, and the weekly arrivals follow; the number of slots is kept.
func TestPreferenceBias(t *testing.T) {
	p, err := resample.Classify(manyUsers(), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		bias     float64
		wantPref bool
	}{{1e9, true}, {1e-9, false}} {
		pref := &resample.Preference{Feature: resample.FeatureRuntime, High: true, Bias: tc.bias}
		w, err := p.Generate(resample.Options{Seed: 5, Prefer: pref, Duration: 40 * week})
		if err != nil {
			t.Fatal(err)
		}
		if w.Params.LongTerm != 20 || w.Params.PreferredLongTerm != 10 || w.Params.PreferredTemporary != 15 {
			t.Errorf("params %+v", w.Params)
		}
		slots := map[int32]bool{}
		for _, c := range w.Copies {
			preferred := (c.Class == resample.LongTerm && c.User > 10) || (c.Class == resample.Temporary && c.User > 35)
			if preferred != tc.wantPref {
				t.Errorf("bias %g: copy of user %d (%v)", tc.bias, c.User, c.Class)
			}
			if c.Class == resample.LongTerm {
				slots[c.Slot] = true
			}
		}
		if len(slots) != 20 {
			t.Errorf("bias %g: %d long-term slots with jobs, want 20", tc.bias, len(slots))
		}
	}
}

// Without a preference the generator draws exactly as before (the bytes
// pinned elsewhere); with bias 1 it draws users alike but not identically.
func TestPreferenceDeterministic(t *testing.T) {
	p, err := resample.Classify(manyUsers(), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pref := &resample.Preference{Feature: resample.FeatureJobsPerWeek, High: false, Bias: 3}
	a, _ := p.Generate(resample.Options{Seed: 9, Prefer: pref})
	b, _ := p.Generate(resample.Options{Seed: 9, Prefer: pref})
	if !slices.Equal(a.Source, b.Source) {
		t.Error("the same seed and preference gave different workloads")
	}
	if got := a.Trace("").Header.GetAll(resample.KeyParams); len(got) != 1 || !strings.Contains(got[0], "prefer=jobs-per-week:low bias=3") {
		t.Errorf("params line %q", got)
	}
}

// Shaking by user moves each chosen user's jobs by one delta within the
// bound, leaves the other jobs alone and is deterministic per stream.
func TestShakeProperties(t *testing.T) {
	tr := manyUsers()
	rapid.Check(t, func(rt *rapid.T) {
		unit := resample.ShakeUnit(rapid.IntRange(0, 2).Draw(rt, "unit"))
		maxShift := int64(rapid.IntRange(1, 1800).Draw(rt, "shift"))
		n, err := resample.ShakeUnits(tr, unit)
		if err != nil {
			rt.Fatal(err)
		}
		opt := resample.ShakeOptions{Unit: unit, MaxShift: maxShift, Count: rapid.IntRange(0, min(n, 30)).Draw(rt, "count"),
			Seed: rapid.Uint64().Draw(rt, "seed"), Stream: rapid.Uint64Range(0, 9).Draw(rt, "stream")}
		st, moves, err := resample.Shake(tr, opt)
		if err != nil {
			rt.Fatal(err)
		}
		want := opt.Count
		if want == 0 {
			want = n
		}
		if len(moves) != want {
			rt.Fatalf("%d moves, want %d", len(moves), want)
		}
		for _, m := range moves {
			if m.Delta == 0 || m.Delta < -maxShift || m.Delta > maxShift {
				rt.Fatalf("move %+v outside ±%d", m, maxShift)
			}
		}
		if len(st.Jobs) != len(tr.Jobs) {
			rt.Fatalf("%d jobs, want %d", len(st.Jobs), len(tr.Jobs))
		}
		byID := map[int64]*trace.Job{}
		for i := range st.Jobs {
			byID[st.Jobs[i].ID] = &st.Jobs[i]
			if i > 0 && st.Jobs[i].Submit < st.Jobs[i-1].Submit {
				rt.Fatal("shaken log not sorted")
			}
		}
		changed := 0
		delta := map[int32]int64{} // per user, for user shaking
		for i := range tr.Jobs {
			o, s := &tr.Jobs[i], byID[tr.Jobs[i].ID]
			d := s.Submit - o.Submit
			if unit == resample.ShakeRuntime {
				d = s.Runtime - o.Runtime
			}
			if d != 0 {
				changed++
			}
			if unit == resample.ShakeUser {
				if prev, ok := delta[o.User]; ok && prev != d {
					rt.Fatalf("user %d moved by %d and %d", o.User, prev, d)
				}
				delta[o.User] = d
			}
		}
		if changed == 0 {
			rt.Fatal("nothing moved")
		}
		// A user's jobs keep their order (session shifts are bounded by
		// half the session gap).
		if unit != resample.ShakeRuntime {
			last := map[int32]int64{}
			for i := range tr.Jobs {
				s := byID[tr.Jobs[i].ID]
				if p, ok := last[s.User]; ok && s.Submit < p {
					rt.Fatalf("user %d's jobs reordered", s.User)
				}
				last[s.User] = s.Submit
			}
		}
		again, _, _ := resample.Shake(tr, opt)
		if !slices.Equal(again.Jobs, st.Jobs) {
			rt.Fatal("same options, different shaken logs")
		}
	})
}

func TestShakeBadOptions(t *testing.T) {
	tr := manyUsers()
	for _, opt := range []resample.ShakeOptions{
		{Unit: resample.ShakeSession, MaxShift: 1801},
		{Unit: resample.ShakeUser, MaxShift: 0},
		{Unit: resample.ShakeUser, MaxShift: resample.MaxShakeShift + 1},
		{Unit: resample.ShakeUser, MaxShift: 10, Count: -1},
		{Unit: resample.ShakeUser, MaxShift: 10, Count: 51},
	} {
		var re *resample.RangeError
		if _, _, err := resample.Shake(tr, opt); !errors.As(err, &re) {
			t.Errorf("%+v: err %v, want a RangeError", opt, err)
		}
	}
	if _, err := resample.ParseShakeUnit("job"); err == nil {
		t.Error("unit job accepted")
	}
}

// The original's metrics are those of a plain simulation, and a shaken
// variant moved by nothing is impossible (shifts are never 0): the runs
// differ from the original in at least one job's timing.
func TestShakeRuns(t *testing.T) {
	tr := manyUsers()
	cfg := resample.ShakeConfig{Shake: resample.ShakeOptions{Unit: resample.ShakeUser, MaxShift: 600}, Runs: 3,
		Scheduler: func() sim.Scheduler { s, _ := sched.New("fcfs"); return s }}
	r, err := resample.ShakeRuns(context.Background(), tr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Variants) != 3 || r.Units != 50 || r.Moved != 50 {
		t.Fatalf("%d variants, %d units, %d moved", len(r.Variants), r.Units, r.Moved)
	}
	res, _, err := sim.Simulate(context.Background(), tr, cfg.Scheduler(), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Original.Jobs != len(res.Jobs) {
		t.Errorf("original %d jobs, simulation %d", r.Original.Jobs, len(res.Jobs))
	}
	if _, err := resample.ShakeRuns(context.Background(), tr, resample.ShakeConfig{Shake: cfg.Shake, Runs: 0, Scheduler: cfg.Scheduler}); err == nil {
		t.Error("0 runs accepted")
	}
}

// stepLog has one user per week slot submitting one job a day whose
// runtime gives the machine a load of lo for the first half of the weeks
// and hi for the second.
func stepLog(weeks int, lo, hi float64) *trace.Trace {
	var h swf.Header
	h.Set("UnixStartTime", "978307200")
	h.Set("TimeZoneString", "UTC")
	h.Set("MaxProcs", "10")
	var jobs []trace.Job
	for w := 0; w < weeks; w++ {
		load := lo
		if w >= weeks/2 {
			load = hi
		}
		for d := 0; d < 7; d++ {
			for u := int32(1); u <= 3; u++ {
				jobs = append(jobs, trace.Job{ID: int64(len(jobs) + 1), Submit: int64(w*week + d*day + int(u)*3600), Wait: 0,
					Runtime: int64(load * 10 * day / 3 / 2), Procs: 2, ReqProcs: -1, ReqTime: -1, User: u, Group: -1, App: -1,
					Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1, Status: 1, AvgCPU: -1, UsedMem: -1, ReqMem: -1})
			}
		}
	}
	t := trace.New(h, jobs, trace.Options{})
	t.Name = "step"
	return t
}

func TestWeeklySegments(t *testing.T) {
	tests := []struct {
		name   string
		tr     *trace.Trace
		opt    resample.SegmentOptions
		bounds []int // first weeks of the segments
	}{
		{"step", stepLog(60, 0.3, 0.8), resample.SegmentOptions{}, []int{0, 30}},
		{"flat", stepLog(60, 0.5, 0.5), resample.SegmentOptions{}, []int{0}},
		{"step shorter than the minimum", stepLog(40, 0.3, 0.8), resample.SegmentOptions{MinWeeks: 25}, []int{0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := resample.Classify(tc.tr, resample.ClassifyOptions{Period: resample.PeriodSubmits})
			if err != nil {
				t.Fatal(err)
			}
			segs, err := p.WeeklySegments(10, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, s := range segs {
				got = append(got, s.FirstWeek)
			}
			if !slices.Equal(got, tc.bounds) {
				t.Errorf("segments start at weeks %v, want %v (%+v)", got, tc.bounds, segs)
			}
		})
	}
}

// Resampling from a segment copies only the segment's jobs, and
// CyclePhase and AlignLongTerm keep weekdays and times of day.
func TestSegmentGenerate(t *testing.T) {
	tr := stepLog(60, 0.3, 0.8)
	p, err := resample.Classify(tr, resample.ClassifyOptions{Period: resample.PeriodSubmits})
	if err != nil {
		t.Fatal(err)
	}
	segs, _ := p.WeeklySegments(10, resample.SegmentOptions{})
	sp, err := p.Segment(segs[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []resample.Options{{Seed: 1, Duration: 200 * week}, {Seed: 2, Duration: 200 * week, AlignLongTerm: true}, {Seed: 3, Duration: 200 * week, CyclePhase: true}} {
		w, err := sp.Generate(opt)
		if err != nil {
			t.Fatal(err)
		}
		checkAligned(t, sp.Trace, w)
		if len(w.Jobs) < 190*21 {
			t.Errorf("%+v: %d jobs over 200 weeks of 21 jobs a week", opt, len(w.Jobs))
		}
		for i := range w.Jobs {
			if s := sp.Trace.Jobs[w.Source[i]].Submit; s < segs[1].Start || s >= segs[1].End {
				t.Fatalf("job from time %d, outside the segment [%d, %d)", s, segs[1].Start, segs[1].End)
			}
		}
	}
	if _, err := sp.TBUOS(context.Background(), sched.NewFCFS(), resample.TBUOSOptions{Options: resample.Options{CyclePhase: true}}); err == nil {
		t.Error("TBUOS accepted CyclePhase")
	}
	if _, err := p.Segment(resample.Segment{Start: 0, End: 5 * week}); err == nil {
		t.Error("a 5-week segment was resampled")
	}
}

// TestPreferredFeatures ranks four long-term users by each feature against
// the median, worked out by hand. Their jobs (synth: 5 a week, runtime
// 3600 + user s): user 1 in weeks 0-29, 150 jobs on 8 processors; user 2
// in weeks 0-25 without Fridays, 104 jobs on 3; user 3 in weeks 3-29, 135
// on 4; user 4 in weeks 0-20, 105 on 5. Jobs: median 120, above it users 1
// and 3. Jobs a week: 5, 4, 5, 5, median 5, below it user 2. Mean
// runtime: 3601-3604 s, above the median users 3 and 4. Processors: above
// 4.5, users 1 and 4. Mean area: 28,808, 10,806, 14,412, 18,020, above
// 16,216, users 1 and 4, below it users 2 and 3.
func TestPreferredFeatures(t *testing.T) {
	tr := synth(30, "UTC", map[int32][2]int{1: {0, 29}, 2: {0, 25}, 3: {3, 29}, 4: {0, 20}})
	var jobs []trace.Job
	for _, j := range tr.Jobs {
		if j.User == 2 && (j.Submit%week)/day == 4 {
			continue
		}
		if j.User == 1 {
			j.Procs = 8
		}
		jobs = append(jobs, j)
	}
	p, err := resample.Classify(trace.New(tr.Header, jobs, trace.Options{}), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.LongTerm) != 4 {
		t.Fatalf("%d long-term users, want 4", len(p.LongTerm))
	}
	for _, c := range []struct {
		f    resample.Feature
		high bool
		want []int32
	}{
		{resample.FeatureJobs, true, []int32{1, 3}},
		{resample.FeatureJobsPerWeek, false, []int32{2}},
		{resample.FeatureJobsPerWeek, true, nil},
		{resample.FeatureRuntime, true, []int32{3, 4}},
		{resample.FeatureProcs, true, []int32{1, 4}},
		{resample.FeatureArea, true, []int32{1, 4}},
		{resample.FeatureArea, false, []int32{2, 3}},
	} {
		var got []int32
		for i, b := range p.Preferred(p.LongTerm, &resample.Preference{Feature: c.f, High: c.high, Bias: 2}) {
			if b {
				got = append(got, p.LongTerm[i].ID)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("feature %v, high %v: users %v, want %v", c.f, c.high, got, c.want)
		}
	}
	if got := p.Preferred(nil, &resample.Preference{Feature: resample.FeatureJobs, High: true, Bias: 2}); len(got) != 0 {
		t.Errorf("empty pool: %v", got)
	}
}

// TestShakeUnitString names the three units, parses each name back, and
// names a value past the last by its number.
func TestShakeUnitString(t *testing.T) {
	for u, name := range []string{"user", "session", "runtime"} {
		if got := resample.ShakeUnit(u).String(); got != name {
			t.Errorf("ShakeUnit(%d) = %q, want %q", u, got, name)
		}
		if p, err := resample.ParseShakeUnit(name); err != nil || p != resample.ShakeUnit(u) {
			t.Errorf("ParseShakeUnit(%q) = %v, %v", name, p, err)
		}
	}
	if got := resample.ShakeUnit(3).String(); got != "ShakeUnit(3)" {
		t.Errorf("ShakeUnit(3) = %q", got)
	}
}

// unitLog is a six-job log for the shaking units: (submit, runtime, user)
// (0, 10, 0), (0, 0, 1), (100, 5, 1), (-1, 5, 2), (50, 5, -1),
// (7200, -1, 1), in that order.
func unitLog() *trace.Trace {
	return smallLog([][3]int64{{0, 10, 0}, {0, 0, 1}, {100, 5, 1}, {-1, 5, 2}, {50, 5, -1}, {7200, -1, 1}})
}

// smallLog is a log of one-processor jobs given as (submit, runtime, user).
func smallLog(rows [][3]int64) *trace.Trace {
	var h swf.Header
	h.Set("MaxProcs", "4")
	var jobs []trace.Job
	for k, j := range rows {
		jobs = append(jobs, trace.Job{ID: int64(k + 1), Submit: j[0], Wait: 0, Runtime: j[1], Procs: 1, ReqProcs: -1, ReqTime: -1,
			User: int32(j[2]), Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1, Status: 1,
			AvgCPU: -1, UsedMem: -1, ReqMem: -1})
	}
	t := trace.New(h, jobs, trace.Options{})
	t.Name = "units"
	return t
}

// TestShakeUnitsByHand counts the units of unitLog: users 0 and 1 (user 2
// has no job with a submit time, the unknown user none); the sessions of
// users 0 and 1, the job of 7200 s opening a new one (more than
// SessionGap after the job of 100 s); the jobs with a user, a submit time
// and a runtime (the first three).
func TestShakeUnitsByHand(t *testing.T) {
	tr := unitLog()
	for _, tc := range []struct {
		u    resample.ShakeUnit
		want int
	}{{resample.ShakeUser, 2}, {resample.ShakeSession, 3}, {resample.ShakeRuntime, 3}} {
		if n, err := resample.ShakeUnits(tr, tc.u); err != nil || n != tc.want {
			t.Errorf("%s: %d units (%v), want %d", tc.u, n, err, tc.want)
		}
	}
}

// TestShakeLimits accepts the options at their limits: shifts of 1 s and of
// the largest allowed (30 days, or half the session gap for sessions), and
// every unit moved (a count equal to the number of units).
func TestShakeLimits(t *testing.T) {
	tr := unitLog()
	for _, opt := range []resample.ShakeOptions{
		{Unit: resample.ShakeUser, MaxShift: 1},
		{Unit: resample.ShakeUser, MaxShift: resample.MaxShakeShift},
		{Unit: resample.ShakeSession, MaxShift: resample.SessionGap / 2},
		{Unit: resample.ShakeRuntime, MaxShift: 10, Count: 3},
	} {
		_, moves, err := resample.Shake(tr, opt)
		if err != nil {
			t.Errorf("%+v: %v", opt, err)
			continue
		}
		n, _ := resample.ShakeUnits(tr, opt.Unit)
		if len(moves) != n {
			t.Errorf("%+v: %d moves, want %d", opt, len(moves), n)
		}
	}
}

// TestShakePicksUniformly moves one of unitLog's three runtime units at
// each of 300 seeds: each is picked a third of the time, 100 times within
// four binomial standard errors (4 sqrt(300 (1/3) (2/3)) = 33).
func TestShakePicksUniformly(t *testing.T) {
	tr := unitLog()
	picked := map[int32]int{}
	for seed := uint64(1); seed <= 300; seed++ {
		_, moves, err := resample.Shake(tr, resample.ShakeOptions{Unit: resample.ShakeRuntime, MaxShift: 10, Count: 1, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		picked[moves[0].FirstJob]++
	}
	for j := int32(0); j < 3; j++ {
		if n := picked[j]; n < 100-33 || n > 100+33 {
			t.Errorf("unit of job index %d picked %d times of 300, want 100 ± 33 (%v)", j, n, picked)
		}
	}
}

// TestShakeNeverBeforeZero shakes users of two one-job logs by up to 5 s
// at 200 seeds: a move that would take a unit's first job before time 0
// goes the other way (the job at 0 always moves later), and one that takes
// it exactly to 0 is kept: the job at 5 s lands at 0 when the shift is -5,
// one draw in 10, 20 times within four binomial standard errors
// (4 sqrt(200 (1/10) (9/10)) = 17).
func TestShakeNeverBeforeZero(t *testing.T) {
	at0 := smallLog([][3]int64{{0, 10, 1}, {1000, 10, 2}})
	at5 := smallLog([][3]int64{{5, 10, 1}, {1000, 10, 2}})
	zeros := 0
	for seed := uint64(1); seed <= 200; seed++ {
		opt := resample.ShakeOptions{Unit: resample.ShakeUser, MaxShift: 5, Seed: seed}
		st, moves, err := resample.Shake(at0, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range moves {
			if m.FirstJob == 0 && m.Delta <= 0 {
				t.Fatalf("seed %d: the job at 0 moved by %d", seed, m.Delta)
			}
		}
		for _, j := range st.Jobs {
			if j.Submit < 0 {
				t.Fatalf("seed %d: job %d submitted at %d", seed, j.ID, j.Submit)
			}
		}
		if st, _, err = resample.Shake(at5, opt); err != nil {
			t.Fatal(err)
		}
		for _, j := range st.Jobs {
			if j.ID == 1 && j.Submit == 0 {
				zeros++
			}
		}
	}
	if zeros < 20-17 || zeros > 20+17 {
		t.Errorf("the job at 5 s moved to 0 %d times of 200, want 20 ± 17", zeros)
	}
}
