package bursty

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/hpcwl/hpcwl/dist"
	"github.com/hpcwl/hpcwl/trace"
)

// sampler draws from a discrete distribution given by counts.
type sampler struct {
	cum []float64
}

func newSampler(w []float64) sampler {
	s := sampler{cum: make([]float64, len(w))}
	var t float64
	for i, v := range w {
		t += v
		s.cum[i] = t
	}
	return s
}

func (s sampler) total() float64 { return s.cum[len(s.cum)-1] }

func (s sampler) draw(r *rand.Rand) int {
	u := r.Float64() * s.total()
	i := sort.SearchFloat64s(s.cum, u)
	for i < len(s.cum)-1 && s.cum[i] <= u {
		i++
	}
	return i
}

// generator holds the model's tables ready for sampling.
type generator struct {
	m      *Model
	r      *rand.Rand
	weight sampler         // runtime label (0-based) by mixture weight
	rows   map[int][]int   // runtime label -> indices of its cells
	rowS   map[int]sampler // cell within a row, by job count (Pr(c, l))
	procS  []sampler       // processor count within a cell (Algorithm 2)
	size   func() int      // the BoT size law
}

func newGenerator(m *Model, seed uint64) *generator {
	g := &generator{m: m, r: rand.New(rand.NewPCG(seed, 0x626f7473)), rows: map[int][]int{}, rowS: map[int]sampler{}}
	w := make([]float64, len(m.Runtime.Components))
	for k, c := range m.Runtime.Components {
		w[k] = c.Weight
	}
	g.weight = newSampler(w)
	rowW := map[int][]float64{}
	for i, c := range m.Cells {
		g.rows[c.L] = append(g.rows[c.L], i)
		rowW[c.L] = append(rowW[c.L], float64(c.Jobs))
		pw := make([]float64, len(c.Procs))
		for j, p := range c.Procs {
			pw[j] = float64(p.Jobs)
		}
		g.procS = append(g.procS, newSampler(pw))
	}
	for l, w := range rowW {
		g.rowS[l] = newSampler(w)
	}
	z := dist.NewZipf(m.ZipfAlpha, m.ZipfMax, g.r)
	g.size = func() int { return int(z.Rand()) }
	return g
}

// randomJob is RandomlyGenerate of Algorithm 1: a runtime label by the
// mixture weights (drawn again while its row of the label table is empty:
// a component to which no job of the log was assigned), a parallelism
// label by Pr(c, l), a runtime from the component and a processor count
// from the cell's multiset (Algorithm 2).
func (g *generator) randomJob() (run int64, cpu int) {
	var l int
	for range 1000 {
		l = g.weight.draw(g.r) + 1
		if len(g.rows[l]) > 0 {
			break
		}
	}
	if len(g.rows[l]) == 0 { // every draw hit an empty row: take the first filled one
		l = g.m.Cells[0].L
	}
	cell := g.rows[l][g.rowS[l].draw(g.r)]
	c := g.m.Cells[cell]
	cpu = c.Procs[g.procS[cell].draw(g.r)].Procs
	comp := g.m.Runtime.Components[l-1]
	if g.m.Runtime.Space == LogRuntime {
		v := math.Expm1(comp.Mean + comp.StdDev*g.r.NormFloat64())
		return int64(math.Round(math.Max(v, 0))), cpu
	}
	// Raw seconds: a negative draw is drawn again (after 1000 tries, 0).
	for range 1000 {
		v := comp.Mean + comp.StdDev*g.r.NormFloat64()
		if v >= 0 {
			return int64(math.Round(v)), cpu
		}
	}
	return 0, cpu
}

// Generate draws one synthetic job per arrival time (seconds, ascending) by
// Algorithm 1: a job arriving at most Δ after the previous one repeats its
// runtime and processors until the bag reaches its size drawn from the
// Zipf law; any other job starts a new bag with a fresh random job. The
// same seed gives the same jobs.
func (m *Model) Generate(arrivals []float64, seed uint64) []trace.Job {
	jobs, _ := newGenerator(m, seed).generate(arrivals)
	return jobs
}

// GenerateBags is [Model.Generate] that also returns the sizes of the bags
// it made, in order (they sum to the number of jobs): the realised sizes,
// which fall short of the drawn ones when an arrival gap exceeds Δ.
func (m *Model) GenerateBags(arrivals []float64, seed uint64) ([]trace.Job, []int) {
	return newGenerator(m, seed).generate(arrivals)
}

func (g *generator) generate(arrivals []float64) ([]trace.Job, []int) {
	jobs := make([]trace.Job, 0, len(arrivals))
	bags, _ := g.stream(arrivals, trace.JobWriterFunc(func(j *trace.Job) error {
		jobs = append(jobs, *j)
		return nil
	}))
	return jobs, bags
}

// Stream writes the jobs [Model.Generate] returns to w one at a time, as
// they are drawn: it holds no job, only the arrival times given.
func (m *Model) Stream(arrivals []float64, seed uint64, w trace.JobWriter) error {
	_, err := newGenerator(m, seed).stream(arrivals, w)
	return err
}

func (g *generator) stream(arrivals []float64, w trace.JobWriter) ([]int, error) {
	m := g.m
	var bags []int
	var run int64
	var cpu, inBag, size int
	var j trace.Job
	for i, a := range arrivals {
		if i > 0 && a-arrivals[i-1] <= float64(m.Delta) && inBag < size {
			inBag++
			bags[len(bags)-1]++
		} else {
			inBag, size = 1, g.size()
			run, cpu = g.randomJob()
			bags = append(bags, 1)
		}
		j = trace.Job{ID: int64(i + 1), Submit: int64(math.Floor(a)), Wait: -1, Runtime: run, ReqTime: -1, ThinkTime: -1,
			AvgCPU: -1, UsedMem: -1, ReqMem: -1, Procs: int32(cpu), ReqProcs: int32(cpu), User: -1, Group: -1, App: -1,
			Queue: -1, Partition: -1, Preceding: -1, Status: 1}
		if err := w.WriteJob(&j); err != nil {
			return bags, err
		}
	}
	return bags, nil
}

// PoissonSchedule returns n arrival times of a Poisson process with the
// model's mean inter-arrival time, starting at 0.
func (m *Model) PoissonSchedule(n int, seed uint64) []float64 {
	return PoissonArrivals(n, 0, m.MeanInterArrival, rand.New(rand.NewPCG(seed, 0x61727276)))
}

// MWMSchedule returns n arrival times from the model's multifractal wavelet
// model, over the span of the fitted log (the rate scales with n). It
// returns nil when the model has none.
func (m *Model) MWMSchedule(n int, seed uint64) []float64 {
	if m.Arrivals == nil {
		return nil
	}
	return m.Arrivals.Arrivals(n, rand.New(rand.NewPCG(seed, 0x6d776d)))
}
