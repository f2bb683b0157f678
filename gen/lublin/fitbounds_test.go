package lublin

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/hpcwl/hpcwl/stats"
	"testing"
)

// TestFitSizesMinimumJobs checks the minimum-size rule of the size fit at
// its boundary: MinSizeJobs (10) jobs of known size, all parallel, are
// enough; 10 jobs of which one is serial (9 parallel) are not, nor are 9
// parallel jobs alone; 11 jobs with 10 parallel are. The fractions are
// worked out by hand from the sizes 2, 3, 4, 4, 6, 8, 8, 8, 12, 16: seven
// powers of two among ten parallel jobs, sum 71; sizes below 1 are unknown
// and not counted.
func TestFitSizesMinimumJobs(t *testing.T) {
	par := []int64{2, 3, 4, 4, 6, 8, 8, 8, 12, 16}
	for _, c := range []struct {
		name         string
		procs        []int64
		machine      int
		ok           bool
		jobs, npar   int
		p1, pow2, p2 float64
		minSize      int64
		mean, uhi    float64
	}{
		{"10 parallel", par, 0, true, 10, 10, 0, 0.7, 0.7, 2, 7.1, 4},
		{"10 parallel, unknown sizes dropped", append([]int64{0, -1}, par...), 0, true, 10, 10, 0, 0.7, 0.7, 2, 7.1, 4},
		{"machine of 32", par, 32, true, 10, 10, 0, 0.7, 0.7, 2, 7.1, 5},
		{"machine of 16 (the largest size)", par, 16, true, 10, 10, 0, 0.7, 0.7, 2, 7.1, 4},
		{"machine smaller than the largest size", par, 8, true, 10, 10, 0, 0.7, 0.7, 2, 7.1, 4},
		{"1 serial + 10 parallel", append([]int64{1}, par...), 0, true, 11, 10, 1.0 / 11, 7.0 / 11, 0.7, 1, 72.0 / 11, 4},
		{"1 serial + 9 parallel", append([]int64{1}, par[1:]...), 0, false, 10, 9, 0, 0, 0, 0, 0, 0},
		{"9 parallel", par[1:], 0, false, 9, 9, 0, 0, 0, 0, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var rep FitReport
			var tp TypeParams
			err := fitSizes(Log{Procs: c.procs, MachineProcs: c.machine}, &rep, &tp)
			s := rep.Sizes
			if s.Jobs != c.jobs || s.Parallel != c.npar {
				t.Errorf("jobs %d, parallel %d; want %d, %d", s.Jobs, s.Parallel, c.jobs, c.npar)
			}
			if !c.ok {
				want := fmt.Sprintf("the size model needs at least 10 jobs with a known size, 10 of them parallel; the log has %d and %d", c.jobs, c.npar)
				if !errors.Is(err, ErrTooFewJobs) || err.Error() != ErrTooFewJobs.Error()+": "+want {
					t.Fatalf("err = %v, want ErrTooFewJobs: %s", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range []struct {
				name      string
				got, want float64
			}{
				{"p1", s.P1, c.p1}, {"pow2_prob", s.Pow2Prob, c.pow2}, {"p2", s.P2, c.p2},
				{"mean size", s.MeanSize, c.mean}, {"u_hi", tp.UHi, c.uhi},
				{"serial_prob", tp.SerialProb, c.p1}, {"params pow2_prob", tp.Pow2Prob, c.pow2},
			} {
				if !(math.Abs(v.got-v.want) <= 1e-12) {
					t.Errorf("%s = %v, want %v", v.name, v.got, v.want)
				}
			}
			if s.MinSize != c.minSize {
				t.Errorf("min size %d, want %d", s.MinSize, c.minSize)
			}
		})
	}
}

// TestFitSizesAdvice checks the flag for a fitted u_med outside [u_hi − 3.5,
// u_hi − 1.5], the range the reference program advises: parallel sizes all
// at the machine size put u_med near u_hi (above the range), sizes all 2 on
// a machine of 1,024 put it near 1 (below u_hi − 3.5 = 6.5), and sizes spread
// densely over 2..12 and sparsely up to 64 on a machine of 64 (u_hi 6) put
// it inside.
func TestFitSizesAdvice(t *testing.T) {
	spread := []int64{2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 8, 9, 10, 11, 12, 16, 24, 32, 48, 64}
	for _, c := range []struct {
		name    string
		procs   []int64
		machine int
		above   bool // u_med above u_hi - 1.5 (else below u_hi - 3.5), when outside
		outside bool
	}{
		{"all at the machine size", slices.Repeat([]int64{16}, 20), 16, true, true},
		{"all of size 2 on 1024", slices.Repeat([]int64{2}, 20), 1024, false, true},
		{"spread over 2..64", spread, 64, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var rep FitReport
			var tp TypeParams
			if err := fitSizes(Log{Procs: c.procs, MachineProcs: c.machine}, &rep, &tp); err != nil {
				t.Fatal(err)
			}
			if rep.Sizes.OutsideAdvice != c.outside {
				t.Fatalf("outside advice %v, want %v (u_med %v, u_hi %v)", rep.Sizes.OutsideAdvice, c.outside, tp.UMed, tp.UHi)
			}
			if !c.outside {
				if tp.UMed < tp.UHi-3.5 || tp.UMed > tp.UHi-1.5 {
					t.Errorf("u_med %v not inside [%v, %v]", tp.UMed, tp.UHi-3.5, tp.UHi-1.5)
				}
				return
			}
			if c.above && !(tp.UMed > tp.UHi-1.5) || !c.above && !(tp.UMed < tp.UHi-3.5) {
				t.Errorf("u_med %v, u_hi %v: not on the expected side", tp.UMed, tp.UHi)
			}
		})
	}
}

// runtimeLog returns a log of n jobs whose sizes are given per job and whose
// runtimes alternate between a short (10-99 s) and a long (1,000-9,999 s)
// cluster, spread by a fixed arithmetic pattern so that the hyper-Gamma has
// two groups to fit.
func runtimeLog(procs []int64) Log {
	l := Log{Procs: procs}
	for i := range procs {
		l.Submit = append(l.Submit, int64(i))
		if i%2 == 0 {
			l.Runtime = append(l.Runtime, 10+int64(i*37%90))
		} else {
			l.Runtime = append(l.Runtime, 1000+int64(i*4133%9000))
		}
	}
	return l
}

// twoSizes returns n sizes, alternately 2 and 4 (the runtime fit needs
// groups of two sizes at least).
func twoSizes(n int) []int64 {
	p := make([]int64, n)
	for i := range p {
		p[i] = int64(2 + 2*(i%2))
	}
	return p
}

// TestFitRuntimesMinimumJobs checks the runtime rule at its boundary:
// MinRuntimeJobs (100) jobs with a runtime of 1 s or more are enough, 99 are
// not; runtimes of 0 and unknown sizes are dropped and counted.
func TestFitRuntimesMinimumJobs(t *testing.T) {
	o := (*FitOptions)(nil).withDefaults()
	for _, c := range []struct {
		name    string
		l       Log
		jobs    int
		dropped int
		ok      bool
	}{
		{"100 jobs", runtimeLog(twoSizes(100)), 100, 0, true},
		{"99 jobs", runtimeLog(twoSizes(99)), 99, 0, false},
		{"100 jobs, one of runtime 0 and one of size 0", func() Log {
			l := runtimeLog(twoSizes(101))
			l.Runtime[3], l.Procs[7] = 0, 0
			return l
		}(), 99, 2, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var rep FitReport
			var tp TypeParams
			err := fitRuntimes(c.l, o, &rep, &tp)
			if rep.Runtimes.Jobs != c.jobs || rep.Runtimes.Dropped != c.dropped {
				t.Errorf("jobs %d, dropped %d; want %d, %d", rep.Runtimes.Jobs, rep.Runtimes.Dropped, c.jobs, c.dropped)
			}
			if c.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			want := fmt.Sprintf("%v: the runtime model needs at least 100 jobs with a runtime of 1 s or more and a known size; the log has %d", ErrTooFewJobs, c.jobs)
			if err == nil || err.Error() != want {
				t.Fatalf("err = %v, want %s", err, want)
			}
		})
	}
}

