package bursty

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/stats"
	"github.com/hpcwl/hpcwl/summary"
	"github.com/hpcwl/hpcwl/trace"
)

// Options control [Analyze]. The zero value is not valid; start from
// [DefaultOptions].
type Options struct {
	// Delta is the BoT time parameter Δ in seconds (the paper's 100 s).
	Delta int64
	// Contiguity selects global (literal) or per-user BoTs.
	Contiguity Contiguity
	// AllJobs keeps jobs of every status; by default only jobs that
	// completed successfully (status 1) are analysed, as in the paper, since
	// others have no known runtime.
	AllJobs bool
	// Scales are the time scales of the temporal entropy curve, in seconds.
	Scales []float64
	// MaxProcs is N of the spatial entropy: the most processors a job may
	// request. 0 means the largest count in the log (the paper's "maximal
	// number of processors a job may request in W"); the machine size is the
	// other natural choice.
	MaxProcs int
	// Allocated measures parallelism (spatial entropy, correlation) by the
	// allocated processors (SWF field 5) instead of the requested ones
	// (field 8, or field 5 when the request is unknown).
	Allocated bool
	// HurstBin is the bin width in seconds of the arrival-count series the
	// Hurst parameter is estimated on.
	HurstBin float64
	// Seed seeds the Poisson and uniform baselines.
	Seed uint64
}

// DefaultOptions returns the paper's settings: Δ = 100 s, global contiguity,
// successful jobs only, the 1 minute .. 1 week scale grid, 5-minute bins for
// the Hurst estimates, seed 1.
func DefaultOptions() Options {
	return Options{Delta: 100, Scales: slices.Clone(DefaultScales), HurstBin: 300, Seed: 1}
}

// ErrNoJobs is returned when no job is left to analyse.
var ErrNoJobs = errors.New("no jobs to analyse")

// ErrOption wraps the errors of [Analyze] and [Fit] about option values out
// of range.
var ErrOption = errors.New("option out of range")

// maxCells bounds the arrays the options size: processors of the spatial
// entropy and bins of the Hurst series.
const maxCells = 1 << 26

// SizeCount is one row of the BoT size histogram.
type SizeCount struct {
	Size  int `json:"size"`
	Count int `json:"count"`
}

// VariabilityRow is one row of Table III: the BoTs of two or more jobs whose
// mean runtime is in [Low, High), and the mean over them of the sample
// standard deviation of their jobs' runtimes.
type VariabilityRow struct {
	Low         float64 `json:"low_s"`
	High        float64 `json:"high_s"`
	BoTs        int     `json:"bots"`
	Variability float64 `json:"mean_variability_s"`
}

// ScalePoint is one point of the temporal entropy curve (Fig. 6).
type ScalePoint struct {
	Scale   float64       `json:"scale_s"`
	Real    summary.Float `json:"real"`
	Poisson summary.Float `json:"poisson"`
}

// HurstValues are the Hurst parameter estimates of the arrival-count series
// (NaN, encoded as null, when the series is too short).
type HurstValues struct {
	RescaledRange summary.Float `json:"rs"`
	VarianceTime  summary.Float `json:"variance_time"`
	Periodogram   summary.Float `json:"periodogram"`
	Mean          summary.Float `json:"mean"`
}

