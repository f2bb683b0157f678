package lublin

import (
	"errors"
	"fmt"
	"math"
	"slices"
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
				if math.Abs(v.got-v.want) > 1e-12 {
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
