package bursty

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/hpcwl/hpcwl/dist"
	"github.com/hpcwl/hpcwl/fit"
	"github.com/hpcwl/hpcwl/internal/inputlimit"
	"github.com/hpcwl/hpcwl/trace"
)

// Runtime spaces of the runtime mixture.
const (
	// RawRuntime fits the mixture to runtimes in seconds (the paper's
	// "runtime process").
	RawRuntime = "raw"
	// LogRuntime fits it to ln(runtime + 1).
	LogRuntime = "log"
)

// Component is one Gaussian of the runtime mixture.
type Component struct {
	Weight float64 `json:"weight"`
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"sd"`
}

// RuntimeModel is stage A: the runtime classes (T. N. Minh, L. Wolters and D.
// Epema, "A realistic integrated model of parallel system workloads", CCGrid
// 2010, section VI-A).
type RuntimeModel struct {
	// Space is RawRuntime or LogRuntime.
	Space string `json:"space"`
	// G and Variance ("E" or "V") are the mixture chosen by BIC among
	// 1..GMax components and both variance models.
	G          int         `json:"g"`
	Variance   string      `json:"variance_model"`
	GMax       int         `json:"g_max"`
	BIC        float64     `json:"bic"`
	Components []Component `json:"components"`
}

// ProcGroup is one group of jobs with the same processor count and its
// parallelism label round(log2(count)) + 1 (Minh, Wolters and Epema (2010),
// section VI-B).
type ProcGroup struct {
	Procs int `json:"procs"`
	Jobs  int `json:"jobs"`
	Label int `json:"label"`
}

// ProcCount is one element of a label cell's processor multiset.
type ProcCount struct {
	Procs int `json:"procs"`
	Jobs  int `json:"jobs"`
}

// Cell is one cell of the label table: the jobs with runtime label L and
// parallelism label C, and the multiset of their processor counts
// (Algorithm 2).
type Cell struct {
	L     int         `json:"l"`
	C     int         `json:"c"`
	Jobs  int         `json:"jobs"`
	Procs []ProcCount `json:"procs"`
}

// Model is a fitted Minh-Wolters model: everything needed to generate a
// workload without the log.
type Model struct {
	// Provenance names the log and how it was read.
	Provenance map[string]string `json:"provenance"`
	// MachineProcs is the fitted log's machine size (its header's MaxProcs
	// or MaxNodes), 0 when the log does not say (and in files that predate
	// the field); generated logs record it as their machine.
	MachineProcs int `json:"machine_procs,omitempty"`
	// Jobs is n, the number of jobs fitted.
	Jobs int `json:"jobs"`
	// Delta is Δ in seconds.
	Delta int64 `json:"delta_s"`
	// Parallelism is "requested" or "allocated".
	Parallelism string       `json:"parallelism"`
	Runtime     RuntimeModel `json:"runtime"`
	// Groups are the processor-count groups with their labels.
	Groups []ProcGroup `json:"parallelism_groups"`
	// Labels is the number of distinct parallelism labels (Table IV).
	Labels int `json:"parallelism_labels"`
	// Cells is the label table: job counts per (runtime label, parallelism
	// label), from which Pr(c, l) = count(c, l) / count(l).
	Cells []Cell `json:"cells"`
	// ZipfAlpha and ZipfMax are the truncated Zipf law of BoT sizes (all
	// bags, single jobs included), fitted by maximum likelihood (the exponent
	// is 1, and irrelevant, when every bag is a single job).
	ZipfAlpha float64 `json:"zipf_alpha"`
	ZipfMax   int     `json:"zipf_max"`
	// ZipfMLE is the maximum-likelihood exponent, kept when ZipfAlpha was
	// calibrated instead ([FitOptions].CalibrateZipf); then ZipfCalibrated
	// is set.
	ZipfMLE        float64 `json:"zipf_mle,omitempty"`
	ZipfCalibrated bool    `json:"zipf_calibrated,omitempty"`
	// MeanInterArrival is the mean arrival gap of the log in seconds, the
	// rate of the Poisson arrivals.
	MeanInterArrival float64 `json:"mean_interarrival_s"`
	// Arrivals is the multifractal wavelet model of the log's arrival counts
	// (absent in files that predate it or when the log is too short).
	Arrivals *MWM `json:"arrivals,omitempty"`
}

// FitOptions control [Fit].
type FitOptions struct {
	// Options select the jobs and the bags (Delta, Contiguity, AllJobs,
	// Allocated).
	Options
	// LogRuntime fits the mixture to ln(runtime+1) instead of seconds.
	LogRuntime bool
	// GMax is the largest number of mixture components tried (MCLUST's
	// default 9).
	GMax int
	// MWMBin is the target bin width in seconds of the arrival model (0:
	// 60 s).
	MWMBin float64
	// CalibrateZipf replaces the maximum-likelihood Zipf exponent by the one
	// with which Algorithm 1, run on the log's own arrivals, puts the same
	// fraction of jobs in bags of two or more as the log (our choice where the
	// paper is silent: bags also end at arrival gaps over Δ, so the realised
	// sizes fall short of the drawn ones).
	CalibrateZipf bool
}

// Fit fits the model to the jobs of t (Minh, Wolters and Epema (2010),
// sections VI-A to VI-C).
func Fit(t *trace.Trace, opt FitOptions) (*Model, error) {
	if opt.GMax < 1 {
		return nil, fmt.Errorf("%w: the largest number of mixture components must be >= 1, got %d", ErrOption, opt.GMax)
	}
	if opt.Delta < 0 {
		return nil, fmt.Errorf("%w: Δ must be >= 0 seconds, got %d", ErrOption, opt.Delta)
	}
	sel, bad, unr := Select(t.Jobs, opt.AllJobs)
	if len(sel) == 0 {
		return nil, fmt.Errorf("%w: %d jobs not recorded as successful (status 1), %d without runtime or processors", ErrNoJobs, bad, unr)
	}
	jobs := SortByArrival(sel)
	n := len(jobs)
	m := &Model{Jobs: n, Delta: opt.Delta, Parallelism: "requested", Provenance: map[string]string{"log": t.Name}, MachineProcs: max(t.Procs, 0)}
	if t.SHA256 != "" {
		m.Provenance["sha256"] = t.SHA256
	}
	if opt.Allocated {
		m.Parallelism = "allocated"
	}
	// Stage A.
	x := make([]float64, n)
	for i := range jobs {
		x[i] = float64(jobs[i].Runtime)
		if opt.LogRuntime {
			x[i] = math.Log1p(x[i])
		}
	}
	best, _, err := fit.SelectGaussianMixture(x, opt.GMax, &fit.Settings{Tolerance: 1e-8})
	if err != nil {
		return nil, fmt.Errorf("bursty: runtime mixture: %w", err)
	}
	m.Runtime = RuntimeModel{Space: RawRuntime, G: best.G, Variance: best.Model.String(), GMax: opt.GMax, BIC: best.BIC}
	if opt.LogRuntime {
		m.Runtime.Space = LogRuntime
	}
	for k := range best.Dist.Weights {
		m.Runtime.Components = append(m.Runtime.Components, Component{best.Dist.Weights[k], best.Dist.Means[k], best.Dist.StdDevs[k]})
	}
	labelsL := RuntimeLabels(x, m.Runtime.Components)
	// Stage B.
	procs := make([]int, n)
	count := map[int]int{}
	for i := range jobs {
		if opt.Allocated {
			procs[i] = jobs[i].Processors()
		} else {
			procs[i] = int(value(&jobs[i], RequestedProcs))
		}
		count[procs[i]]++
	}
	label := map[int]int{}
	distinct := map[int]bool{}
	for p, c := range count {
		label[p] = ParallelismLabel(c)
		distinct[label[p]] = true
		m.Groups = append(m.Groups, ProcGroup{Procs: p, Jobs: c, Label: label[p]})
	}
	slices.SortFunc(m.Groups, func(a, b ProcGroup) int { return a.Procs - b.Procs })
	m.Labels = len(distinct)
	type key struct{ l, c int }
	cells := map[key]map[int]int{}
	for i := range jobs {
		k := key{labelsL[i], label[procs[i]]}
		if cells[k] == nil {
			cells[k] = map[int]int{}
		}
		cells[k][procs[i]]++
	}
	for k, ps := range cells {
		c := Cell{L: k.l, C: k.c}
		for p, j := range ps {
			c.Procs = append(c.Procs, ProcCount{p, j})
			c.Jobs += j
		}
		slices.SortFunc(c.Procs, func(a, b ProcCount) int { return a.Procs - b.Procs })
		m.Cells = append(m.Cells, c)
	}
	slices.SortFunc(m.Cells, func(a, b Cell) int {
		if a.L != b.L {
			return a.L - b.L
		}
		return a.C - b.C
	})
	// Stage C.
	attrs, _ := KnownAttributes(jobs)
	bots := DetectBoTs(jobs, opt.Delta, attrs, opt.Contiguity)
	sizes := make([]float64, len(bots))
	for i, b := range bots {
		sizes[i] = float64(len(b))
		m.ZipfMax = max(m.ZipfMax, len(b))
	}
	if m.ZipfMax == 1 {
		// Every bag is a single job: any exponent gives P(1) = 1.
		m.ZipfAlpha = 1
	} else {
		z, _, err := fit.Zipf(sizes, m.ZipfMax)
		if err != nil {
			return nil, fmt.Errorf("bursty: BoT sizes: %w", err)
		}
		m.ZipfAlpha = z.Alpha
	}
	if n > 1 {
		m.MeanInterArrival = float64(jobs[n-1].Submit-jobs[0].Submit) / float64(n-1)
	}
	arr := make([]float64, n)
	for i := range jobs {
		arr[i] = float64(jobs[i].Submit)
	}
	if opt.CalibrateZipf && m.ZipfMax > 1 {
		in := 0
		for _, b := range bots {
			if len(b) > 1 {
				in += len(b)
			}
		}
		m.ZipfMLE, m.ZipfCalibrated = m.ZipfAlpha, true
		m.ZipfAlpha = CalibrateZipf(arr, float64(opt.Delta), m.ZipfMax, float64(in)/float64(n))
	}
	bin := opt.MWMBin
	if bin == 0 {
		bin = 60
	}
	if mw, err := FitMWM(arr, bin); err == nil {
		m.Arrivals = &mw
	}
	return m, nil
}

// ParallelismLabel is the label of a group of count jobs: round(log2 count) +
// 1 (Minh, Wolters and Epema (2010), section VI-B; 250 and 300 jobs both give
// 9).
func ParallelismLabel(count int) int {
	return int(math.Round(math.Log2(float64(count)))) + 1
}

// RuntimeLabels returns, for each value, the 1-based index of the mixture
// component most likely to have produced it (the MAP label L_i).
func RuntimeLabels(x []float64, comps []Component) []int {
	out := make([]int, len(x))
	for i, v := range x {
		best, bl := 0, math.Inf(-1)
		for k, c := range comps {
			if c.Weight <= 0 {
				continue
			}
			d := (v - c.Mean) / c.StdDev
			l := math.Log(c.Weight) - math.Log(c.StdDev) - 0.5*d*d
			if l > bl {
				best, bl = k, l
			}
		}
		out[i] = best + 1
	}
	return out
}

// ErrParams wraps the errors of [ReadModel] about invalid parameter files.
var ErrParams = errors.New("invalid parameter file")

// ReadModel reads a parameter file written by [Model.Write] and checks it;
// errors name the offending field.
func ReadModel(r io.Reader) (*Model, error) {
	dec := json.NewDecoder(inputlimit.JSONValues(r, "", inputlimit.MaxToken))
	dec.DisallowUnknownFields()
	var m Model
	if err := dec.Decode(&m); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("%w: field %q: %s is not a %s", ErrParams, te.Field, te.Value, te.Type)
		}
		return nil, fmt.Errorf("%w: %v", ErrParams, err)
	}
	return &m, m.Check()
}

// Check reports the first invalid field of the model.
func (m *Model) Check() error {
	bad := func(field string, format string, a ...any) error {
		return fmt.Errorf("%w: field %q: %s", ErrParams, field, fmt.Sprintf(format, a...))
	}
	if m.Delta < 0 {
		return bad("delta_s", "must be >= 0, got %d", m.Delta)
	}
	if m.MachineProcs < 0 {
		return bad("machine_procs", "must be >= 0, got %d", m.MachineProcs)
	}
	if m.Runtime.Space != RawRuntime && m.Runtime.Space != LogRuntime {
		return bad("runtime.space", "must be %q or %q, got %q", RawRuntime, LogRuntime, m.Runtime.Space)
	}
	if len(m.Runtime.Components) == 0 {
		return bad("runtime.components", "at least one component is needed")
	}
	var sw float64
	for k, c := range m.Runtime.Components {
		if !(c.Weight >= 0) || !(c.StdDev > 0) || math.IsNaN(c.Mean) || math.IsInf(c.Mean, 0) || math.IsInf(c.StdDev, 0) {
			return bad(fmt.Sprintf("runtime.components[%d]", k), "needs weight >= 0, a finite mean and sd > 0")
		}
		sw += c.Weight
	}
	if math.Abs(sw-1) > 1e-6 {
		return bad("runtime.components", "weights sum to %v, not 1", sw)
	}
	if len(m.Cells) == 0 {
		return bad("cells", "the label table is empty")
	}
	for i, c := range m.Cells {
		if c.L < 1 || c.L > len(m.Runtime.Components) {
			return bad(fmt.Sprintf("cells[%d].l", i), "runtime label %d outside 1..%d", c.L, len(m.Runtime.Components))
		}
		sum := 0
		for _, p := range c.Procs {
			if p.Procs < 1 || p.Jobs < 1 {
				return bad(fmt.Sprintf("cells[%d].procs", i), "processors and jobs must be >= 1")
			}
			sum += p.Jobs
		}
		if sum != c.Jobs || sum == 0 {
			return bad(fmt.Sprintf("cells[%d].jobs", i), "is %d, the multiset holds %d", c.Jobs, sum)
		}
	}
	if !(m.ZipfAlpha > 0) || math.IsInf(m.ZipfAlpha, 0) {
		return bad("zipf_alpha", "must be > 0, got %v", m.ZipfAlpha)
	}
	if m.ZipfMax < 1 {
		return bad("zipf_max", "must be >= 1, got %d", m.ZipfMax)
	}
	if !(m.MeanInterArrival > 0) || math.IsInf(m.MeanInterArrival, 0) {
		return bad("mean_interarrival_s", "must be > 0, got %v", m.MeanInterArrival)
	}
	if m.Arrivals != nil {
		return m.Arrivals.check()
	}
	return nil
}

// Write writes the model as indented JSON.
func (m *Model) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(m)
}

// RealisedFraction returns the fraction of jobs that Algorithm 1 puts in
// bags of two or more on these arrivals (ascending) with bag sizes drawn
// from the truncated Zipf law (alpha, max); the sizes come from a fixed
// random stream, so the result is deterministic and does not increase with
// alpha.
func RealisedFraction(arrivals []float64, delta float64, alpha float64, max int) float64 {
	z := dist.NewZipf(alpha, max, rand.New(rand.NewPCG(1, 0x7a697066)))
	in, cur, size := 0, 0, 0
	for i, a := range arrivals {
		if i > 0 && a-arrivals[i-1] <= delta && cur < size {
			cur++
			continue
		}
		if cur > 1 {
			in += cur
		}
		cur, size = 1, int(z.Rand())
	}
	if cur > 1 {
		in += cur
	}
	return float64(in) / float64(len(arrivals))
}

// CalibrateZipf returns the exponent in [0.01, 10] whose realised fraction
// ([RealisedFraction]) is nearest to target, by bisection.
func CalibrateZipf(arrivals []float64, delta float64, max int, target float64) float64 {
	lo, hi := 0.01, 10.0
	for range 50 {
		mid := (lo + hi) / 2
		if RealisedFraction(arrivals, delta, mid, max) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
