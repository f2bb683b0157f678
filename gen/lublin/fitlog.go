package lublin

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hpcwl/hpcwl/fit"
	"github.com/hpcwl/hpcwl/stats"
)

// Log is the input of [FitLog]: one entry per job, in any order, with the SWF
// conventions (seconds; negative = unknown). Filtering (e.g. to successful
// jobs, status 1, as the paper does: Lublin and Feitelson, The workload on
// parallel supercomputers, JPDC 63(11), 2003, section 2) is the caller's.
type Log struct {
	// Submit holds submit times in seconds since StartTime (SWF field 2).
	Submit []int64
	// Runtime holds runtimes in seconds (SWF field 4).
	Runtime []int64
	// Procs holds the allocated processors (SWF field 5).
	Procs []int64
	// StartTime is the Unix time of submit time 0 (SWF UnixStartTime).
	StartTime int64
	// Location is the site's time zone, for peak hours and the daily cycle
	// (SWF TimeZoneString); nil means UTC.
	Location *time.Location
	// MachineProcs is the machine size P (SWF MaxProcs); UHi is fixed to
	// log2 P when it is at least the largest job (0: estimated).
	MachineProcs int
	// Queue holds the queue numbers (SWF field 15; 0 = interactive, 1 and
	// above = batch, negative = unknown). Only [FitTyped] uses it; nil
	// means the log has no queue data.
	Queue []int64
}

// SlotConvention selects how half-hour slots map to the Gamma's argument in
// the daily-cycle fit. The paper and its reference program differ by half to
// one slot; which to use is our choice, per log.
type SlotConvention int

const (
	// ProgramSlots is the reference program's convention (lublin99.c's
	// arrive_init): slot idx (0 = 00:00-00:30) is the value idx+1, plus 48
	// when below 11. The fitted ANum/BNum then drive the generator exactly.
	// Default.
	ProgramSlots SlotConvention = iota
	// PaperSlots is the paper's t′ = 2t, plus 48 when below 10 (Lublin and
	// Feitelson (2003), section 7.2), the convention of Table 7; its values
	// are one slot lower.
	PaperSlots
)

// FitOptions tunes [FitLog]. A nil *FitOptions means the defaults.
type FitOptions struct {
	// Slots is the daily-cycle convention; default ProgramSlots.
	Slots SlotConvention
	// ExcludeSlots lists half-hour slots (0-47) left out of the daily-cycle
	// histogram, e.g. 7 for the 03:30 administrative peak of the SDSC logs
	// (Lublin and Feitelson (2003), section 7.2; leaving the slot out is our
	// choice of how to remove it).
	ExcludeSlots []int
	// PeakStart and PeakEnd bound the peak hours [PeakStart, PeakEnd) on
	// Monday-Friday, local time; default 8 and 19 (Lublin and Feitelson
	// (2003), section 7.1).
	PeakStart, PeakEnd int
	// SizeGroups is the number of size groups for the linear weight; default 8
	// (Lublin and Feitelson (2003), section 6.3).
	SizeGroups int
	// Settings are passed to the EM fits.
	Settings *fit.Settings
	// InteractiveProcs is the machine (partition) size used for the
	// interactive class by [FitTyped]; 0 fits its UHi from the sizes.
	InteractiveProcs int
}

func (o *FitOptions) withDefaults() FitOptions {
	var r FitOptions
	if o != nil {
		r = *o
	}
	if r.PeakStart == 0 && r.PeakEnd == 0 {
		r.PeakStart, r.PeakEnd = 8, 19
	}
	if r.SizeGroups <= 0 {
		r.SizeGroups = 8
	}
	return r
}

// ErrTooFewJobs is wrapped by the errors of [FitLog] for logs too small for
// a part of the model.
var ErrTooFewJobs = errors.New("lublin: too few jobs")