// TestFitRuntimesSizeGroups checks the size groups of the runtime fit
// (Lublin and Feitelson (2003), section 6.3: groups of about equal job
// counts, here never splitting a size). 160 jobs in the default 8 groups
// make a target of 20 jobs per group; with 20 jobs of each of the sizes 1, 2,
// 4, ..., 128, every size is a group of its own. With 25 jobs of size 1 and
// 15 of size 2 (then 20 of each larger size), the first group keeps all 25
// jobs of size 1 and the second takes the 15 of size 2 and then, being short
// of 20, all 20 of size 4 (35 jobs).
func TestFitRuntimesSizeGroups(t *testing.T) {
	o := (*FitOptions)(nil).withDefaults()
	sizes := []int64{1, 2, 4, 8, 16, 32, 64, 128}
	var even []int64
	for _, n := range sizes {
		even = append(even, slices.Repeat([]int64{n}, 20)...)
	}
	uneven := slices.Concat(slices.Repeat([]int64{1}, 25), slices.Repeat([]int64{2}, 15), even[40:])
	type grp struct {
		lo, hi int64
		jobs   int
		med    float64
	}
	var evenWant []grp
	for _, n := range sizes {
		evenWant = append(evenWant, grp{n, n, 20, float64(n)})
	}
	unevenWant := []grp{{1, 1, 25, 1}, {2, 4, 35, 4}, {8, 8, 20, 8}, {16, 16, 20, 16}, {32, 32, 20, 32}, {64, 64, 20, 64}, {128, 128, 20, 128}}
	for _, c := range []struct {
		name  string
		procs []int64
		want  []grp
	}{
		{"20 of each size", even, evenWant},
		{"25 of size 1, 15 of size 2", uneven, unevenWant},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Reversing the order of the jobs must not change the groups.
			for _, rev := range []bool{false, true} {
				procs := slices.Clone(c.procs)
				if rev {
					slices.Reverse(procs)
				}
				var rep FitReport
				var tp TypeParams
				if err := fitRuntimes(runtimeLog(procs), o, &rep, &tp); err != nil {
					t.Fatal(err)
				}
				var got []grp
				for _, g := range rep.Runtimes.Groups {
					got = append(got, grp{g.MinProcs, g.MaxProcs, g.Jobs, g.MedianProcs})
				}
				if !slices.Equal(got, c.want) {
					t.Errorf("reversed %v: groups %v, want %v", rev, got, c.want)
				}
			}
		})
	}
}

