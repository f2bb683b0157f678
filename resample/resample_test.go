package resample_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/summary"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

const (
	day  = 86400
	week = resample.Week
)

// synth builds a log of the given length in weeks, starting on Monday
// 2001-01-01 00:00 in the zone named tz, with users whose activity runs
// from week a to week b (inclusive), jobs every day at 09:00 + user minutes
// on weekdays.
func synth(weeks int, tz string, spans map[int32][2]int) *trace.Trace {
	var h swf.Header
	h.Set("UnixStartTime", "978307200") // 2001-01-01 00:00 UTC, a Monday
	h.Set("TimeZoneString", tz)
	h.Set("MaxProcs", "64")
	var jobs []trace.Job
	for u := int32(1); int(u) <= len(spans); u++ {
		s := spans[u]
		for w := s[0]; w <= s[1]; w++ {
			for d := 0; d < 5; d++ {
				t := int64(w*week+d*day+9*3600) + int64(u)*60
				jobs = append(jobs, trace.Job{Submit: t, Wait: 0, Runtime: 3600 + int64(u), Procs: int32(1 + u%8),
					ReqProcs: -1, ReqTime: 7200, User: u, Group: -1, App: -1, Queue: -1, Partition: -1,
					Preceding: -1, ThinkTime: -1, Status: 1, AvgCPU: -1, UsedMem: -1, ReqMem: -1})
			}
		}
	}
	tr := trace.New(h, jobs, trace.Options{})
	tr.SortBySubmit()
	for i := range tr.Jobs {
		tr.Jobs[i].ID = int64(i + 1)
	}
	tr.Name = "synthetic"
	return tr
}

// spans30 is a 30-week log: users 1-4 long-term, 5-7 temporary, 8 only in
// the first 4 weeks and 9 only in the last 4 (both discarded).
var spans30 = map[int32][2]int{
	1: {0, 29}, 2: {2, 20}, 3: {10, 29}, 4: {0, 13},
	5: {5, 8}, 6: {12, 14}, 7: {20, 25},
	8: {0, 2}, 9: {26, 29},
}