// Minimum job counts of each part of the fit.
const (
	MinSizeJobs        = 10  // jobs with a known size; 10 of them parallel
	MinRuntimeJobs     = 100 // jobs with runtime >= 1 s and known size
	MinPeakIntervals   = 30  // peak-hour interarrivals >= 1 s
	MinDailyCycleJobs  = 100 // arrivals in the daily histogram
	MinGroupJobs       = 50  // jobs of a size group fitted by [FitSizeGroups]
	minJobsPerSizeGrp  = 5
	maxSizeGroupsFloor = 2
)

// SizeFit reports the job-size part (Lublin and Feitelson (2003), section 4,
// Table 1).
type SizeFit struct {
	Jobs     int     `json:"jobs"`
	Parallel int     `json:"parallel"`
	P1       float64 `json:"p1"`        // fraction serial (SerialProb)
	P2       float64 `json:"p2"`        // power-of-two fraction of parallel jobs (paper)
	Pow2Prob float64 `json:"pow2_prob"` // power-of-two parallel jobs among all (program)
	// TSU is the two-stage uniform on log2(size) of parallel jobs, with
	// High = log2 P when P is known (else log2 of the largest size) and the
	// other three parameters fitted by maximum likelihood of the discrete
	// sizes the generator draws; TSUD is the KS distance between the
	// parallel sizes of the log and of the model, over every integer size.
	TSU  TSUParams `json:"tsu"`
	TSUD float64   `json:"tsu_d"`
	// GammaShape, GammaScale and GammaD are Table 1's alternative Gamma fit
	// (continuous, on log2 of the parallel sizes).
	GammaShape float64 `json:"gamma_shape"`
	GammaScale float64 `json:"gamma_scale"`
	GammaD     float64 `json:"gamma_d"`
	// MinSize and MeanSize are the smallest and mean size of the log's
	// jobs; ModelMinSize and ModelMeanSize those of the fitted model's
	// exact size distribution ([TypeParams.SizeDistribution]).
	MinSize       int64   `json:"min_size"`
	MeanSize      float64 `json:"mean_size"`
	ModelMinSize  int64   `json:"model_min_size"`
	ModelMeanSize float64 `json:"model_mean_size"`
	// OutsideAdvice says the fitted UMed is outside [UHi−3.5, UHi−1.5],
	// the range the reference program advises for the paper's logs.
	OutsideAdvice bool `json:"outside_advice,omitempty"`
}

// TSUParams are the four parameters of a two-stage uniform.
type TSUParams struct {
	Low  float64 `json:"low"`
	Med  float64 `json:"med"`
	High float64 `json:"high"`
	P    float64 `json:"p"`
}

// HyperGammaParams are the five parameters of a hyper-Gamma (scale form).
type HyperGammaParams struct {
	A1 float64 `json:"a1"`
	B1 float64 `json:"b1"`
	A2 float64 `json:"a2"`
	B2 float64 `json:"b2"`
	P  float64 `json:"p"`
}

// SizeGroup is one size group of the runtime fit (Lublin and Feitelson (2003),
// section 6.3).
type SizeGroup struct {
	MinProcs    int64   `json:"min_procs"`
	MaxProcs    int64   `json:"max_procs"`
	Jobs        int     `json:"jobs"`
	MedianProcs float64 `json:"median_procs"`
	P           float64 `json:"p"` // best weight of the first Gamma
	D           float64 `json:"d"` // KS of the group with that weight
}

// RuntimeFit reports the runtime part (Lublin and Feitelson (2003), sections 5
// and 6, Tables 2 and 5).
type RuntimeFit struct {
	Jobs    int              `json:"jobs"`
	Dropped int              `json:"dropped"` // runtime < 1 s or unknown
	HG      HyperGammaParams `json:"hyper_gamma"`
	HGD     float64          `json:"hyper_gamma_d"`
	Status  fit.Status       `json:"status"`
	Groups  []SizeGroup      `json:"groups"`
	PA      float64          `json:"pa"`
	PB      float64          `json:"pb"`
	// ModelD is the KS distance of the model with the linear weight (the
	// mixture over the observed sizes) from the data (Table 5's D_n).
	ModelD float64 `json:"model_d"`
	// Subsample is the KS test of the linear model on 100 random sub-samples
	// of 500 jobs (Lublin and Feitelson (2003), section 5.1).
	Subsample stats.SubsampleKSResult `json:"subsample"`
	// Chi2 is the chi-square test of the linear model with simulated
	// expected counts (Lublin and Feitelson (2003), section 3.3.2): one
	// ln runtime drawn from the model for each job, given its size (seed
	// fixed) and truncated to whole seconds as the log's are, and 20 bins
	// at the quantiles of the pooled values.
	Chi2 stats.ChiSquareResult `json:"chi2_simulated"`
}

