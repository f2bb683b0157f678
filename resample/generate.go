package resample

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hpcwl/hpcwl/trace"
)

// Copy is one copy (instance) of a user in a generated workload. A
// long-term user's copy ends with its traced activity and is followed by a
// regenerated copy in the same slot.
type Copy struct {
	// ID is the copy's user ID in the generated log (field 12), 1, 2, ...
	// in the order of the copies' first jobs.
	ID int32 `json:"id"`
	// User is the original user ID.
	User int32 `json:"user"`
	// Class is the pool the copy was drawn from.
	Class Class `json:"-"`
	// Slot numbers the long-term copies that follow one another (0 to
	// N_LT'-1); -1 for other copies.
	Slot int32 `json:"slot"`
	// Shift is the copy's shift in weeks: a job of local week w of the
	// original log lands in week w + Shift.
	Shift int `json:"shift_weeks"`
	// From is the index, in the user's sub-trace, of the first job copied:
	// 0 unless the copy starts in the middle of the user's activity.
	From int `json:"from"`
	// Jobs is the number of jobs the copy contributes.
	Jobs int `json:"jobs"`
	u    *User
}

// Sub returns the copy's sub-trace.
func (c *Copy) Sub() *User { return c.u }

// Workload is a generated workload.
type Workload struct {
	// Pools are the pools it was drawn from.
	Pools *Pools
	// Params are the resolved parameters.
	Params Params
	// Jobs are the generated jobs by submit time (then copy, then original
	// order), numbered 1, 2, ...; field 12 holds the copy's ID and field
	// 17 (preceding job) is -1. Every other field is the original job's.
	Jobs []trace.Job
	// Source holds, for each job, its index in the original trace.
	Source []int32
	// Copies are the copies that contribute jobs; Copies[i].ID == i+1.
	Copies []Copy
	// BeforeStart counts copied jobs that fell before time 0 and were left
	// out (copies started in the middle of week 0).
	BeforeStart int
}

// CopyOf returns the copy that job i of the workload belongs to.
func (w *Workload) CopyOf(i int) *Copy { return &w.Copies[w.Jobs[i].User-1] }

// WeekStart returns the relative time at which week k of the generated
// workload begins (in the log's local time; week 0 begins on or before
// time 0).
func (w *Workload) WeekStart(k int) int64 { return w.Pools.cal.weekStart(k) }

// Generate classifies t with opt.Classify-like defaults and generates one
// workload; see [Classify] and [Pools.Generate].
func Generate(t *trace.Trace, copt ClassifyOptions, opt Options) (*Workload, error) {
	p, err := Classify(t, copt)
	if err != nil {
		return nil, err
	}
	return p.Generate(opt)
}

// gen is the state of one generation.
type gen struct {
	p     *Pools
	pr    Params
	rng   *rand.Rand
	insts []Copy
	// once leaves out the regenerated long-term copies (TBUOS regenerates
	// them when their predecessor's last job ends).
	once bool
	// wLT and wT are the selective-resampling weights of the long-term and
	// temporary users; nil without a preference.
	wLT, wT []float64
}

// newGen starts a generation.
func newGen(p *Pools, pr Params, opt Options) *gen {
	g := &gen{p: p, pr: pr, rng: rand.New(rand.NewPCG(opt.Seed, opt.Stream))}
	if opt.Prefer != nil {
		g.wLT, g.wT = p.Weights(p.LongTerm, opt.Prefer), p.Weights(p.Temporary, opt.Prefer)
	}
	return g
}

// Generate draws one workload from the pools (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 3, section 4 with the
// load factor of 7.3 and the rare behaviours of 7.4). It is safe to call
// concurrently on the same pools.
func (p *Pools) Generate(opt Options) (*Workload, error) {
	pr, err := p.params(opt)
	if err != nil {
		return nil, err
	}
	g := newGen(p, pr, opt)
	g.longTerm()
	g.initialTemporary()
	g.weekly()
	return g.emit(), nil
}