// Report is the result of [Analyze].
type Report struct {
	// Jobs is the number of jobs analysed; Skipped those left out (not
	// successful, or without runtime or processors), by reason.
	Jobs          int `json:"jobs"`
	SkippedStatus int `json:"skipped_not_successful"`
	SkippedFields int `json:"skipped_unrunnable"`

	Delta      int64      `json:"delta_s"`
	Contiguity Contiguity `json:"contiguity"`
	// Attributes are the similarity attributes compared; Unknown those
	// recorded by no job, left out of the comparison.
	Attributes []Attribute `json:"attributes"`
	Unknown    []Attribute `json:"unknown_attributes"`

	// BoTs counts all bags including single jobs; MultiJobBoTs those of two
	// or more jobs, which hold JobsInBoTs jobs, FractionInBoTs of all (Table
	// II).
	BoTs           int     `json:"bots"`
	MultiJobBoTs   int     `json:"multi_job_bots"`
	JobsInBoTs     int     `json:"jobs_in_bots"`
	FractionInBoTs float64 `json:"fraction_in_bots"`
	// MeanBoTSize is the mean size of the bags of two or more jobs; MaxBoTSize
	// the largest.
	MeanBoTSize float64 `json:"mean_bot_size"`
	MaxBoTSize  int     `json:"max_bot_size"`
	// Sizes is the histogram of the sizes of all bags (Fig. 4).
	Sizes []SizeCount `json:"sizes"`
	// Variability is Table III.
	Variability []VariabilityRow `json:"variability"`
	// DurationUnder1000 is the fraction of bags of two or more jobs whose
	// submission duration (last minus first arrival) is under 1000 s
	// (Fig. 3); MaxDuration the longest such duration in seconds.
	DurationUnder1000 float64 `json:"duration_under_1000s"`
	MaxDuration       int64   `json:"max_duration_s"`
	// BIAs counts the BoT inter-arrival times (gaps between successive
	// similar jobs); BIAUnderDelta is the fraction of them ≤ Delta (Fig. 2).
	BIAs          int     `json:"bias"`
	BIAUnderDelta float64 `json:"bia_under_delta"`
	BIAMedian     float64 `json:"bia_median_s"`

	// Correlation is Pearson's r between runtime and processors (Table VI).
	Correlation summary.Float `json:"correlation"`
	// SpatialNE is the spatial normalised entropy of the log (Table V) with N
	// = SpatialN; SpatialNERandom that of as many uniform random jobs.
	SpatialNE       summary.Float `json:"spatial_ne"`
	SpatialNERandom summary.Float `json:"spatial_ne_random"`
	SpatialN        int           `json:"spatial_n"`
	SpatialNFrom    string        `json:"spatial_n_from"`
	// Parallelism is the processor count used: "requested" or "allocated".
	Parallelism string `json:"parallelism"`
	// MeanInterArrival is the mean arrival gap in seconds, the mean of the
	// Poisson baseline.
	MeanInterArrival float64 `json:"mean_interarrival_s"`
	// Temporal is the temporal entropy curve, real and Poisson (scales with
	// fewer than two intervals are left out).
	Temporal []ScalePoint `json:"temporal"`
	// Samples behind the figures (not in the JSON): the BoT inter-arrival
	// times (Fig. 2), and per bag of two or more jobs its submission duration
	// (Fig. 3) and mean runtime (Fig. 5b), all sorted ascending.
	BIASample      []float64 `json:"-"`
	DurationSample []float64 `json:"-"`
	RuntimeSample  []float64 `json:"-"`

	// HurstBin is the bin width of the arrival-count series; Hurst its
	// estimates (R/S, variance-time, periodogram) and ACF its
	// autocorrelation at lags 1..10 (eq. 1).
	HurstBin float64         `json:"hurst_bin_s"`
	Hurst    HurstValues     `json:"hurst"`
	ACF      []summary.Float `json:"acf"`
}

// Select returns the jobs the analysis uses: with a known submit time,
// runtime and processor count and, unless all is set, status 1 (completed).
// It also returns how many were left out for their status and for missing
// fields.
func Select(jobs []trace.Job, all bool) (out []trace.Job, badStatus, unrunnable int) {
	for i := range jobs {
		j := &jobs[i]
		switch {
		case !all && j.Status != 1:
			badStatus++
		case !j.Runnable():
			unrunnable++
		default:
			out = append(out, *j)
		}
	}
	return out, badStatus, unrunnable
}

// Analyze runs the whole characterisation on the jobs of t.
func Analyze(t *trace.Trace, opt Options) (*Report, error) {
	if opt.Delta < 0 {
		return nil, fmt.Errorf("%w: Δ must be >= 0 seconds, got %d", ErrOption, opt.Delta)
	}
	if opt.MaxProcs < 0 || opt.MaxProcs > maxCells {
		return nil, fmt.Errorf("%w: the maximum processors must be in 0..%d, got %d", ErrOption, maxCells, opt.MaxProcs)
	}
	for _, s := range opt.Scales {
		if !(s > 0) {
			return nil, fmt.Errorf("bursty: time scales must be > 0 seconds, got %v", s)
		}
	}
	if !(opt.HurstBin > 0) {
		return nil, fmt.Errorf("bursty: the Hurst bin width must be > 0 seconds, got %v", opt.HurstBin)
	}
	sel, bad, unr := Select(t.Jobs, opt.AllJobs)
	if len(sel) == 0 {
		return nil, fmt.Errorf("%w: %d jobs not recorded as successful (status 1), %d without runtime or processors", ErrNoJobs, bad, unr)
	}
	jobs := SortByArrival(sel)
	r := &Report{Jobs: len(jobs), SkippedStatus: bad, SkippedFields: unr, Delta: opt.Delta, Contiguity: opt.Contiguity}
	r.Attributes, r.Unknown = KnownAttributes(jobs)
	if r.Unknown == nil {
		r.Unknown = []Attribute{}
	}
	r.bags(jobs, opt)
	r.bia(jobs, opt)

	n := len(jobs)
	run := make([]float64, n)
	procs := make([]int, n)
	pf := make([]float64, n)
	arr := make([]float64, n)
	for i := range jobs {
		run[i] = float64(jobs[i].Runtime)
		if opt.Allocated {
			procs[i] = jobs[i].Processors()
		} else {
			procs[i] = int(value(&jobs[i], RequestedProcs))
		}
		pf[i] = float64(procs[i])
		arr[i] = float64(jobs[i].Submit)
	}
	r.Correlation = summary.Float(stat.Correlation(run, pf, nil))
	rng := rand.New(rand.NewPCG(opt.Seed, 0x6d696e68))

	maxUsed := slices.Max(procs)
	switch {
	case opt.MaxProcs > 0:
		r.SpatialN, r.SpatialNFrom = opt.MaxProcs, "option"
	default:
		r.SpatialN, r.SpatialNFrom = maxUsed, "largest job"
	}
	if maxUsed > r.SpatialN {
		r.SpatialN, r.SpatialNFrom = maxUsed, "largest job (above the option)"
	}
	r.Parallelism = "requested"
	if opt.Allocated {
		r.Parallelism = "allocated"
	}
	r.SpatialNE = summary.Float(SpatialNE(run, procs, r.SpatialN))
	ur, up := UniformJobs(n, slices.Min(run), slices.Max(run), r.SpatialN, rng)
	r.SpatialNERandom = summary.Float(SpatialNE(ur, up, r.SpatialN))

	if n > 1 {
		r.MeanInterArrival = (arr[n-1] - arr[0]) / float64(n-1)
	}
	pois := PoissonArrivals(n, arr[0], r.MeanInterArrival, rng)
	for _, s := range opt.Scales {
		v := TemporalNE(arr, s)
		if math.IsNaN(v) {
			continue
		}
		r.Temporal = append(r.Temporal, ScalePoint{Scale: s, Real: summary.Float(v), Poisson: summary.Float(TemporalNE(pois, s))})
	}
	if span := arr[n-1] - arr[0]; span/opt.HurstBin > maxCells {
		return nil, fmt.Errorf("%w: a Hurst bin of %g s cuts the log's %g s into more than %d bins; use at least %g s", ErrOption, opt.HurstBin, span, maxCells, math.Ceil(span/maxCells))
	}
	r.HurstBin = opt.HurstBin
	counts := ArrivalCounts(arr, opt.HurstBin)
	h := stats.EstimateHurst(counts)
	r.Hurst = HurstValues{summary.Float(h.RS.H), summary.Float(h.VarianceTime.H), summary.Float(h.Periodogram.H), summary.Float(h.Mean)}
	for _, v := range stats.ACF(counts, 10)[1:] {
		r.ACF = append(r.ACF, summary.Float(v))
	}
	return r, nil
}