// ArrivalFit reports the arrival part (Lublin and Feitelson (2003), section 7,
// Tables 6 and 7).
type ArrivalFit struct {
	PeakIntervals int     `json:"peak_intervals"`
	AArr          float64 `json:"a_arr"`
	BArr          float64 `json:"b_arr"`
	PeakD         float64 `json:"peak_d"`
	ARAR          float64 `json:"arar"`
	// DailyCounts are the arrivals per half-hour slot (slot 0 = 00:00),
	// excluded slots zero.
	DailyCounts [48]float64 `json:"daily_counts"`
	ANum        float64     `json:"a_num"`
	BNum        float64     `json:"b_num"`
	DailyD      float64     `json:"daily_d"`
	// DailyChi2 is the 48-slot metric Σ(m−d)²/(m+d) (Lublin and Feitelson
	// (2003), section 7.3) with the model counts scaled to the data total.
	DailyChi2 float64 `json:"daily_chi2"`
}

// FitReport is the goodness of fit of every part of a fitted model.
type FitReport struct {
	Sizes    SizeFit    `json:"sizes"`
	Runtimes RuntimeFit `json:"runtimes"`
	Arrivals ArrivalFit `json:"arrivals"`
	// Notes records the choices made where the paper leaves them open.
	Notes []string `json:"notes"`
	// Implausible flags the fitted parameters outside any plausible range
	// ([TypeParams.Implausible]), keyed by JSON name, with the reason.
	Implausible map[string]string `json:"implausible,omitempty"`
}

// FitLog estimates the parameters of one job class of the model from a log
// (Lublin and Feitelson (2003), sections 4-7): sizes (serial and power-of-two
// fractions, two-stage uniform on log2 size), runtimes (hyper-Gamma on ln
// runtime by EM, then the best first-Gamma weight per size group and a linear
// regression on the group median sizes for PA/PB), peak-hour interarrivals
// (Gamma on ln interarrival, ARAR) and the daily cycle (Gamma over the slot
// index, by binned maximum likelihood). Runtimes and interarrivals of r >= 1 s
// enter as ln(r + ½), undoing the truncation to whole seconds (our choice
// where the paper leaves it open); zero values are dropped and counted. Use
// the result as Params{Mode: Whole, Whole: t} or as one class of a typed set.
func FitLog(l Log, opt *FitOptions) (TypeParams, *FitReport, error) {
	o := opt.withDefaults()
	if len(l.Runtime) != len(l.Submit) || len(l.Procs) != len(l.Submit) {
		panic("lublin: Log slices of different lengths")
	}
	rep := &FitReport{}
	// The three parts are independent: sizes and arrivals are fitted in a
	// second goroutine while the runtimes (most of the work) are fitted
	// here. Each part writes only its own fields of rep and of its own
	// TypeParams; errors are reported in the order sizes, runtimes, arrivals.
	var ts, tr, ta TypeParams
	var errS, errA error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if errS = fitSizes(l, rep, &ts); errS == nil {
			errA = fitArrivals(l, o, rep, &ta)
		}
	}()
	errR := fitRuntimes(l, o, rep, &tr)
	<-done
	t := TypeParams{
		SerialProb: ts.SerialProb, Pow2Prob: ts.Pow2Prob, ULow: ts.ULow, UMed: ts.UMed, UHi: ts.UHi, UProb: ts.UProb,
		A1: tr.A1, B1: tr.B1, A2: tr.A2, B2: tr.B2, PA: tr.PA, PB: tr.PB,
		AArr: ta.AArr, BArr: ta.BArr, ANum: ta.ANum, BNum: ta.BNum, ARAR: ta.ARAR,
	}
	for _, err := range []error{errS, errR, errA} {
		if err != nil {
			return t, rep, err
		}
	}
	rep.Notes = append(rep.Notes,
		"runtimes and interarrivals r >= 1 s enter as ln(r + 0.5); zero values dropped",
		fmt.Sprintf("peak hours [%d, %d) Monday-Friday local time; an interarrival counts when both jobs are in the same day's peak window", o.PeakStart, o.PeakEnd),
		fmt.Sprintf("size groups: %d by job count, never splitting a size; best p by 1-D EM with fixed Gammas", o.SizeGroups))
	if rep.Sizes.OutsideAdvice {
		rep.Notes = append(rep.Notes, fmt.Sprintf("size median u_med %.2f is outside [u_hi - 3.5, u_hi - 1.5] = [%.2f, %.2f], the range advised for the paper's logs; kept as fitted", t.UMed, t.UHi-3.5, t.UHi-1.5))
	}
	if o.Slots == PaperSlots {
		rep.Notes = append(rep.Notes, "daily cycle fitted with the paper's slot convention (Table 7); shift by one slot before generating")
	}
	if bad := t.Implausible(); len(bad) > 0 {
		rep.Implausible = bad
	}
	return t, rep, t.validate("fitted")
}