// longTerm creates the long-term copies: round(f N_LT) slots, every user
// used floor(f) times before any is used again, the copies of one user
// spread evenly over its activity; each slot repeats every cycle.
func (g *gen) longTerm() {
	lt := g.p.LongTerm
	if len(lt) == 0 {
		return
	}
	n := g.pr.LongTerm
	q := n / len(lt)
	counts := make([]int, len(lt))
	if g.wLT != nil {
		counts = systematic(g.wLT, n, g.rng.Float64())
	} else {
		for i := range counts {
			counts[i] = q
		}
		for _, i := range g.rng.Perm(len(lt))[:n-q*len(lt)] {
			counts[i]++
		}
	}
	slot := int32(0)
	cycle := g.pr.CycleWeeks
	common := -1
	if g.pr.AlignLongTerm {
		common = g.rng.IntN(cycle)
	}
	for i, u := range lt {
		m := counts[i]
		if m == 0 {
			continue
		}
		a, base := u.LastWeek-u.FirstWeek+1, u.FirstWeek
		if g.pr.CyclePhase {
			a, base = cycle, g.p.cal.week(g.p.Start)
		}
		w1 := g.rng.IntN(a)
		for c := 0; c < m; c++ {
			w0 := base + (w1+c*(a/m))%a
			if common >= 0 {
				// Weeks of the cycle count from the period's first week
				// (not 0, for a period that starts later, e.g. a segment).
				w0 = g.p.cal.week(g.p.Start) + (common+c*(cycle/m))%cycle
			}
			shift := -w0
			g.add(Copy{User: u.ID, Class: LongTerm, Slot: slot, Shift: shift, From: firstFrom(g.p, u, w0), u: u})
			for s := shift + cycle; !g.once && u.FirstWeek+s < g.pr.Weeks; s += cycle {
				g.add(Copy{User: u.ID, Class: LongTerm, Slot: slot, Shift: s, u: u})
			}
			slot++
		}
	}
}

// firstFrom returns the index of u's first job in week w0 or later.
func firstFrom(p *Pools, u *User, w0 int) int {
	k, _ := slices.BinarySearchFunc(u.Jobs, w0, func(j int32, w int) int { return int(p.week[j]) - w })
	return k
}

func (g *gen) add(c Copy) { g.insts = append(g.insts, c) }

// initialTemporary draws Poisson(f N_T0) distinct temporary users, with
// probability proportional to their weeks active, each from a uniformly chosen
// week of its activity (Zakay's thesis, chapter 3, section 4, says only that
// the number is randomized; Poisson draws of distinct users are our choice).
func (g *gen) initialTemporary() {
	tp := g.p.Temporary
	if len(tp) == 0 || g.pr.InitialTemporary <= 0 {
		return
	}
	n := int(distuv.Poisson{Lambda: g.pr.InitialTemporary, Src: g.rng}.Rand())
	weights := make([]float64, len(tp))
	left := 0.0
	for k := 0; k < n; k++ {
		if left <= 0 {
			for i, u := range tp {
				weights[i] = float64(u.WeeksActive)
				if g.wT != nil {
					weights[i] *= g.wT[i]
				}
				left += weights[i]
			}
		}
		i := pickWeighted(weights, g.rng.Float64()*left)
		left -= weights[i]
		weights[i] = 0
		u := tp[i]
		var w0 int
		if g.p.Options.WeeksBySpan {
			w0 = u.FirstWeek + g.rng.IntN(u.LastWeek-u.FirstWeek+1)
		} else {
			w0 = int(u.weeks[g.rng.IntN(len(u.weeks))])
		}
		g.add(Copy{User: u.ID, Class: Temporary, Slot: -1, Shift: -w0, From: firstFrom(g.p, u, w0), u: u})
	}
}

