package lublin

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hpcwl/hpcwl/dist"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// Version identifies the generator's behaviour; it changes whenever the
// same configuration and seed would produce different jobs.
const Version = "lublin99-go/2"

// Queue numbers of the generated jobs (SWF field 15), as in the program.
const (
	QueueInteractive = 0
	QueueBatch       = 1
)

// DefaultJobs is the default number of jobs of lublin99.c, the reference
// program of Lublin and Feitelson, The workload on parallel supercomputers,
// JPDC 63(11), 2003 (its SIZE).
const DefaultJobs = 50000

// Config configures a generation run. The zero value plus a Params is
// usable: 50,000 jobs, seed 0, start at midnight, parameters as given.
type Config struct {
	// Params are the model parameters; validated by [New].
	Params Params
	// Jobs is the number of jobs to generate. When 0 and Duration is 0,
	// DefaultJobs.
	Jobs int
	// Duration, in seconds, stops generation before the first job submitted
	// after it. When both Jobs and Duration are set, whichever comes first.
	Duration int64
	// Seed seeds the PCG random source; the same Config and Seed give the
	// same jobs.
	Seed uint64
	// StartHour is the local time of day of time 0, in [0, 24); the program's
	// START = 0 is midnight.
	StartHour float64
	// Procs, when > 0, scales the parameters to a machine of this many
	// processors with [Params.ScaleToMachine]; 0 keeps them (128 nodes for
	// the published sets).
	Procs int
	// Load, when > 0, is the target offered load (see [ExpectedLoad]); AArr of
	// every class is multiplied by the factor [CalibrateLoad] finds. When 0
	// and the parameters hold a fitted log's [Target], the arrival rate is
	// calibrated to the log's ([CalibrateRate]), unless OwnRate is set;
	// otherwise the parameters' own rate and load are kept.
	Load float64
	// OwnRate keeps the parameters' own arrival rate even when they hold
	// a Target.
	OwnRate bool
	// HyperErlang draws runtimes from a hyper-Erlang instead of the
	// hyper-Gamma: the Gamma shapes rounded to integers, scales adjusted to
	// keep the means ([Params.HyperErlang]); applied before load calibration.
	HyperErlang bool
	// Arrivals is the method combining interarrivals with the daily cycle;
	// "" means [SlotWeight]. Method 1 keeps the parameters' own
	// arrival process: they cannot be combined with Load or a Target's rate
	// (set OwnRate).
	Arrivals ArrivalMethod
}

// Job is one generated job.
type Job struct {
	Submit  int64 // seconds since time 0
	Runtime int64 // seconds
	Procs   int64
	Queue   int64 // QueueInteractive or QueueBatch
}

// classGen samples sizes and runtimes of one class.
type classGen struct {
	t      TypeParams
	tsu    dist.TwoStageUniform
	g1, g2 distuv.Gamma
	r      *rand.Rand
	max    int64 // largest size: the class's machine, round(2^UHi)
}

func newClassGen(t TypeParams, r *rand.Rand) classGen {
	return classGen{
		t:   t,
		max: t.MaxSize(),
		tsu: dist.TwoStageUniform{Low: t.ULow, Med: t.UMed, High: t.UHi, P: t.UProb, Src: r},
		g1:  distuv.Gamma{Alpha: t.A1, Beta: 1 / t.B1, Src: r},
		g2:  distuv.Gamma{Alpha: t.A2, Beta: 1 / t.B2, Src: r},
		r:   r,
	}
}

// nodes is calc_number_of_nodes of lublin99.c: one uniform u decides serial (u
// <= SerialProb) and power of two (u <= SerialProb + Pow2Prob). A size above
// the machine (a power of two rounded up past a machine that is not one, e.g.
// 128 on 100 processors) is drawn again, so sizes follow the model's
// distribution conditioned on fitting the machine; with UHi an integer (the
// published sets) no draw is ever above it.
func (c *classGen) nodes() int64 {
	for {
		u := c.r.Float64()
		if u <= c.t.SerialProb {
			return 1
		}
		par := c.tsu.Rand()
		if u <= c.t.SerialProb+c.t.Pow2Prob {
			par = math.Trunc(par + 0.5)
		}
		if n := int64(math.Pow(2, par) + 0.5); n <= c.max {
			return n
		}
	}
}

// runtime is time_from_nodes of lublin99.c: hyper-Gamma with p = clip(PA·n +
// PB), resampled until ln(runtime) <= 12, returned as whole seconds
// (truncated).
func (c *classGen) runtime(n int64) int64 {
	p := math.Min(1, math.Max(0, c.t.PA*float64(n)+c.t.PB))
	for {
		var hg float64
		if c.r.Float64() <= p {
			hg = c.g1.Rand()
		} else {
			hg = c.g2.Rand()
		}
		if hg <= maxLogRuntime {
			return int64(math.Exp(hg))
		}
	}
}