func fitSizes(l Log, rep *FitReport, t *TypeParams) error {
	var lp []float64
	s := &rep.Sizes
	var serial, pow2 int
	maxSize := int64(0)
	counts := map[int64]int{}
	sum := 0.0
	for _, n := range l.Procs {
		if n < 1 {
			continue
		}
		s.Jobs++
		counts[n]++
		sum += float64(n)
		maxSize = max(maxSize, n)
		if s.MinSize == 0 || n < s.MinSize {
			s.MinSize = n
		}
		if n == 1 {
			serial++
			continue
		}
		if n&(n-1) == 0 {
			pow2++
		}
		lp = append(lp, math.Log2(float64(n)))
	}
	s.Parallel = len(lp)
	if s.Jobs < MinSizeJobs || s.Parallel < MinSizeJobs {
		return fmt.Errorf("%w: the size model needs at least %d jobs with a known size, %d of them parallel; the log has %d and %d", ErrTooFewJobs, MinSizeJobs, MinSizeJobs, s.Jobs, s.Parallel)
	}
	s.MeanSize = sum / float64(s.Jobs)
	s.P1 = float64(serial) / float64(s.Jobs)
	s.Pow2Prob = float64(pow2) / float64(s.Jobs)
	s.P2 = float64(pow2) / float64(s.Parallel)
	hi := math.Log2(float64(maxSize))
	if l.MachineProcs > 0 && int64(l.MachineProcs) >= maxSize {
		hi = math.Log2(float64(l.MachineProcs))
	}
	tsu, err := fitDiscreteTSU(counts, hi, s.P1, s.Pow2Prob, s.MeanSize)
	if err != nil {
		return err
	}
	s.TSU = tsu
	if g, _, err := fit.Gamma(lp, nil); err == nil {
		s.GammaShape, s.GammaScale = g.Alpha, 1/g.Beta
		s.GammaD = stats.KSOneSample(lp, g.CDF).D
	}
	t.SerialProb, t.Pow2Prob = s.P1, s.Pow2Prob
	t.ULow, t.UMed, t.UHi, t.UProb = tsu.Low, tsu.Med, tsu.High, tsu.P
	s.OutsideAdvice = t.UMed < t.UHi-3.5 || t.UMed > t.UHi-1.5
	par := map[int64]int{}
	for n, c := range counts {
		if n >= 2 {
			par[n] = c
		}
	}
	pt := *t
	pt.SerialProb, pt.Pow2Prob = 0, s.P2
	s.TSUD = sizeKS(par, pt.SizeDistribution())
	pr := t.SizeDistribution()
	for n, v := range pr {
		if v > 1e-12 && s.ModelMinSize == 0 {
			s.ModelMinSize = int64(n)
		}
		s.ModelMeanSize += float64(n) * v
	}
	return nil
}