// weekly draws the temporary arrivals of every week: each pool member with
// probability r_T' / |T| (in several rounds when r_T' > |T|), each arrival
// replaced by a rare behaviour with probability RB_NPW / r_T' (sections
// 6.5, 7.3 and 7.4). A copy starts at the user's first job, moved to the
// week of its arrival.
func (g *gen) weekly() {
	tp, rare := g.p.Temporary, g.p.Rare
	if len(tp) == 0 || g.pr.WeeklyRate <= 0 {
		return
	}
	rounds := max(1, int(math.Ceil(g.pr.WeeklyRate/float64(len(tp)))))
	prob := g.pr.WeeklyRate / float64(rounds*len(tp))
	var probs []float64 // per user, with a preference
	if g.wT != nil {
		sum, hi := 0.0, 0.0
		for _, x := range g.wT {
			sum += x
			hi = max(hi, x)
		}
		rounds = max(1, int(math.Ceil(g.pr.WeeklyRate*hi/sum)))
		probs = make([]float64, len(tp))
		for i, x := range g.wT {
			probs[i] = g.pr.WeeklyRate * x / sum / float64(rounds)
		}
	}
	pRare := g.pr.RBNPW / g.pr.WeeklyRate
	k0 := 1
	if g.pr.WeekZeroArrivals {
		k0 = 0
	}
	for k := k0; k < g.pr.Weeks; k++ {
		for r := 0; r < rounds; r++ {
			for i, u := range tp {
				pu := prob
				if probs != nil {
					pu = probs[i]
				}
				if g.rng.Float64() >= pu {
					continue
				}
				c := Copy{User: u.ID, Class: Temporary, Slot: -1, Shift: k - u.FirstWeek, u: u}
				if pRare > 0 && g.rng.Float64() < pRare {
					ru := rare[g.rng.IntN(len(rare))]
					c = Copy{User: ru.ID, Class: Rare, Slot: -1, Shift: k - ru.FirstWeek, u: ru}
				}
				g.add(c)
			}
		}
	}
}

// emit shifts the copies' jobs, drops those outside [0, Duration), orders
// them and numbers copies and jobs.
//
// Jobs are ordered by time, then copy, then order in the copy. They are
// appended in copy and job order, so one sort of time<<32 | position, on
// plain integers, gives that order; the duration (at most 100 years) fits
// in 32 bits.
func (g *gen) emit() *Workload {
	// MaxDuration must fit in 32 bits (a compile-time check).
	const _ = uint32(MaxDuration)
	p, d := g.p, g.pr.Duration
	w := &Workload{Pools: p, Params: g.pr}
	n := 0
	for i := range g.insts {
		n += len(g.insts[i].u.Jobs) - g.insts[i].From
	}
	keys := make([]uint64, 0, n)
	pos := make([]uint64, 0, n) // copy << 32 | index in the copy's sub-trace
	for ci := range g.insts {
		c := &g.insts[ci]
		sh := int64(c.Shift) * Week
		prev := int64(math.MinInt64)
		for k := c.From; k < len(c.u.Jobs); k++ {
			// A copy's jobs keep their order even where a daylight-saving
			// change repeats an hour of local time.
			t := max(prev, p.cal.fromLocal(p.local[c.u.Jobs[k]]+sh))
			prev = t
			if t >= d {
				break
			}
			if t < 0 {
				w.BeforeStart++
				continue
			}
			keys = append(keys, uint64(t)<<32|uint64(len(pos)))
			pos = append(pos, uint64(ci)<<32|uint64(k))
		}
	}
	slices.Sort(keys)
	ids := make([]int32, len(g.insts))
	w.Jobs = make([]trace.Job, len(keys))
	w.Source = make([]int32, len(keys))
	for i, kk := range keys {
		at := pos[kk&(1<<32-1)]
		ci, k := int32(at>>32), int32(at&(1<<32-1))
		c := &g.insts[ci]
		if ids[ci] == 0 {
			w.Copies = append(w.Copies, *c)
			ids[ci] = int32(len(w.Copies))
			w.Copies[len(w.Copies)-1].ID = ids[ci]
		}
		src := c.u.Jobs[k]
		j := &w.Jobs[i]
		*j = p.Trace.Jobs[src]
		j.ID = int64(i + 1)
		j.Submit = int64(kk >> 32)
		j.User = ids[ci]
		j.Preceding = -1
		w.Source[i] = src
		w.Copies[ids[ci]-1].Jobs++
	}
	return w
}

// pickWeighted returns the index i with weights[i] > 0 at which the running
// sum of weights passes x (the last positive one if rounding overshoots).
func pickWeighted(weights []float64, x float64) int {
	last := -1
	for i, wt := range weights {
		if wt <= 0 {
			continue
		}
		if x < wt {
			return i
		}
		x -= wt
		last = i
	}
	return last
}