// Generator produces the jobs of one run, one at a time.
type Generator struct {
	cfg     Config
	params  Params // after scaling and load calibration
	factor  float64
	r       *rand.Rand
	classes [2]classGen // indexed by queue
	streams [2]*stream  // nil when unused
	count   int
}

// New validates cfg and returns a Generator positioned before the first job.
func New(cfg Config) (*Generator, error) {
	p := cfg.Params
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if cfg.Jobs < 0 || cfg.Duration < 0 {
		return nil, fmt.Errorf("%w: jobs %d and duration %d must not be negative", ErrInvalidParams, cfg.Jobs, cfg.Duration)
	}
	if cfg.Jobs == 0 && cfg.Duration == 0 {
		cfg.Jobs = DefaultJobs
	}
	if !(cfg.StartHour >= 0 && cfg.StartHour < 24) {
		return nil, fmt.Errorf("%w: start hour %v: must be in [0, 24)", ErrInvalidParams, cfg.StartHour)
	}
	if cfg.Procs > 0 {
		var err error
		if p, err = p.ScaleToMachine(cfg.Procs); err != nil {
			return nil, err
		}
	}
	if cfg.HyperErlang {
		p = p.HyperErlang()
	}
	switch cfg.Arrivals {
	case "", SlotWeight:
		cfg.Arrivals = SlotWeight
	case ExpectedInterarrival:
		if cfg.Load > 0 || (p.Target != nil && !cfg.OwnRate) {
			return nil, fmt.Errorf("%w: arrival method %s keeps the parameters' own arrival rate: it cannot be calibrated to a load or to a fitted log's rate (keep the parameters' own rate)", ErrInvalidParams, cfg.Arrivals)
		}
	default:
		return nil, fmt.Errorf("%w: arrival method %q: must be one of %v", ErrInvalidParams, cfg.Arrivals, ArrivalMethods)
	}
	factor := 1.0
	if cfg.Load < 0 || math.IsNaN(cfg.Load) {
		return nil, fmt.Errorf("%w: load %v: must be > 0 (or 0 for the parameters' own load)", ErrInvalidParams, cfg.Load)
	}
	switch {
	case cfg.Load > 0:
		var err error
		if p, factor, err = CalibrateLoad(p, cfg.Load); err != nil {
			return nil, err
		}
	case p.Target != nil && !cfg.OwnRate:
		var err error
		if p, factor, err = CalibrateRate(p, p.Target.JobsPerDay/86400); err != nil {
			return nil, err
		}
	}
	g := &Generator{cfg: cfg, params: p, factor: factor, r: rand.New(rand.NewPCG(cfg.Seed, 0x4c75626c696e3939))}
	start := int(cfg.StartHour * buckets / 24)
	betas := func(t TypeParams) (*[buckets]float64, error) {
		switch cfg.Arrivals {
		case ExpectedInterarrival:
			b, err := ExpectedInterarrivalBetas(t)
			return &b, err
		}
		return nil, nil
	}
	classes := []TypeParams{p.Whole}
	if p.Mode == Typed {
		// arrive_init is called for the interactive type first (type 0).
		classes = []TypeParams{p.Interactive, p.Batch}
	}
	for q, t := range classes {
		b, err := betas(t)
		if err != nil {
			return nil, err
		}
		g.classes[q] = newClassGen(t, g.r)
		g.streams[q] = newStream(t, start, g.r, b)
	}
	return g, nil
}

// Params returns the parameters in use, after machine scaling and load
// calibration.
func (g *Generator) Params() Params { return g.params }

// Expected returns the long-run arrival rate (jobs per day) and offered
// load of the parameters in use.
func (g *Generator) Expected() (jobsPerDay, load float64) {
	return ExpectedRate(g.params) * 86400, ExpectedLoad(g.params)
}

// Next returns the next job, and false when the run's job count or
// duration is exhausted.
func (g *Generator) Next() (Job, bool) {
	if g.cfg.Jobs > 0 && g.count >= g.cfg.Jobs {
		return Job{}, false
	}
	// arrive(): the stream with the earlier next arrival; strict < favours the
	// interactive stream on ties, as in lublin99.c.
	q := QueueInteractive
	if b := g.streams[QueueBatch]; b != nil && b.next < g.streams[QueueInteractive].next {
		q = QueueBatch
	}
	s := g.streams[q]
	t := s.next
	if g.cfg.Duration > 0 && t > float64(g.cfg.Duration) {
		return Job{}, false
	}
	s.advance()
	c := &g.classes[q]
	n := c.nodes()
	g.count++
	return Job{Submit: int64(t), Runtime: c.runtime(n), Procs: n, Queue: int64(q)}, true
}

// SWF converts a generated job with sequence number id (from 1) to an SWF
// record as the program writes it: submit, runtime, allocated processors,
// status 1 and queue; every other field −1.
func (j Job) SWF(id int64) swf.Job {
	s := swf.NewJob()
	s.ID = id
	s.Submit = j.Submit
	s.Runtime = j.Runtime
	s.Procs = j.Procs
	s.Status = 1
	s.Queue = j.Queue
	return s
}

