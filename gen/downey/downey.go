package downey

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/hpcwl/hpcwl/swf"
)

// Version identifies the generator's behaviour; it changes whenever the
// same configuration and seed would produce different jobs.
const Version = "downey97-go/1"

// The published constants. Each is the paper's own number.
const (
	// Intercept is β0 of the uniform-log lifetime model F(t) = β0 + β1 ln t
	// (t in seconds): Downey, "Predicting queue times on space-sharing
	// parallel computers", IPPS 1997, Figure 1 (least-squares fit to the
	// SDSC Paragon's 1995 batch jobs, omitting the shortest and longest 10%).
	Intercept = -0.18
	// Slope is β1 of the same model and figure.
	Slope = 0.10
	// SDSCJobs is the number of batch jobs submitted to the SDSC Paragon
	// during 1995 that the fit describes: Downey, IPPS 1997, section 3.
	SDSCJobs = 24906
	// SDSCProcs is the size of that machine, 400 nodes: Downey, IPPS 1997,
	// section 3.
	SDSCProcs = 400
)

// sdscPeriod is the span of SDSCJobs, the calendar year 1995, in seconds.
const sdscPeriod = 365 * 86400

// DefaultJobs is the number of jobs generated when neither a count nor a
// duration is given: the size of the sample the runtime model was fitted to.
const DefaultJobs = SDSCJobs

// MinRuntime returns t_min = exp(-β0/β1), the shortest lifetime of the
// model in seconds (Downey, IPPS 1997, section 3: about 6 s).
func MinRuntime() float64 { return math.Exp(-Intercept / Slope) }

// MaxRuntime returns t_max = exp((1-β0)/β1), the longest lifetime of the
// model in seconds (Downey, IPPS 1997, section 3: about 37 h).
func MaxRuntime() float64 { return math.Exp((1 - Intercept) / Slope) }

// RuntimeCDF is the model's cumulative distribution of lifetimes,
// β0 + β1 ln t clipped to [0, 1].
func RuntimeCDF(t float64) float64 {
	if t <= 0 {
		return 0
	}
	return math.Min(1, math.Max(0, Intercept+Slope*math.Log(t)))
}

// RuntimeQuantile inverts RuntimeCDF: the lifetime with CDF p in [0, 1].
func RuntimeQuantile(p float64) float64 { return math.Exp((p - Intercept) / Slope) }

// MeanRuntime is the mean lifetime of the model in seconds,
// (t_max - t_min) / ln(t_max / t_min) = β1 (t_max - t_min).
func MeanRuntime() float64 { return Slope * (MaxRuntime() - MinRuntime()) }

// RuntimeSecondMoment is E[t²] = β1 (t_max² - t_min²) / 2.
func RuntimeSecondMoment() float64 {
	lo, hi := MinRuntime(), MaxRuntime()
	return Slope * (hi*hi - lo*lo) / 2
}

// SizeProb is the probability that a job uses n processors on a machine of
// procs processors: the parallelism A is log-uniform on [1, procs]
// (P(A < x) = ln x / ln procs) and rounded to the nearest integer, so
// P(n) = (ln min(n+½, procs) - ln max(n-½, 1)) / ln procs.
func SizeProb(n, procs int) float64 {
	if n < 1 || n > procs {
		return 0
	}
	if procs == 1 {
		return 1
	}
	hi := math.Min(float64(n)+0.5, float64(procs))
	lo := math.Max(float64(n)-0.5, 1)
	return math.Log(hi/lo) / math.Log(float64(procs))
}

// MeanSize is the mean number of processors of a job on a machine of procs
// processors under SizeProb. Summing by parts, Σ n P(n) ln N = N ln N -
// Σ_{n=1}^{N-1} ln(n+½) = N ln N - ln Γ(N+½) + ln Γ(3/2), so the cost does
// not grow with the machine.
func MeanSize(procs int) float64 {
	if procs <= 1 {
		return 1
	}
	n := float64(procs)
	lg1, _ := math.Lgamma(n + 0.5)
	lg0, _ := math.Lgamma(1.5)
	return (n*math.Log(n) - lg1 + lg0) / math.Log(n)
}