// ArrivalCounts returns the number of arrivals in successive bins of width
// bin seconds from the first arrival (arrivals sorted ascending).
func ArrivalCounts(arrivals []float64, bin float64) []float64 {
	if len(arrivals) == 0 {
		return nil
	}
	lo := arrivals[0]
	out := make([]float64, int((arrivals[len(arrivals)-1]-lo)/bin)+1)
	for _, a := range arrivals {
		out[int((a-lo)/bin)]++
	}
	return out
}

func (r *Report) bags(jobs []trace.Job, opt Options) {
	bots := DetectBoTs(jobs, opt.Delta, r.Attributes, opt.Contiguity)
	r.BoTs = len(bots)
	hist := map[int]int{}
	var under int
	type acc struct {
		n  int
		sd float64
	}
	var rows []acc
	for _, b := range bots {
		hist[len(b)]++
		if len(b) < 2 {
			continue
		}
		r.MultiJobBoTs++
		r.JobsInBoTs += len(b)
		r.MaxBoTSize = max(r.MaxBoTSize, len(b))
		d := jobs[b[len(b)-1]].Submit - jobs[b[0]].Submit
		r.DurationSample = append(r.DurationSample, float64(d))
		if d < 1000 {
			under++
		}
		r.MaxDuration = max(r.MaxDuration, d)
		mean, sd := meanSD(jobs, b)
		r.RuntimeSample = append(r.RuntimeSample, mean)
		k := 0
		if mean >= 100 {
			k = int(math.Floor(math.Log10(mean))) - 1
		}
		for len(rows) <= k {
			rows = append(rows, acc{})
		}
		rows[k].n++
		rows[k].sd += sd
	}
	slices.Sort(r.DurationSample)
	slices.Sort(r.RuntimeSample)
	r.FractionInBoTs = float64(r.JobsInBoTs) / float64(len(jobs))
	if r.MultiJobBoTs > 0 {
		r.MeanBoTSize = float64(r.JobsInBoTs) / float64(r.MultiJobBoTs)
		r.DurationUnder1000 = float64(under) / float64(r.MultiJobBoTs)
	}
	r.Sizes = []SizeCount{}
	for s, c := range hist {
		r.Sizes = append(r.Sizes, SizeCount{Size: s, Count: c})
	}
	slices.SortFunc(r.Sizes, func(a, b SizeCount) int { return a.Size - b.Size })
	r.Variability = []VariabilityRow{}
	for k, a := range rows {
		lo, hi := math.Pow(10, float64(k+1)), math.Pow(10, float64(k+2))
		if k == 0 {
			lo = 0
		}
		row := VariabilityRow{Low: lo, High: hi, BoTs: a.n}
		if a.n > 0 {
			row.Variability = a.sd / float64(a.n)
		}
		r.Variability = append(r.Variability, row)
	}
}

func (r *Report) bia(jobs []trace.Job, opt Options) {
	b := BIA(jobs, r.Attributes, opt.Contiguity)
	r.BIAs = len(b)
	if len(b) == 0 {
		return
	}
	var under int
	for _, v := range b {
		if v <= float64(opt.Delta) {
			under++
		}
	}
	r.BIAUnderDelta = float64(under) / float64(len(b))
	slices.Sort(b)
	r.BIASample = b
	r.BIAMedian = stats.EmpiricalQuantileSorted(b, 0.5)
}