// Header returns the SWF header of the run: the program's lines plus the
// model, generator version, seed, mode, machine size, start hour, load factor
// and the full parameter set as JSON, so that the run can be reproduced from
// the file alone. jobs is the number of jobs written.
func (g *Generator) Header(jobs int) swf.Header {
	var h swf.Header
	p := g.params
	uhi := p.Whole.UHi
	if p.Mode == Typed {
		uhi = math.Max(p.Batch.UHi, p.Interactive.UHi)
	}
	h.Add("Version", "2")
	h.Add("Computer", "synthetic (Lublin-Feitelson model)")
	h.Add("Acknowledge", "Uri Lublin, Hebrew University (model and reference program lublin99)")
	h.Add("Information", "http://www.cs.huji.ac.il/labs/parallel/workload")
	h.Add("Conversion", "hpcwl gen/lublin "+Version)
	h.Add("MaxJobs", strconv.Itoa(jobs))
	h.Add("MaxRecords", strconv.Itoa(jobs))
	h.Add("MaxNodes", strconv.FormatInt(int64(math.Pow(2, uhi)+0.5), 10))
	h.Add("MaxProcs", strconv.FormatInt(int64(math.Pow(2, uhi)+0.5), 10))
	h.Add("MaxRuntime", strconv.FormatInt(int64(math.Exp(maxLogRuntime)), 10))
	if p.Mode == Typed {
		h.Add("MaxQueues", "2")
		h.Add("Queues", "0 interactive, 1 batch")
	} else {
		h.Add("MaxQueues", "1")
		h.Add("Queues", "0 all jobs (whole-sample model)")
	}
	h.AddNote("Model: Lublin & Feitelson, JPDC 63(11) 2003, reference program lublin99")
	h.AddNote("Generator: " + Version)
	h.AddNote("Seed: " + strconv.FormatUint(g.cfg.Seed, 10))
	h.AddNote("Mode: " + string(p.Mode))
	h.AddNote(fmt.Sprintf("StartHour: %g (time 0 is this local time of day)", g.cfg.StartHour))
	if g.cfg.Procs > 0 {
		h.AddNote(fmt.Sprintf("Machine: %d processors", g.cfg.Procs))
	}
	if g.cfg.HyperErlang {
		h.AddNote("Runtimes: hyper-Erlang (Gamma shapes rounded to integers, means kept; the parameters below are the rounded ones)")
	}
	if g.cfg.Load > 0 {
		h.AddNote(fmt.Sprintf("Load: target %g, a_arr multiplied by %.6g", g.cfg.Load, g.factor))
	} else if t := p.Target; t != nil && !g.cfg.OwnRate {
		h.AddNote(fmt.Sprintf("Rate: the fitted log's %.4g jobs/day (its offered load %.4f on %d processors), a_arr multiplied by %.6g",
			t.JobsPerDay, t.OfferedLoad, t.MachineProcs, g.factor))
	}
	if g.cfg.Arrivals != SlotWeight {
		h.AddNote(fmt.Sprintf("Arrivals: method %s (Lublin and Feitelson 2003, section 7.3); expected rate and load not predicted", g.cfg.Arrivals))
	} else {
		rate, load := g.Expected()
		h.AddNote(fmt.Sprintf("ExpectedRate: %.4g jobs/day", rate))
		h.AddNote(fmt.Sprintf("ExpectedLoad: %.4f", load))
	}
	js, _ := json.Marshal(p) // cannot fail: plain numbers and strings
	h.AddNote("Parameters: " + string(js))
	return h
}

// Generate runs cfg to completion and returns the SWF header and jobs
// (IDs from 1). For very large runs, use [New] and [Generator.Next] to
// stream instead.
func Generate(cfg Config) (swf.Header, []swf.Job, error) {
	g, err := New(cfg)
	if err != nil {
		return swf.Header{}, nil, err
	}
	var jobs []swf.Job
	if cfg.Jobs > 0 {
		jobs = make([]swf.Job, 0, cfg.Jobs)
	}
	for {
		j, ok := g.Next()
		if !ok {
			break
		}
		jobs = append(jobs, j.SWF(int64(len(jobs)+1)))
	}
	return g.Header(len(jobs)), jobs, nil
}

// Stream runs the generator to its end, writing each job to w as it is
// drawn (as [Job.SWF] with IDs from 1), and returns the number of jobs. It
// holds one job at a time, so that a run of any length needs the same
// memory; [Generator.Header] of the count gives the run's header, the same
// as [Generate]'s.
func (g *Generator) Stream(w trace.JobWriter) (int, error) {
	n := 0
	var tj trace.Job
	for {
		j, ok := g.Next()
		if !ok {
			return n, nil
		}
		n++
		s := j.SWF(int64(n))
		var err error
		if tj, err = trace.FromSWF(&s); err != nil {
			return n, fmt.Errorf("job %d: %w", n, err)
		}
		if err := w.WriteJob(&tj); err != nil {
			return n, err
		}
	}
}