// logUntrunc maps a whole-second value r >= 1 to ln(r + ½).
func logUntrunc(r int64) float64 { return math.Log(float64(r) + 0.5) }

func fitRuntimes(l Log, o FitOptions, rep *FitReport, t *TypeParams) error {
	rf := &rep.Runtimes
	type job struct {
		n int64
		x float64
	}
	var jobs []job
	for i, r := range l.Runtime {
		if r < 1 || l.Procs[i] < 1 {
			rf.Dropped++
			continue
		}
		jobs = append(jobs, job{l.Procs[i], logUntrunc(r)})
	}
	rf.Jobs = len(jobs)
	if rf.Jobs < MinRuntimeJobs {
		return fmt.Errorf("%w: the runtime model needs at least %d jobs with a runtime of 1 s or more and a known size; the log has %d", ErrTooFewJobs, MinRuntimeJobs, rf.Jobs)
	}
	sort.Slice(jobs, func(a, b int) bool { return jobs[a].n < jobs[b].n })
	x := make([]float64, len(jobs))
	for i, j := range jobs {
		x[i] = j.x
	}
	hg, res, err := fit.HyperGamma(x, o.Settings)
	if err != nil && res.Status != fit.IterationLimit {
		return fmt.Errorf("fitting the runtime hyper-Gamma: %w", err)
	}
	rf.Status = res.Status
	rf.HG = HyperGammaParams{hg.Shape1, hg.Scale1, hg.Shape2, hg.Scale2, hg.P}
	xs := append([]float64(nil), x...) // sorted once for the KS distances
	sort.Float64s(xs)
	rf.HGD = stats.KSOneSampleSorted(xs, hg.CDF).D
	// Size groups of roughly equal job counts, never splitting a size.
	target := float64(len(jobs)) / float64(o.SizeGroups)
	var gx, gy []float64
	for start := 0; start < len(jobs); {
		end := start
		for end < len(jobs) && (float64(end-start) < target || jobs[end].n == jobs[end-1].n) {
			end++
		}
		grp := jobs[start:end]
		xs := make([]float64, len(grp))
		ns := make([]float64, len(grp))
		for i, j := range grp {
			xs[i], ns[i] = j.x, float64(j.n)
		}
		g := SizeGroup{MinProcs: grp[0].n, MaxProcs: grp[len(grp)-1].n, Jobs: len(grp), MedianProcs: stats.QuantileSorted(ns, 0.5)}
		p, _, err := fit.HyperGammaWeight(xs, hg, o.Settings)
		if err != nil && !errors.Is(err, fit.ErrIterationLimit) {
			return fmt.Errorf("fitting the runtime weight of sizes %d-%d: %w", g.MinProcs, g.MaxProcs, err)
		}
		g.P = p
		h := hg
		h.P = p
		g.D = stats.KSOneSample(xs, h.CDF).D
		rf.Groups = append(rf.Groups, g)
		if len(grp) >= minJobsPerSizeGrp {
			gx, gy = append(gx, g.MedianProcs), append(gy, p)
		}
		start = end
	}
	if len(gx) < maxSizeGroupsFloor {
		return fmt.Errorf("%w: the size-runtime correlation needs jobs of at least 2 different sizes (%d per group); the log has %d usable group(s)", ErrTooFewJobs, minJobsPerSizeGrp, len(gx))
	}
	rf.PB, rf.PA = stat.LinearRegression(gx, gy, nil, false)
	// The model's marginal over the observed sizes is a hyper-Gamma whose
	// weight is the mean clipped p.
	pbar := 0.0
	for _, j := range jobs {
		pbar += math.Min(1, math.Max(0, rf.PA*float64(j.n)+rf.PB))
	}
	model := hg
	model.P = pbar / float64(len(jobs))
	rf.ModelD = stats.KSOneSampleSorted(xs, model.CDF).D
	if len(x) >= 500 {
		rf.Subsample = stats.SubsampleKS(x, model.CDF, 500, 100, 0.05, rand.New(rand.NewPCG(1, 0)))
	}
	// The model's runtime distribution depends on each job's size, so its
	// expected bin counts come from a sample drawn at the log's sizes.
	r := rand.New(rand.NewPCG(2, 0))
	g1 := distuv.Gamma{Alpha: hg.Shape1, Beta: 1 / hg.Scale1, Src: r}
	g2 := distuv.Gamma{Alpha: hg.Shape2, Beta: 1 / hg.Scale2, Src: r}
	// Each draw goes through the data's path: whole seconds, at least 1 s,
	// then ln(r + ½); otherwise the data's ties at small runtimes alone
	// would make the test fail.
	sim := make([]float64, len(jobs))
	for i, j := range jobs {
		p := math.Min(1, math.Max(0, rf.PA*float64(j.n)+rf.PB))
		for {
			var v float64
			if r.Float64() <= p {
				v = g1.Rand()
			} else {
				v = g2.Rand()
			}
			if rt := math.Floor(math.Exp(v)); rt >= 1 && rt < math.MaxInt32 {
				sim[i] = logUntrunc(int64(rt))
				break
			}
		}
	}
	rf.Chi2 = stats.ChiSquareSimulated(x, sim, 20)
	t.A1, t.B1, t.A2, t.B2, t.PA, t.PB = hg.Shape1, hg.Scale1, hg.Shape2, hg.Scale2, rf.PA, rf.PB
	return nil
}

