package clean_test

import (
	"fmt"
	"regexp"
	"sort"
	"testing"

	"github.com/hpcwl/hpcwl/clean"
	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

const week = 7 * 86400

// builder makes synthetic traces whose relative time 0 is a Monday 00:00 UTC.
type builder struct{ jobs []trace.Job }

func (b *builder) add(user int32, submit int64) {
	b.jobs = append(b.jobs, trace.Job{Submit: submit, Wait: 0, Runtime: 30, Procs: 1, ReqProcs: 1,
		ReqTime: 60, AvgCPU: -1, UsedMem: -1, ReqMem: -1, Status: 1, User: user, Group: -1, App: -1,
		Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1})
}

// regular gives user n jobs a week for weeks [from, to), spread over the
// week's working days.
func (b *builder) regular(user int32, n int, from, to int) {
	for w := from; w < to; w++ {
		for k := 0; k < n; k++ {
			b.add(user, int64(w)*week+int64(k%5)*86400+36000+int64(k)*60)
		}
	}
}

// burst gives user n jobs every spacing seconds from start.
func (b *builder) burst(user int32, n int, start, spacing int64) {
	for k := 0; k < n; k++ {
		b.add(user, start+int64(k)*spacing)
	}
}

func (b *builder) trace() *trace.Trace {
	sort.SliceStable(b.jobs, func(x, y int) bool { return b.jobs[x].Submit < b.jobs[y].Submit })
	for i := range b.jobs {
		b.jobs[i].ID = int64(i + 1)
	}
	var h swf.Header
	h.Add("UnixStartTime", fmt.Sprint(4*86400)) // Monday 1970-01-05
	h.Add("TimeZoneString", "UTC")
	h.Add("MaxProcs", "64")
	return trace.New(h, b.jobs, trace.Options{})
}

func flurryJobs(tr *trace.Trace, user int32, from, to int64) (first, last int64, n int) {
	first = -1
	for _, j := range tr.Jobs {
		if j.User == user && j.Submit >= from && j.Submit <= to {
			if first < 0 {
				first = j.ID
			}
			last = j.ID
			n++
		}
	}
	return first, last, n
}

func TestDetectFlurriesSynthetic(t *testing.T) {
	var b builder
	for u := int32(1); u <= 5; u++ {
		b.regular(u, 50, 0, 20)
	}
	b.regular(9, 20, 0, 8) // quiet in weeks 8 to 11, around the burst
	b.regular(9, 20, 12, 20)
	// A burst of 2000 jobs 4 minutes apart from Sunday noon of week 9 to
	// Friday of week 10, with a few jobs two hours before it. Week 9 holds
	// only 180 burst jobs, too few to flag, but the extension over gaps
	// shorter than a day reaches back to the early jobs.
	start := int64(10*week - 12*3600)
	b.burst(9, 3, start-2*3600, 60)
	b.burst(9, 2000, start, 240)
	tr := b.trace()
	end := start + 2000*240
	first, last, n := flurryJobs(tr, 9, start-2*3600, end)
	_, _, inWeek10 := flurryJobs(tr, 9, 10*week, end)

	for _, opt := range []clean.FlurryOptions{{Weekly: true}, {Median: true}} {
		fl := clean.DetectFlurries(tr, opt)
		if len(fl) != 1 {
			t.Fatalf("%v: %d flurries, want 1: %+v", opt, len(fl), fl)
		}
		f := fl[0]
		if f.User != 9 || f.FirstJob != first || f.LastJob != last || f.Jobs != n || f.FirstWeek != 10 || f.LastWeek != 10 {
			t.Errorf("%v: flurry %+v, want user 9 jobs %d..%d (%d) week 10", opt, f, first, last, n)
		}
		if want := fmt.Sprintf("user=9 and job>=%d and job<=%d", first, last); f.Filter != want {
			t.Errorf("filter %q, want %q", f.Filter, want)
		}
		if f.WeekStart != "1970-03-16" {
			t.Errorf("week start %s, want 1970-03-16", f.WeekStart)
		}
	}
	// Cleaning removes the flurry's jobs and reports how many.
	out, rep, err := clean.Clean(tr, clean.Options{Flurries: clean.FlurryOptions{Weekly: true}, Oversize: clean.OversizeKeep})
	if err != nil {
		t.Fatal(err)
	}
	removed := -1
	for _, r := range rep.Removed {
		if r.Reason == "flurry" {
			removed = r.Jobs
		}
	}
	if removed != n || out.Len() != tr.Len()-n || rep.Output != tr.Len()-n {
		t.Errorf("cleaning: %d flurry jobs removed, %d of %d kept; want %d removed", removed, out.Len(), tr.Len(), n)
	}
	// The detector sees only the jobs the other rules keep: when the
	// burst's jobs are partial-execution records, removed by the first
	// rule, there is no flurry left to find.
	partial := tr.Clone()
	for i := range partial.Jobs {
		if j := &partial.Jobs[i]; j.User == 9 && j.ID >= first && j.ID <= last {
			j.Status = 2
		}
	}
	if _, rep, err := clean.Clean(partial, clean.Options{Flurries: clean.FlurryOptions{Weekly: true}, Oversize: clean.OversizeKeep}); err != nil {
		t.Error(err)
	} else if len(rep.Flurries) != 0 {
		t.Errorf("burst of partial records: flurries %+v, want none", rep.Flurries)
	}
	fl := clean.DetectFlurries(tr, clean.FlurryOptions{Weekly: true, Median: true})
	if len(fl) != 1 || fl[0].Method != "weekly+median" {
		t.Errorf("both detectors: %+v, want one flurry found by both", fl)
	}
	// Without the gap extension the three early jobs stay out.
	fl = clean.DetectFlurries(tr, clean.FlurryOptions{Weekly: true, Gap: -1})
	if len(fl) != 1 || fl[0].Jobs != inWeek10 {
		t.Errorf("no gap: %+v, want the %d jobs of week 10", fl, inWeek10)
	}
	// Thresholds are options.
	if fl := clean.DetectFlurries(tr, clean.FlurryOptions{Weekly: true, MinJobs: 5000}); len(fl) != 0 {
		t.Errorf("min 5000: %+v", fl)
	}
	if fl := clean.DetectFlurries(tr, clean.FlurryOptions{Median: true, MedianFactor: 200}); len(fl) != 0 {
		t.Errorf("median factor 200: %+v", fl)
	}
	if fl := clean.DetectFlurries(tr, clean.FlurryOptions{}); fl != nil {
		t.Errorf("no detector: %+v", fl)
	}
}

func TestDetectFlurriesCascade(t *testing.T) {
	var b builder
	for u := int32(1); u <= 5; u++ {
		b.regular(u, 50, 0, 20)
	}
	b.burst(8, 1500, 3*week+3600, 100)
	b.burst(9, 2000, 13*week-12*3600, 60) // 720 jobs in week 12, 1280 in week 13
	tr := b.trace()
	if fl := clean.DetectFlurries(tr, clean.FlurryOptions{Weekly: true}); len(fl) != 0 {
		t.Errorf("without cascade the two flurries hide each other, found %+v", fl)
	}
	fl := clean.DetectFlurries(tr, clean.FlurryOptions{Weekly: true, Cascade: true})
	if len(fl) != 2 || fl[0].User != 8 || fl[0].Jobs != 1500 || fl[1].User != 9 || fl[1].Jobs != 2000 ||
		fl[1].FirstWeek != 12 || fl[1].LastWeek != 13 {
		t.Errorf("cascade: %+v, want users 8 (1500 jobs) and 9 (2000 jobs, weeks 12-13 merged)", fl)
	}
}

// inject adds a burst of n one-processor jobs by user, every spacing
// seconds from start, numbered from firstID, keeping the trace sorted.
func inject(tr *trace.Trace, user int32, start, spacing int64, n int, firstID int64) *trace.Trace {
	out := tr.Clone()
	for k := 0; k < n; k++ {
		out.Jobs = append(out.Jobs, trace.Job{ID: firstID + int64(k), Submit: start + int64(k)*spacing, Wait: 10,
			Runtime: 20 + int64(k%7), Procs: 1, ReqProcs: 1, ReqTime: 300, AvgCPU: -1, UsedMem: -1, ReqMem: -1,
			Status: 1, User: user, Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1})
	}
	sort.SliceStable(out.Jobs, func(a, b int) bool { return out.Jobs[a].Submit < out.Jobs[b].Submit })
	return out
}

// TestInjectedFlurryKTH injects a flurry into the real KTH-SP2 log, which
// has none, and checks that both detectors find exactly it and that
// cleaning removes exactly its jobs.
func TestInjectedFlurryKTH(t *testing.T) {
	orig, err := trace.Load(testdata.Path(t, "KTH-SP2-1996-2.1-cln.swf.gz"), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	base, _, err := clean.Clean(orig, clean.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Take the user active in the most weeks, and a quiet stretch of at
	// least 9 days in the user's activity, to hold a 4-day flurry with more
	// than a day of silence on each side.
	clock := base.Clock()
	var user trace.User
	most := 0
	for _, u := range base.Users() {
		weeks := map[int]bool{}
		for _, ji := range u.Jobs {
			weeks[clock.Week(base.Jobs[ji].Submit)] = true
		}
		if u.ID >= 0 && len(weeks) > most {
			most, user = len(weeks), u
		}
	}
	var start int64 = -1
	for k := 1; k < len(user.Jobs); k++ {
		prev, next := base.Jobs[user.Jobs[k-1]].Submit, base.Jobs[user.Jobs[k]].Submit
		if next-prev > 9*86400 {
			start = prev + 2*86400
			break
		}
	}
	if start < 0 {
		t.Fatalf("user %d has no quiet stretch", user.ID)
	}
	const n, spacing, firstID = 3000, 115, 1_000_000 // 3000 jobs over 4 days
	withFlurry := inject(base, user.ID, start, spacing, n, firstID)
	t.Logf("user %d (active %d weeks), flurry of %d jobs from t=%d", user.ID, most, n, start)

	for _, opt := range []clean.FlurryOptions{{Weekly: true}, {Median: true}, {Weekly: true, Cascade: true}} {
		fl := clean.DetectFlurries(withFlurry, opt)
		if len(fl) != 1 {
			t.Fatalf("%v: %d flurries, want 1: %+v", opt, len(fl), fl)
		}
		f := fl[0]
		if f.User != user.ID || f.FirstJob != firstID || f.LastJob != firstID+n-1 || f.Jobs != n {
			t.Errorf("%v: found %+v, want user %d jobs %d..%d", opt, f, user.ID, firstID, firstID+n-1)
		}
		out, rep, err := clean.Clean(withFlurry, clean.Options{Flurries: opt})
		if err != nil {
			t.Fatal(err)
		}
		if rep.RemovedJobs() != n || out.Len() != base.Len() {
			t.Fatalf("%v: removed %d jobs, want %d", opt, rep.RemovedJobs(), n)
		}
		for i := range base.Jobs {
			if out.Jobs[i] != base.Jobs[i] {
				t.Fatalf("%v: job %d = %+v, want %+v", opt, i, out.Jobs[i], base.Jobs[i])
			}
		}
	}
}

// TestCleanedLogsFlurries measures the detectors on the archive's cleaned
// logs, whose flurries were removed already: the weekly detector must flag
// none; the median detector, being relative to each user's own activity,
// flags a few weeks, which are logged.
func TestCleanedLogsFlurries(t *testing.T) {
	for _, lg := range testdata.Logs {
		t.Run(lg.File, func(t *testing.T) {
			tr, err := trace.Load(testdata.Path(t, lg.File), trace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			c, _, err := clean.Clean(tr, clean.Options{Oversize: clean.OversizeKeep})
			if err != nil {
				t.Fatal(err)
			}
			weekly := clean.DetectFlurries(c, clean.FlurryOptions{Weekly: true, Cascade: true})
			for _, f := range weekly {
				t.Errorf("weekly detector flags %s (%d jobs)", f.Filter, f.Jobs)
			}
			med := clean.DetectFlurries(c, clean.FlurryOptions{Median: true})
			jobs := 0
			for _, f := range med {
				jobs += f.Jobs
			}
			t.Logf("weekly: %d flurries; median: %d flurries, %d jobs (%.2f%% of %d)",
				len(weekly), len(med), jobs, 100*float64(jobs)/float64(c.Len()), c.Len())
		})
	}
}

func ExampleDetectFlurries() {
	var b builder
	for u := int32(1); u <= 5; u++ {
		b.regular(u, 50, 0, 10)
	}
	b.burst(7, 1000, 4*week+3600, 120) // 1000 jobs in 33 hours
	tr := b.trace()
	for _, f := range clean.DetectFlurries(tr, clean.FlurryOptions{Weekly: true}) {
		fmt.Println(f.Method, f.User, f.Jobs, f.Filter)
	}
	// Output: weekly 7 1000 user=7 and job>=1001 and job<=2070
}

// TestArchiveFilters parses the filter expressions that the archive's
// cleaned logs list in their headers ("user=374 and (job>=14969 and
// job<=28552) (11740 jobs removed)") and checks that they match none of the
// jobs left in those logs.
func TestArchiveFilters(t *testing.T) {
	re := regexp.MustCompile(`^;\s+(.*\S)\s+\((\d+) jobs removed\)\s*$`)
	total := 0
	for _, lg := range testdata.Logs {
		tr, err := trace.Load(testdata.Path(t, lg.File), trace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range tr.Header.Lines {
			m := re.FindStringSubmatch(l.String())
			if m == nil {
				continue
			}
			f, err := clean.ParseFilter(m[1])
			if err != nil {
				t.Errorf("%s: %v", lg.File, err)
				continue
			}
			f.Bind(tr)
			total++
			n := 0
			for i := range tr.Jobs {
				if f.Match(&tr.Jobs[i]) {
					n++
				}
			}
			if n != 0 {
				t.Errorf("%s: %q matches %d jobs of the cleaned log, want 0", lg.File, m[1], n)
			}
		}
	}
	if total == 0 {
		t.Fatal("no filters found in the logs' headers")
	}
	t.Logf("%d archive filters parsed", total)
}

// TestFlurryOptionsString pins how the detectors and their thresholds are
// written in a cleaned log's parameters, with the defaults filled in.
func TestFlurryOptionsString(t *testing.T) {
	for _, c := range []struct {
		o    clean.FlurryOptions
		want string
	}{
		{clean.FlurryOptions{}, "none"},
		{clean.FlurryOptions{Median: true}, "median(factor=10, min=500), gap=86400s"},
		{clean.FlurryOptions{Weekly: true, Gap: -1}, "weekly(factor=3, min=500), gap=none"},
		{clean.FlurryOptions{Weekly: true, Cascade: true, Median: true, Factor: 4, MinJobs: 100, MedianFactor: 20, MedianMinJobs: 50, Gap: 3600},
			"weekly(factor=4, min=100, cascade) + median(factor=20, min=50), gap=3600s"},
	} {
		if got := c.o.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.o, got, c.want)
		}
	}
}

// TestFlurryOverTwoWeeks flags a burst of user 0 (a user like any other)
// that fills two whole weeks (one every 806 s: 751 jobs in the first, 749
// in the second) against five users of 50
// jobs a week: one flurry of weeks 10 and 11 holding the 1,500 burst jobs,
// with or without the extension over short gaps.
func TestFlurryOverTwoWeeks(t *testing.T) {
	var b builder
	for u := int32(1); u <= 5; u++ {
		b.regular(u, 50, 0, 20)
	}
	b.regular(0, 20, 0, 10)
	b.regular(0, 20, 13, 20)
	b.burst(0, 1500, 10*week, 806) // the last at 12 weeks - 806 s
	tr := b.trace()
	first, last, n := flurryJobs(tr, 0, 10*week, 12*week)
	if n != 1500 {
		t.Fatalf("the fixture has %d burst jobs", n)
	}
	for _, opt := range []clean.FlurryOptions{{Weekly: true}, {Weekly: true, Gap: -1}, {Median: true, Gap: -1}} {
		fl := clean.DetectFlurries(tr, opt)
		if len(fl) != 1 || fl[0].User != 0 || fl[0].FirstWeek != 10 || fl[0].LastWeek != 11 ||
			fl[0].FirstJob != first || fl[0].LastJob != last || fl[0].Jobs != 1500 || fl[0].PeakWeekJobs != 751 {
			t.Errorf("%+v: flurries %+v, want one of user 0, weeks 10-11, jobs %d-%d", opt, fl, first, last)
		}
	}
}

// TestFlurryThresholds checks the detectors' thresholds at equality: the
// weekly detector flags a week of at least Factor (3) times the baseline
// (the largest weekly count of the other users) and at least MinJobs
// (500) jobs; the median detector a week of more than MedianFactor (10)
// times the user's median week and more than MedianMinJobs (500) jobs.
func TestFlurryThresholds(t *testing.T) {
	weekly := clean.FlurryOptions{Weekly: true}
	med := clean.FlurryOptions{Median: true}
	for _, c := range []struct {
		name  string
		build func(b *builder)
		opt   clean.FlurryOptions
		want  int
	}{
		{"3 x 500 = 1500", func(b *builder) { b.burst(1, 1500, 5*week, 60); b.burst(2, 500, 5*week, 60) }, weekly, 1},
		{"1499 < 3 x 500", func(b *builder) { b.burst(1, 1499, 5*week, 60); b.burst(2, 500, 5*week, 60) }, weekly, 0},
		{"500 jobs, 5 x the baseline", func(b *builder) { b.burst(1, 500, 5*week, 60); b.burst(2, 100, 5*week, 60) }, weekly, 1},
		{"499 jobs", func(b *builder) { b.burst(1, 499, 5*week, 60); b.burst(2, 100, 5*week, 60) }, weekly, 0},
		// 20 weeks of 60 jobs: the median week holds 60.
		{"600 = 10 x 60", func(b *builder) { b.regular(1, 60, 0, 20); b.burst(1, 540, 10*week+3*86400, 60) }, med, 0},
		{"601 > 10 x 60", func(b *builder) { b.regular(1, 60, 0, 20); b.burst(1, 541, 10*week+3*86400, 60) }, med, 1},
		// Median 40: 500 > 400 but not more than 500 jobs.
		{"500 jobs, median 40", func(b *builder) { b.regular(1, 40, 0, 20); b.burst(1, 460, 10*week+3*86400, 60) }, med, 0},
		{"501 jobs, median 40", func(b *builder) { b.regular(1, 40, 0, 20); b.burst(1, 461, 10*week+3*86400, 60) }, med, 1},
		// 10 weeks of 40 jobs and 10 of 80 (one of them with 521 more): an
		// even number of weeks, whose median is the mean of the middle two,
		// 60; 601 > 600.
		{"median of an even count", func(b *builder) {
			b.regular(1, 40, 0, 10)
			b.regular(1, 80, 10, 20)
			b.burst(1, 521, 15*week+3*86400, 60)
		}, med, 1},
	} {
		var b builder
		c.build(&b)
		if fl := clean.DetectFlurries(b.trace(), c.opt); len(fl) != c.want || c.want == 1 && fl[0].User != 1 {
			t.Errorf("%s: flurries %+v, want %d of user 1", c.name, fl, c.want)
		}
	}
}

// TestFlurryWeekStartMidweekLog dates a flurry in a log that starts on a
// Thursday (1970-01-01 00:00 UTC): weeks run from Monday, so week 0 began
// on Monday 1969-12-29, and a burst on Monday 1970-03-16 (74 days after
// the start) falls in week 11, which starts that day.
func TestFlurryWeekStartMidweekLog(t *testing.T) {
	var b builder
	for u := int32(1); u <= 5; u++ {
		b.regular(u, 50, 0, 20)
	}
	b.burst(9, 2000, 74*86400, 60)
	tr := b.trace()
	h := tr.Header.Clone()
	h.Set("UnixStartTime", "0")
	fl := clean.DetectFlurries(trace.New(h, tr.Jobs, trace.Options{}), clean.FlurryOptions{Weekly: true})
	if len(fl) != 1 || fl[0].User != 9 || fl[0].FirstWeek != 11 || fl[0].WeekStart != "1970-03-16" {
		t.Errorf("flurries %+v, want one of user 9 in week 11, starting 1970-03-16", fl)
	}
}

// TestFlurryGapAtEquality extends a flurry over jobs less than Gap apart
// and not over jobs exactly Gap apart. A burst of 2,000 jobs a minute
// apart (33 h) has one more job Gap (or Gap - 1 s) before its first and
// after its last; the burst starts 10 minutes into week 10 (the job before
// it falls in week 9) or ends 10 minutes before week 11 (the job after it
// falls in week 11). The job inside the burst's week is in the flagged
// week anyway.
func TestFlurryGapAtEquality(t *testing.T) {
	const gap = 3600
	for _, c := range []struct {
		start, apart int64
		want         int
	}{
		{10*week + 600, gap, 2001}, {10*week + 600, gap - 1, 2002},
		{11*week - 600 - 1999*60, gap, 2001}, {11*week - 600 - 1999*60, gap - 1, 2002},
	} {
		var b builder
		for u := int32(1); u <= 5; u++ {
			b.regular(u, 50, 0, 20)
		}
		b.burst(9, 2000, c.start, 60)
		b.add(9, c.start-c.apart)
		b.add(9, c.start+1999*60+c.apart)
		fl := clean.DetectFlurries(b.trace(), clean.FlurryOptions{Weekly: true, Gap: gap})
		if len(fl) != 1 || fl[0].Jobs != c.want {
			t.Errorf("burst at %d, jobs %d s apart: flurries %+v, want one of %d jobs", c.start, c.apart, fl, c.want)
		}
	}
}

// TestFlurryCascadeAtEquality checks the cascade's rule at equality: the
// top K users are candidates for the largest K with pK >= Factor·p(K+1)
// and pK >= MinJobs. Users 1-5 submit 100 or 200 jobs every week; user 8
// bursts once, user 9 once in another week.
//   - 1500, 500, 100: p2 = 500 = MinJobs and 500 >= 3·100: K = 2, both
//     bursts flagged against 100;
//   - 2000, 600, 200: p2 = 600 = 3·200: K = 2, both flagged against 200;
//   - 2000, 599, 200: 599 < 3·200: K = 1, user 9 compared with 2000.
func TestFlurryCascadeAtEquality(t *testing.T) {
	for _, c := range []struct {
		name          string
		top, next, bg int
		want          []int32
	}{
		{"p2 = MinJobs", 1500, 500, 100, []int32{8, 9}},
		{"p2 = 3 p3", 2000, 600, 200, []int32{8, 9}},
		{"p2 < 3 p3", 2000, 599, 200, []int32{8}},
	} {
		var b builder
		for u := int32(1); u <= 5; u++ {
			b.regular(u, c.bg, 0, 20)
		}
		b.burst(8, c.top, 3*week+3600, 60)
		b.burst(9, c.next, 12*week+3600, 60)
		var users []int32
		for _, f := range clean.DetectFlurries(b.trace(), clean.FlurryOptions{Weekly: true, Cascade: true}) {
			users = append(users, f.User)
		}
		if fmt.Sprint(users) != fmt.Sprint(c.want) {
			t.Errorf("%s: flurries of users %v, want %v", c.name, users, c.want)
		}
	}
}

// TestFlurrySingleUser checks a log of one user, with and without the
// cascade: there is no other user, so the baseline is 0, and a week of
// MinJobs jobs is a flurry.
func TestFlurrySingleUser(t *testing.T) {
	var b builder
	b.regular(1, 20, 0, 10)
	b.burst(1, 500, 5*week+3*86400, 60)
	tr := b.trace()
	for _, cascade := range []bool{false, true} {
		fl := clean.DetectFlurries(tr, clean.FlurryOptions{Weekly: true, Cascade: cascade, Gap: -1})
		if len(fl) != 1 || fl[0].User != 1 || fl[0].Jobs != 520 || fl[0].Baseline != 0 {
			t.Errorf("cascade %v: flurries %+v, want one of user 1's 520 jobs of week 5, baseline 0", cascade, fl)
		}
	}
}

// TestFlurryTouchingIntervals checks that two flagged weeks of a user with
// none of the user's jobs between them (weeks 3 and 5, the user silent in
// week 4) make one flurry: the intervals touch in the user's jobs. They are
// more than Gap apart, so the extension does not join them.
func TestFlurryTouchingIntervals(t *testing.T) {
	var b builder
	for u := int32(1); u <= 5; u++ {
		b.regular(u, 100, 0, 20)
	}
	b.burst(9, 1500, 3*week+3600, 60)
	b.burst(9, 1500, 5*week+3600, 60)
	fl := clean.DetectFlurries(b.trace(), clean.FlurryOptions{Weekly: true})
	if len(fl) != 1 || fl[0].User != 9 || fl[0].Jobs != 3000 || fl[0].FirstWeek != 3 || fl[0].LastWeek != 5 {
		t.Errorf("flurries %+v, want one of user 9's 3000 jobs, weeks 3 to 5", fl)
	}
}