// SizeSecondMoment is E[n²] under SizeProb; its cost is linear in procs.
func SizeSecondMoment(procs int) float64 {
	var m float64
	for n := 1; n <= procs; n++ {
		m += float64(n) * float64(n) * SizeProb(n, procs)
	}
	return m
}

// SDSCRate is the arrival rate of the paper's sample in jobs per second:
// SDSCJobs jobs in 1995.
func SDSCRate() float64 { return SDSCJobs / float64(sdscPeriod) }

// OfferedLoad is the offered load of Poisson arrivals at rate (jobs per
// second) on a machine of procs processors: rate · E[runtime] · E[size] /
// procs, runtime and size being independent.
func OfferedLoad(rate float64, procs int) float64 {
	return rate * MeanRuntime() * MeanSize(procs) / float64(procs)
}

// Config configures a generation run. The zero value is usable: DefaultJobs
// jobs on the SDSC Paragon's 400 processors at its 1995 arrival rate, seed 0.
type Config struct {
	// Jobs is the number of jobs. When 0 and Duration is 0, DefaultJobs.
	Jobs int
	// Duration, in seconds, stops generation before the first job submitted
	// after it. When both are set, whichever comes first.
	Duration int64
	// Procs is the machine size, the upper bound of the parallelism; 0
	// means SDSCProcs.
	Procs int
	// Load, when > 0, is the target offered load: the Poisson rate is set
	// so that [OfferedLoad] equals it. When 0, the rate is [SDSCRate].
	Load float64
	// Seed seeds the random streams; the same Config gives the same jobs.
	// Sizes and runtimes come from streams of their own, so a change of
	// Load or Duration leaves them unchanged.
	Seed uint64
}

// Job is one generated job.
type Job struct {
	Submit  int64 // seconds since time 0
	Runtime int64 // seconds
	Procs   int64
}

// SWF returns the job as an SWF record with the given job number: status 1
// (completed), other unknown fields -1.
func (j Job) SWF(id int64) swf.Job {
	s := swf.NewJob()
	s.ID = id
	s.Submit = j.Submit
	s.Runtime = j.Runtime
	s.Procs = j.Procs
	s.ReqProcs = j.Procs
	s.Status = 1
	return s
}

// Generator draws jobs in submit order.
type Generator struct {
	cfg                 Config
	procs               int
	rate                float64 // jobs per second
	arr, size, run      *rand.Rand
	clock               float64
	made                int
	lnProcs, lnLo, lnHi float64
}

// Stream identifiers of the three random streams (PCG's second seed word).
const (
	streamArrival = 0x646f776e6579_01
	streamSize    = 0x646f776e6579_02
	streamRuntime = 0x646f776e6579_03
)

// New returns a generator for cfg, or an error naming the field that is out
// of range.
func New(cfg Config) (*Generator, error) {
	switch {
	case cfg.Jobs < 0:
		return nil, fmt.Errorf("downey: Jobs must not be negative, got %d", cfg.Jobs)
	case cfg.Duration < 0:
		return nil, fmt.Errorf("downey: Duration must not be negative, got %d", cfg.Duration)
	case cfg.Procs < 0:
		return nil, fmt.Errorf("downey: Procs must not be negative, got %d", cfg.Procs)
	case cfg.Load < 0 || math.IsNaN(cfg.Load) || math.IsInf(cfg.Load, 0):
		return nil, fmt.Errorf("downey: Load must be a positive number, got %g", cfg.Load)
	}
	if cfg.Jobs == 0 && cfg.Duration == 0 {
		cfg.Jobs = DefaultJobs
	}
	procs := cfg.Procs
	if procs == 0 {
		procs = SDSCProcs
	}
	rate := SDSCRate()
	if cfg.Load > 0 {
		rate = cfg.Load * float64(procs) / (MeanRuntime() * MeanSize(procs))
	}
	if !(rate > 0) || math.IsInf(rate, 0) {
		return nil, errors.New("downey: the arrival rate is not a positive number")
	}
	return &Generator{
		cfg:     cfg,
		procs:   procs,
		rate:    rate,
		arr:     rand.New(rand.NewPCG(cfg.Seed, streamArrival)),
		size:    rand.New(rand.NewPCG(cfg.Seed, streamSize)),
		run:     rand.New(rand.NewPCG(cfg.Seed, streamRuntime)),
		lnProcs: math.Log(float64(procs)),
		lnLo:    -Intercept / Slope,
		lnHi:    (1 - Intercept) / Slope,
	}, nil
}