func TestClassify(t *testing.T) {
	tr := synth(30, "UTC", spans30)
	tests := []struct {
		name string
		opt  resample.ClassifyOptions
		want map[resample.Class][]int32
	}{
		{"defaults", resample.ClassifyOptions{}, map[resample.Class][]int32{
			resample.LongTerm: {1, 2, 3, 4}, resample.Temporary: {5, 6, 7}, resample.Discarded: {8, 9}}},
		{"no discard", resample.ClassifyOptions{NoDiscard: true}, map[resample.Class][]int32{
			resample.LongTerm: {1, 2, 3, 4}, resample.Temporary: {5, 6, 7, 8, 9}}},
		{"span 15 weeks", resample.ClassifyOptions{LongTermSpan: 15 * week}, map[resample.Class][]int32{
			resample.LongTerm: {1, 2, 3}, resample.Temporary: {4, 5, 6, 7}, resample.Discarded: {8, 9}}},
		{"touch 6 weeks", resample.ClassifyOptions{Boundary: 6 * week, Touch: true}, map[resample.Class][]int32{
			resample.LongTerm: {1, 2, 3, 4}, resample.Temporary: {6}, resample.Discarded: {5, 7, 8, 9}}},
		{"rare", resample.ClassifyOptions{Rare: []resample.RarePeriod{{User: 1, Begin: 0, End: 2*week - 1}, {User: 6, Begin: 0, End: 1 << 40}}},
			map[resample.Class][]int32{resample.LongTerm: {1, 2, 3, 4}, resample.Temporary: {5, 7}, resample.Discarded: {8, 9}, resample.Rare: {1, 6}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := resample.Classify(tr, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			got := map[resample.Class][]int32{}
			for c, us := range map[resample.Class][]*resample.User{resample.LongTerm: p.LongTerm, resample.Temporary: p.Temporary,
				resample.Discarded: p.Discarded, resample.Rare: p.Rare} {
				for _, u := range us {
					got[c] = append(got[c], u.ID)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if p.Weeks() != 30 {
				t.Errorf("log weeks %d, want 30", p.Weeks())
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	short := synth(10, "UTC", map[int32][2]int{1: {0, 9}})
	noUser := synth(30, "UTC", map[int32][2]int{1: {0, 29}})
	for i := range noUser.Jobs {
		noUser.Jobs[i].User = -1
	}
	var se *resample.ShortLogError
	if _, err := resample.Classify(short, resample.ClassifyOptions{}); !errors.As(err, &se) {
		t.Errorf("10-week log: got %v, want a ShortLogError", err)
	} else {
		t.Log(err)
	}
	if _, err := resample.Classify(noUser, resample.ClassifyOptions{}); !errors.Is(err, resample.ErrNoUsers) {
		t.Errorf("log without users: got %v, want ErrNoUsers", err)
	}
	p, err := resample.Classify(synth(30, "UTC", spans30), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// With InnerRate the weekly rate counts the log's weeks less both
	// boundary windows: 3 temporary users over 30 - 8 weeks.
	if w, err := p.Generate(resample.Options{InnerRate: true, Duration: resample.MinDuration}); err != nil || p.Weeks() != 30 || w.Params.WeeklyRate != 3.0/22 {
		t.Errorf("inner rate: %v, %d weeks; want 3/22 a week over 30 weeks (%v)", w.Params.WeeklyRate, p.Weeks(), err)
	}
	// A preference needs a positive bias and a known feature, or a set of
	// users (which needs no feature).
	for _, c := range []struct {
		pref *resample.Preference
		ok   bool
	}{
		{&resample.Preference{Feature: resample.FeatureJobs, High: true, Bias: 0}, false},
		{&resample.Preference{Feature: 99, High: true, Bias: 2}, false},
		{&resample.Preference{Users: map[int32]bool{1: true}, Label: "one", Bias: 2}, true},
	} {
		w, err := p.Generate(resample.Options{Prefer: c.pref, Duration: resample.MinDuration})
		if (err == nil) != c.ok {
			t.Errorf("preference %+v: error %v", *c.pref, err)
		}
		if err == nil && w.Params.PreferredLongTerm != 1 {
			t.Errorf("preference %+v: %d preferred long-term users, want 1", *c.pref, w.Params.PreferredLongTerm)
		}
	}
	// The limits themselves are accepted; the error names the value.
	if _, err := p.Generate(resample.Options{LoadFactor: 0.01, Duration: resample.MaxDuration}); err != nil {
		t.Errorf("the longest duration: %v", err)
	}
	if _, err := p.Generate(resample.Options{LoadFactor: resample.MaxLoadFactor, Duration: resample.MinDuration}); err != nil {
		t.Errorf("the largest load factor: %v", err)
	}
	if _, err := p.Generate(resample.Options{LoadFactor: 100.5}); err == nil || !strings.Contains(err.Error(), "load factor 100.5 ") {
		t.Errorf("load factor 100.5: error %v, want the value named", err)
	}
	for _, o := range []resample.Options{
		{LoadFactor: -1}, {LoadFactor: 101}, {Duration: 3 * day}, {Duration: 101 * 52 * week}, {RBNPW: 100}, {RBNPW: 0.01},
	} {
		_, err := p.Generate(o)
		if err == nil {
			t.Errorf("%+v: no error", o)
			continue
		}
		t.Log(err)
	}
}

func TestGenerateProperties(t *testing.T) {
	for _, tz := range []string{"UTC", "Europe/Stockholm", "US/Pacific"} {
		tr := synth(30, tz, spans30)
		p, err := resample.Classify(tr, resample.ClassifyOptions{Rare: []resample.RarePeriod{{User: 7, Begin: 0, End: 1 << 40}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []resample.Options{
			{Seed: 1}, {Seed: 2, LoadFactor: 2.5, Duration: 200 * week}, {Seed: 3, LoadFactor: 0.5}, {Seed: 4, RBNPW: 0.05, WeekZeroArrivals: true},
		} {
			t.Run(fmt.Sprintf("%s/%+v", tz, o), func(t *testing.T) {
				w, err := p.Generate(o)
				if err != nil {
					t.Fatal(err)
				}
				checkAligned(t, tr, w)
				for i := range w.Jobs {
					if s := w.Jobs[i].Submit; s < 0 || s >= w.Params.Duration {
						t.Fatalf("job %d at %d, outside [0, %d)", w.Jobs[i].ID, s, w.Params.Duration)
					}
				}
				slots := map[int32]bool{}
				for _, c := range w.Copies {
					if c.Class == resample.LongTerm {
						slots[c.Slot] = true
					}
				}
				if len(slots) != w.Params.LongTerm {
					t.Errorf("%d long-term slots with jobs, want %d", len(slots), w.Params.LongTerm)
				}
			})
		}
	}
}

func swfBytes(t *testing.T, w *resample.Workload) []byte {
	var b bytes.Buffer
	if err := w.Trace("").WriteSWF(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSameSeedSameLog(t *testing.T) {
	p, err := resample.Classify(synth(30, "Europe/Stockholm", spans30), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gen := func(seed, stream uint64) []byte {
		w, err := p.Generate(resample.Options{Seed: seed, Stream: stream, LoadFactor: 1.7, Duration: 100 * week})
		if err != nil {
			t.Fatal(err)
		}
		return swfBytes(t, w)
	}
	a, b := gen(7, 0), gen(7, 0)
	if !bytes.Equal(a, b) {
		t.Error("the same seed gave different logs")
	}
	if bytes.Equal(a, gen(8, 0)) || bytes.Equal(a, gen(7, 1)) {
		t.Error("another seed or stream gave the same log")
	}
	// The copy map reads back.
	tr, err := trace.Read(swf.NewReader(bytes.NewReader(a)), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := resample.Copies(&tr.Header)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tr.Jobs {
		if _, ok := m[tr.Jobs[i].User]; !ok {
			t.Fatalf("job %d: user %d has no UserCopy line", tr.Jobs[i].ID, tr.Jobs[i].User)
		}
		// The source's waits describe another schedule: none is kept.
		if tr.Jobs[i].Wait != -1 {
			t.Fatalf("job %d: wait %d, want -1 (unknown)", tr.Jobs[i].ID, tr.Jobs[i].Wait)
		}
	}
}

// offeredLoad is the processor-time of the jobs over the machine's in the
// generated period.
func offeredLoad(t *testing.T, w *resample.Workload) float64 {
	s := summary.Of(w.Trace(""))
	return float64(s.OfferedLoad) * float64(s.LastSubmit-s.PeriodStart) / float64(w.Params.Duration)
}

func TestLoadFactorMonotone(t *testing.T) {
	p, err := resample.Classify(synth(30, "UTC", spans30), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	prev := 0.0
	for _, f := range []float64{0.5, 1, 2, 3, 5} {
		// The mean over a few streams: one draw fluctuates.
		sum := 0.0
		for s := uint64(0); s < 8; s++ {
			w, err := p.Generate(resample.Options{Seed: 11, Stream: s, LoadFactor: f, Duration: 60 * week})
			if err != nil {
				t.Fatal(err)
			}
			sum += offeredLoad(t, w)
		}
		load := sum / 8
		t.Logf("load factor %v: offered load %.3f", f, load)
		if load <= prev {
			t.Errorf("load factor %v: offered load %.3f not above %.3f", f, load, prev)
		}
		prev = load
	}
}

func TestSaturated(t *testing.T) {
	tests := []struct {
		name string
		c    []float64
		want bool
	}{
		{"flat", []float64{5, 3, 8, 2, 6, 4, 7, 3, 5, 4}, false},
		{"growing", []float64{0, 2, 4, 6, 8, 10, 12, 14, 16, 18}, true},
		{"half a job per week", []float64{0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5}, false},
		{"spike at the end", []float64{1, 1, 1, 1, 1, 1, 1, 1, 50, 100}, false},
		{"too short", []float64{1}, false},
	}
	for _, tc := range tests {
		if got, slope := resample.Saturated(tc.c); got != tc.want {
			t.Errorf("%s: saturated %v (slope %.2f), want %v", tc.name, got, slope, tc.want)
		}
	}
}

func TestWarnings(t *testing.T) {
	// 14 weeks: less than 12 + 2 x 4; user 3 is discarded with a third of
	// the jobs.
	p, err := resample.Classify(synth(14, "UTC", map[int32][2]int{1: {0, 13}, 2: {5, 7}, 3: {0, 1}}), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The period runs from 0 to the last submit, week 13's Friday at
	// 09:01: 8,240,460 s, 13.6 weeks. User 1 (70 jobs) is long-term, user
	// 2 (15) temporary, user 3 (10) discarded: 70/95 = 74 %, 10/95 = 10.5 %.
	want := []string{
		"the log spans 13.6 weeks, less than the long-term span plus both boundary windows (20 weeks): " +
			"few users can be long-term (here 1, with 74% of the jobs) and the windows cover most of the log; " +
			"resampled workloads will differ from it more than usual",
		"the 1 discarded users (active only near an end of the log) hold 10 jobs, 10.5% of the usable jobs; " +
			"resampled workloads will hold about that many fewer jobs (--discard touch|none changes the rule)",
	}
	if w := p.Warnings(); !slices.Equal(w, want) {
		t.Errorf("short log: warnings\n%q\nwant\n%q", w, want)
	}
	// A log exactly as long as the span plus both windows, 20 weeks (its
	// last job at 20 weeks, a second later the first): no warning; a
	// second shorter: the warning.
	for _, c := range []struct {
		end  int64
		warn bool
	}{{20 * week, false}, {20*week - 1, true}} {
		tr := synth(20, "UTC", map[int32][2]int{1: {0, 19}, 2: {0, 19}})
		j := tr.Jobs[len(tr.Jobs)-1]
		j.ID, j.Submit = j.ID+1, c.end
		tr = trace.New(tr.Header, append(tr.Jobs, j), trace.Options{})
		p, err := resample.Classify(tr, resample.ClassifyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Start != 0 || p.End != c.end {
			t.Fatalf("period %d..%d, want 0..%d", p.Start, p.End, c.end)
		}
		if w := strings.Join(p.Warnings(), "\n"); strings.Contains(w, "long-term span") != c.warn {
			t.Errorf("log of %d s: warnings %q, want the short-log warning %v", c.end, w, c.warn)
		}
	}
	// Discarded users holding exactly 5 % of the jobs (user 2's 5 of 100)
	// are not warned about.
	p, err = resample.Classify(synth(20, "UTC", map[int32][2]int{1: {0, 18}, 2: {19, 19}}), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c := p.Counts()[resample.Discarded]; c.Jobs != 5 || len(p.Trace.Jobs) != 100 {
		t.Fatalf("%d discarded jobs of %d, want 5 of 100", c.Jobs, len(p.Trace.Jobs))
	}
	if w := strings.Join(p.Warnings(), "\n"); strings.Contains(w, "discarded") {
		t.Errorf("5 %% discarded: warnings %q", w)
	}
	p, err = resample.Classify(synth(30, "UTC", spans30), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w := p.Warnings(); len(w) != 1 || !strings.Contains(w[0], "6.8% of the usable jobs") {
		t.Errorf("30-week log: warnings %q, want the discarded users' share", w)
	}
	p, err = resample.Classify(synth(30, "UTC", map[int32][2]int{1: {0, 29}, 2: {5, 20}}), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w := p.Warnings(); len(w) != 0 {
		t.Errorf("warnings %q, want none", w)
	}
}

// TestAlignLongTerm: with AlignLongTerm every long-term slot starts at the
// same week, so every slot's first copy has one shift (modulo the cycle);
// by default the shifts differ.
func TestAlignLongTerm(t *testing.T) {
	p, err := resample.Classify(synth(30, "UTC", spans30), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Seeds 1 to 100 with alignment: the common week, drawn from the 30
	// of the cycle, is the first one (0) for some of them.
	runs := []struct {
		seed  uint64
		align bool
	}{{5, false}}
	for s := uint64(1); s <= 100; s++ {
		runs = append(runs, struct {
			seed  uint64
			align bool
		}{s, true})
	}
	for _, r := range runs {
		align := r.align
		w, err := p.Generate(resample.Options{Seed: r.seed, AlignLongTerm: align})
		if err != nil {
			t.Fatal(err)
		}
		first := map[int32]int{}
		for _, c := range w.Copies {
			if _, ok := first[c.Slot]; c.Class == resample.LongTerm && !ok {
				first[c.Slot] = c.Shift
			}
		}
		shifts := map[int]bool{} // modulo the cycle: a slot may have no job in cycle 0
		cyc := w.Params.CycleWeeks
		for _, s := range first {
			shifts[(s%cyc+cyc)%cyc] = true
		}
		if len(first) < 2 || (len(shifts) == 1) != align {
			t.Errorf("seed %d, AlignLongTerm %v: %d slots with %d distinct first shifts", r.seed, align, len(first), len(shifts))
		}
	}
}