func fitArrivals(l Log, o FitOptions, rep *FitReport, t *TypeParams) error {
	af := &rep.Arrivals
	loc := l.Location
	if loc == nil {
		loc = time.UTC
	}
	sub := make([]int64, 0, len(l.Submit))
	for _, s := range l.Submit {
		if s >= 0 {
			sub = append(sub, s)
		}
	}
	sort.Slice(sub, func(a, b int) bool { return sub[a] < sub[b] })
	excluded := make(map[int]bool)
	for _, s := range o.ExcludeSlots {
		excluded[s] = true
	}
	var peak, all []float64
	prevDay, prevPeak := -1, false
	for i, s := range sub {
		tm := time.Unix(l.StartTime+s, 0).In(loc)
		slot := tm.Hour()*2 + tm.Minute()/30
		if !excluded[slot] {
			af.DailyCounts[slot]++
		}
		wd := tm.Weekday()
		inPeak := wd >= time.Monday && wd <= time.Friday && tm.Hour() >= o.PeakStart && tm.Hour() < o.PeakEnd
		day := tm.YearDay() + 400*tm.Year()
		if i > 0 {
			if ia := s - sub[i-1]; ia >= 1 {
				all = append(all, logUntrunc(ia))
				if inPeak && prevPeak && day == prevDay {
					peak = append(peak, logUntrunc(ia))
				}
			}
		}
		prevDay, prevPeak = day, inPeak
	}
	af.PeakIntervals = len(peak)
	if len(peak) < MinPeakIntervals {
		return fmt.Errorf("%w: the arrival model needs at least %d interarrivals of 1 s or more between jobs in the same peak period (%02d:00-%02d:00 Mon-Fri); the log has %d", ErrTooFewJobs, MinPeakIntervals, o.PeakStart, o.PeakEnd, len(peak))
	}
	g, _, err := fit.Gamma(peak, nil)
	if err != nil {
		return fmt.Errorf("fitting peak-hour interarrivals: %w", err)
	}
	af.AArr, af.BArr = g.Alpha, 1/g.Beta
	af.PeakD = stats.KSOneSample(peak, g.CDF).D
	af.ARAR = stat.Mean(all, nil) / stat.Mean(peak, nil)
	total := 0.0
	for _, c := range af.DailyCounts {
		total += c
	}
	if total < MinDailyCycleJobs {
		return fmt.Errorf("%w: the daily cycle needs at least %d arrivals outside excluded slots; the log has %.0f", ErrTooFewJobs, MinDailyCycleJobs, total)
	}
	if af.ANum, af.BNum, err = fitDailyCycle(af.DailyCounts, o.Slots, excluded); err != nil {
		return err
	}
	w := slotMasses(af.ANum, af.BNum, o.Slots)
	model := make([]float64, 48)
	wsum := 0.0
	for i := range w {
		if !excluded[i] {
			wsum += w[i]
		}
	}
	// KS over the slots in the shifted (cycle) order, and the χ² metric.
	var cd, cm, d float64
	order := slotOrder(o.Slots)
	for _, i := range order {
		if excluded[i] {
			continue
		}
		model[i] = total * w[i] / wsum
		cd += af.DailyCounts[i] / total
		cm += w[i] / wsum
		d = math.Max(d, math.Abs(cd-cm))
	}
	af.DailyD = d
	af.DailyChi2 = stats.DailyCycleChi2(model, af.DailyCounts[:])
	t.AArr, t.BArr, t.ARAR, t.ANum, t.BNum = af.AArr, af.BArr, af.ARAR, af.ANum, af.BNum
	return nil
}