// Next returns the next job, or false when the configured number of jobs
// or duration is reached.
func (g *Generator) Next() (Job, bool) {
	if g.cfg.Jobs > 0 && g.made >= g.cfg.Jobs {
		return Job{}, false
	}
	// Exponential interarrival; the first job arrives at time 0.
	if g.made > 0 {
		g.clock += g.arr.ExpFloat64() / g.rate
	}
	submit := int64(g.clock)
	if g.cfg.Duration > 0 && submit > g.cfg.Duration {
		return Job{}, false
	}
	g.made++
	// Parallelism: log-uniform on [1, procs], rounded to the nearest integer.
	n := int64(math.Round(math.Exp(g.size.Float64() * g.lnProcs)))
	n = min(max(n, 1), int64(g.procs))
	// Lifetime: ln t uniform on [-β0/β1, (1-β0)/β1], rounded to the second.
	lt := g.lnLo + g.run.Float64()*(g.lnHi-g.lnLo)
	return Job{Submit: submit, Runtime: int64(math.Round(math.Exp(lt))), Procs: n}, true
}

// Procs returns the machine size the jobs are drawn for.
func (g *Generator) Procs() int { return g.procs }

// Expected returns the arrival rate in jobs per day and the offered load the
// configuration implies ([OfferedLoad]).
func (g *Generator) Expected() (perDay, load float64) {
	return g.rate * 86400, OfferedLoad(g.rate, g.procs)
}

// Header returns the SWF header of the run: the model, its published
// constants, the generator version, seed, machine size and arrival rate, so
// that the run can be reproduced from the file alone. jobs is the number of
// jobs written.
func (g *Generator) Header(jobs int) swf.Header {
	var h swf.Header
	h.Add("Version", "2")
	h.Add("Computer", "synthetic (Downey 1997 model)")
	h.Add("Information", "http://www.cs.huji.ac.il/labs/parallel/workload")
	h.Add("Conversion", "hpcwl gen/downey "+Version)
	h.Add("MaxJobs", strconv.Itoa(jobs))
	h.Add("MaxRecords", strconv.Itoa(jobs))
	h.Add("MaxNodes", strconv.Itoa(g.procs))
	h.Add("MaxProcs", strconv.Itoa(g.procs))
	h.Add("MaxRuntime", strconv.FormatInt(int64(math.Round(MaxRuntime())), 10))
	h.AddNote("Model: Downey, IPPS 1997 (uniform-log lifetimes, F(t) = b0 + b1 ln t) and HPDC 1997 (log-uniform parallelism); Poisson arrivals")
	h.AddNote(fmt.Sprintf("Parameters: b0 = %g, b1 = %g (SDSC Paragon 1995 batch jobs), runtimes %.1f s to %.0f s", Intercept, Slope, MinRuntime(), MaxRuntime()))
	h.AddNote("Generator: " + Version)
	h.AddNote("Seed: " + strconv.FormatUint(g.cfg.Seed, 10))
	h.AddNote(fmt.Sprintf("Machine: %d processors", g.procs))
	perDay, load := g.Expected()
	if g.cfg.Load > 0 {
		h.AddNote(fmt.Sprintf("Arrivals: Poisson, %.6g jobs/day, calibrated to offered load %g", perDay, g.cfg.Load))
	} else {
		h.AddNote(fmt.Sprintf("Arrivals: Poisson at the SDSC Paragon's 1995 rate (%d jobs in 1995, %.6g jobs/day); offered load %.4g", SDSCJobs, perDay, load))
	}
	return h
}