// TestFitLogAdviceNote checks the note [FitLog] writes when the fitted u_med
// is outside the advised range: a log of the default model (sizes up to 128)
// said to run on a machine of 1,024 processors has u_hi = log2 1024 = 10,
// the advised range is [6.50, 8.50], and u_med (about 4.5) lies below it.
// The same log on its own machine size (128, u_hi 7, range [3.50, 5.50])
// gets no such note.
func TestFitLogAdviceNote(t *testing.T) {
	l := generatedLog(t, 3000, 11)
	const prefix = "size median u_med "
	for _, c := range []struct {
		machine int
		uhi     float64
		note    bool
	}{{1024, 10, true}, {128, 7, false}} {
		l.MachineProcs = c.machine
		p, rep, err := FitLog(l, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p.UHi != c.uhi {
			t.Fatalf("machine %d: u_hi %v, want %v", c.machine, p.UHi, c.uhi)
		}
		var notes []string
		for _, n := range rep.Notes {
			if strings.HasPrefix(n, prefix) {
				notes = append(notes, n)
			}
		}
		if !c.note {
			if len(notes) != 0 || rep.Sizes.OutsideAdvice {
				t.Errorf("machine %d (u_med %v): advice notes %q", c.machine, p.UMed, notes)
			}
			// The chi-square test with simulated expected counts (20 bins,
			// 19 degrees of freedom) accepts the model on its own output.
			if ch := rep.Runtimes.Chi2; ch.DF != 19 || !(ch.PValue >= 0.001) {
				t.Errorf("runtime chi-square on the model's own output: %+v", ch)
			}
			continue
		}
		if !(p.UMed < c.uhi-3.5) {
			t.Fatalf("machine %d: u_med %v not below %v", c.machine, p.UMed, c.uhi-3.5)
		}
		want := fmt.Sprintf("size median u_med %.2f is outside [u_hi - 3.5, u_hi - 1.5] = [6.50, 8.50], the range advised for the paper's logs; kept as fitted", p.UMed)
		if len(notes) != 1 || notes[0] != want {
			t.Errorf("machine %d: notes %q, want [%q]", c.machine, notes, want)
		}
	}
}

// TestFitRuntimesUsableGroups checks which size groups enter the regression
// of the first-Gamma weight on size (Lublin and Feitelson (2003), section
// 6.3): groups of at least 5 jobs, and at least 2 of them. With 2 size
// groups (target 50 jobs each) of 100 jobs: 50 of size 2 and 50 of size 4
// make two groups; 95 and 5 also make two (the second exactly 5 jobs); 96
// and 4 make one usable group and are refused. With two points the
// regression is the line through them: PA = (p₂ − p₁)/2, PB = p₁ − 2·PA.
func TestFitRuntimesUsableGroups(t *testing.T) {
	o := (*FitOptions)(nil).withDefaults()
	o.SizeGroups = 2
	for _, c := range []struct {
		n2, n4 int
		ok     bool
	}{{50, 50, true}, {95, 5, true}, {96, 4, false}} {
		procs := slices.Concat(slices.Repeat([]int64{2}, c.n2), slices.Repeat([]int64{4}, c.n4))
		var rep FitReport
		var tp TypeParams
		err := fitRuntimes(runtimeLog(procs), o, &rep, &tp)
		g := rep.Runtimes.Groups
		if len(g) != 2 || g[0].Jobs != c.n2 || g[1].Jobs != c.n4 || g[0].MedianProcs != 2 || g[1].MedianProcs != 4 {
			t.Errorf("%d + %d: groups %+v", c.n2, c.n4, g)
			continue
		}
		if !c.ok {
			want := ErrTooFewJobs.Error() + ": the size-runtime correlation needs jobs of at least 2 different sizes (5 per group); the log has 1 usable group(s)"
			if err == nil || err.Error() != want {
				t.Errorf("%d + %d: err = %v, want %s", c.n2, c.n4, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%d + %d: %v", c.n2, c.n4, err)
			continue
		}
		pa := (g[1].P - g[0].P) / 2
		pb := g[0].P - 2*pa
		if !(math.Abs(tp.PA-pa) <= 1e-9) || !(math.Abs(tp.PB-pb) <= 1e-9) || tp.PA != rep.Runtimes.PA || tp.PB != rep.Runtimes.PB {
			t.Errorf("%d + %d: PA %v, PB %v; want %v, %v (group weights %v, %v)", c.n2, c.n4, tp.PA, tp.PB, pa, pb, g[0].P, g[1].P)
		}
	}
}

// TestFitRuntimesSubsample checks that the sub-sample KS test (100
// sub-samples of 500 jobs, Lublin and Feitelson (2003), section 5.1) is run
// from 500 jobs on and not below. With exactly 500 jobs every sub-sample is
// the whole log, so its mean D is the model's D and it passes always or
// never.
func TestFitRuntimesSubsample(t *testing.T) {
	o := (*FitOptions)(nil).withDefaults()
	for _, n := range []int{499, 500} {
		var rep FitReport
		var tp TypeParams
		if err := fitRuntimes(runtimeLog(twoSizes(n)), o, &rep, &tp); err != nil {
			t.Fatal(err)
		}
		s := rep.Runtimes.Subsample
		if n < 500 {
			if s != (stats.SubsampleKSResult{}) {
				t.Errorf("%d jobs: sub-sample test run: %+v", n, s)
			}
			continue
		}
		if s.Size != 500 || s.Reps != 100 || s.Alpha != 0.05 {
			t.Errorf("%d jobs: sub-sample test %+v", n, s)
		}
		if !(math.Abs(s.MeanD-rep.Runtimes.ModelD) <= 1e-12) || s.PassFraction != 0 && s.PassFraction != 1 {
			t.Errorf("%d jobs: mean D %v, pass fraction %v; want D %v, pass 0 or 1", n, s.MeanD, s.PassFraction, rep.Runtimes.ModelD)
		}
	}
}

// arrivalWeek is a hand-made week of 100 arrivals (plus one of negative
// submit time, not counted), from Monday 2024-01-01 00:00 UTC, for the
// arrival rules of [FitLog]: an interarrival of 1 s or more counts as a
// peak one when both jobs are Monday-Friday in [08:00, 19:00) of the same
// day. Counted by hand:
//   - Monday: 00:00:00, 07:59:59, 08:00:00 twice (0 s, dropped), 08:00:01
//     (1 s), 08:01, 08:03, 08:07, 08:15, 18:59:59 (five more), 19:00:00 (out
//     of the peak): 6 peak interarrivals;
//   - Tuesday: 18:59:00 (after Monday's 19:00), 18:59:30: 1;
//   - Wednesday: 08:00 + 60 s·j, j = 0..12 (the first after Tuesday's last,
//     another day): 12;
//   - Friday: 10:00 + 90 s·j, j = 0..11: 11 (30 in all, MinPeakIntervals);
//   - Saturday 08:00 + 50 s·i and Sunday 10:00 + 50 s·i, i = 0..30: none.
//
// Half-hour slots: 0 (00:00) 1 arrival, 15 (07:30) 1, 16 (08:00) 7 + 13 +
// 31 = 51, 20 (10:00) 12 + 31 = 43, 37 (18:30) 3, 38 (19:00) 1.
func arrivalWeek() Log {
	const day = 86400
	hms := func(d, h, m, s int) int64 { return int64(d*day + h*3600 + m*60 + s) }
	sub := []int64{-1, hms(0, 0, 0, 0), hms(0, 7, 59, 59), hms(0, 8, 0, 0), hms(0, 8, 0, 0), hms(0, 8, 0, 1),
		hms(0, 8, 1, 0), hms(0, 8, 3, 0), hms(0, 8, 7, 0), hms(0, 8, 15, 0), hms(0, 18, 59, 59), hms(0, 19, 0, 0),
		hms(1, 18, 59, 0), hms(1, 18, 59, 30)}
	for j := range 13 {
		sub = append(sub, hms(2, 8, 0, 60*j))
	}
	for j := range 12 {
		sub = append(sub, hms(4, 10, 0, 90*j))
	}
	for i := range 31 {
		sub = append(sub, hms(5, 8, 0, 50*i), hms(6, 10, 0, 50*i))
	}
	return Log{Submit: sub, StartTime: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Unix()}
}

// TestFitArrivalsByHand checks the peak-hour interarrivals and the daily
// counts of arrivalWeek, and the two minimum-count rules at their
// boundaries: 30 peak interarrivals and 100 daily arrivals are enough; one
// Friday job fewer (29 interarrivals) or slot 0 excluded (99 arrivals) is
// not.
func TestFitArrivalsByHand(t *testing.T) {
	wantCounts := map[int]float64{0: 1, 15: 1, 16: 51, 20: 43, 37: 3, 38: 1}
	for _, c := range []struct {
		name    string
		drop    int64 // a submit time to remove, or -2
		exclude []int
		peak    int
		err     string
	}{
		{"the week", -2, nil, 30, ""},
		{"without Friday's last job", 4*86400 + 10*3600 + 990, nil, 29,
			"the arrival model needs at least 30 interarrivals of 1 s or more between jobs in the same peak period (08:00-19:00 Mon-Fri); the log has 29"},
		{"slot 0 excluded", -2, []int{0}, 30,
			"the daily cycle needs at least 100 arrivals outside excluded slots; the log has 99"},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := arrivalWeek()
			if c.drop != -2 {
				i := slices.Index(l.Submit, c.drop)
				if i < 0 {
					t.Fatalf("no job at %d", c.drop)
				}
				l.Submit = slices.Delete(l.Submit, i, i+1)
			}
			o := (&FitOptions{ExcludeSlots: c.exclude}).withDefaults()
			var rep FitReport
			var tp TypeParams
			err := fitArrivals(l, o, &rep, &tp)
			af := rep.Arrivals
			if af.PeakIntervals != c.peak {
				t.Errorf("%d peak interarrivals, want %d", af.PeakIntervals, c.peak)
			}
			if c.err != "" {
				if err == nil || err.Error() != ErrTooFewJobs.Error()+": "+c.err {
					t.Fatalf("err = %v, want %s", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, got := range af.DailyCounts {
				if got != wantCounts[i] {
					t.Errorf("slot %d: %v arrivals, want %v", i, got, wantCounts[i])
				}
			}
			if tp.AArr != af.AArr || tp.ANum != af.ANum || !(af.AArr > 0 && af.ANum > 0 && af.ARAR > 0) {
				t.Errorf("fitted %+v", af)
			}
		})
	}
}

// TestFitSizeGroupsMinimumJobs checks the minimum of MinGroupJobs (50) jobs
// per size range of [FitSizeGroups]: 50 jobs of size 2 (plus one of runtime 0
// and one of unknown size, not counted) are fitted; the range 8-8 with 49
// jobs is refused with the exact message.
func TestFitSizeGroupsMinimumJobs(t *testing.T) {
	procs := slices.Concat(slices.Repeat([]int64{2}, 51), []int64{0}, slices.Repeat([]int64{8}, 49))
	l := runtimeLog(procs)
	l.Runtime[0] = 0
	g, err := FitSizeGroups(l, []SizeRange{{Min: 2, Max: 4}}, nil)
	if err != nil || len(g) != 1 || g[0].Jobs != 50 {
		t.Fatalf("range 2-4: %+v, %v; want 50 jobs", g, err)
	}
	_, err = FitSizeGroups(l, []SizeRange{{Min: 2, Max: 4}, {Min: 8, Max: 8}}, nil)
	want := ErrTooFewJobs.Error() + ": the runtime fit of sizes 8-8 needs at least 50 jobs with a runtime of 1 s or more; the log has 49"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

// TestFitArrivalsYearApart checks that two peak-hour jobs on the same day of
// the year, one year apart (Tuesday 2024-01-02 and Thursday 2025-01-02, 09:00
// UTC), are not on the same day: no peak interarrival.
func TestFitArrivalsYearApart(t *testing.T) {
	t0 := time.Date(2024, 1, 2, 9, 0, 0, 0, time.UTC)
	t1 := time.Date(2025, 1, 2, 9, 0, 0, 0, time.UTC)
	l := Log{Submit: []int64{0, t1.Unix() - t0.Unix()}, StartTime: t0.Unix()}
	var rep FitReport
	var tp TypeParams
	if err := fitArrivals(l, (*FitOptions)(nil).withDefaults(), &rep, &tp); !errors.Is(err, ErrTooFewJobs) || rep.Arrivals.PeakIntervals != 0 {
		t.Errorf("%d peak interarrivals (%v), want 0", rep.Arrivals.PeakIntervals, err)
	}
}

// TestFitDailyCycleByHand checks the daily-cycle fit on counts whose answer
// is known: counts exactly proportional to the slot masses of Gamma(8, 4)
// (the binned likelihood Σ c_i ln(w_i/Σw) is largest when the model's
// slot fractions equal the counts', so at the generating parameters) give
// back a = 8, b = 4 to the optimizer's precision (0.1 %); arrivals all in
// one half-hour slot have no variance and no Gamma fit, an error, while two
// slots are fitted.
func TestFitDailyCycleByHand(t *testing.T) {
	var c [48]float64
	for i, w := range slotMasses(8, 4, ProgramSlots) {
		c[i] = 1e4 * w
	}
	a, b, err := fitDailyCycle(c, ProgramSlots, nil)
	if err != nil || !(math.Abs(a/8-1) <= 1e-3) || !(math.Abs(b/4-1) <= 1e-3) {
		t.Errorf("counts of Gamma(8, 4): a %v, b %v, error %v", a, b, err)
	}
	c = [48]float64{20: 100}
	if _, _, err := fitDailyCycle(c, ProgramSlots, nil); !errors.Is(err, ErrTooFewJobs) || !strings.Contains(err.Error(), "all 100 are in one") {
		t.Errorf("one slot: error %v", err)
	}
	c[21] = 100
	if a, b, err := fitDailyCycle(c, ProgramSlots, nil); err != nil || !(a > 0) || !(b > 0) {
		t.Errorf("two slots: a %v, b %v, error %v", a, b, err)
	}
}