// slotValue returns the Gamma argument of half-hour slot idx.
func slotValue(idx int, c SlotConvention) float64 {
	if c == PaperSlots {
		if idx < 10 {
			return float64(idx + 48)
		}
		return float64(idx)
	}
	if idx+1 < cyclicDayStart {
		return float64(idx + 49)
	}
	return float64(idx + 1)
}

// slotOrder returns the slots in increasing Gamma argument (the shifted day).
func slotOrder(c SlotConvention) []int {
	o := make([]int, 48)
	for i := range o {
		o[i] = i
	}
	sort.Slice(o, func(a, b int) bool { return slotValue(o[a], c) < slotValue(o[b], c) })
	return o
}

// slotMasses returns F(v+½) − F(v−½) for each slot's value v.
func slotMasses(a, b float64, c SlotConvention) []float64 {
	g := distuv.Gamma{Alpha: a, Beta: 1 / b}
	w := make([]float64, 48)
	for i := range w {
		v := slotValue(i, c)
		w[i] = g.CDF(v+0.5) - g.CDF(v-0.5)
	}
	return w
}

// fitDailyCycle maximises the binned likelihood Σ c_i ln(w_i / Σ_j w_j)
// (sums over the slots not excluded) over (ln α, ln β) by Nelder-Mead from
// the moment estimates. Arrivals that all fall in one slot (variance 0)
// have no such start and no Gamma fit: an error.
func fitDailyCycle(counts [48]float64, c SlotConvention, excluded map[int]bool) (a, b float64, err error) {
	var n, m, m2 float64
	for i, k := range counts {
		v := slotValue(i, c)
		n += k
		m += k * v
		m2 += k * v * v
	}
	m /= n
	v := m2/n - m*m
	if !(v > 0) {
		return 0, 0, fmt.Errorf("%w: the daily cycle needs arrivals in at least two half-hour slots; all %.0f are in one", ErrTooFewJobs, n)
	}
	nll := func(p []float64) float64 {
		w := slotMasses(math.Exp(p[0]), math.Exp(p[1]), c)
		tot := 0.0
		for i := range counts {
			if !excluded[i] {
				tot += w[i]
			}
		}
		s := 0.0
		for i, k := range counts {
			if k > 0 {
				s -= k * math.Log(math.Max(w[i], 1e-300)/tot)
			}
		}
		return s
	}
	res, err := optimize.Minimize(optimize.Problem{Func: nll}, []float64{math.Log(m * m / v), math.Log(v / m)}, nil, &optimize.NelderMead{})
	if err != nil {
		return 0, 0, fmt.Errorf("fitting the daily cycle: %w", err)
	}
	return math.Exp(res.X[0]), math.Exp(res.X[1]), nil
}
