package talby

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/userclass"
)

// Config sets a generation run.
type Config struct {
	// Weeks is the number of weeks to generate (at least 1).
	Weeks int
	// Seed seeds every random choice: the same parameters, weeks and seed
	// give the same workload.
	Seed uint64
}

// MaxWeeks bounds Config.Weeks (100 years), far beyond the two years the
// thesis advises (Talby (2006), section 14.1).
const MaxWeeks = 5200

// Job is one generated job. Times are seconds from time 0, a Monday
// 00:00.
type Job struct {
	Submit  int64
	Runtime int64
	Procs   int
	// User numbers users from 1 in the order they were created.
	User int
	// Session numbers sessions from 1 in the order they were generated.
	Session      int
	SessionClass sessionclass.Class
	UserClass    userclass.Class
}

// Workload is the result of a run.
type Workload struct {
	// Jobs are sorted by submit time (ties by user, then generation order).
	Jobs []Job
	// Users counts all users created, StartupUsers those active at
	// start-up (created too) and UsersWithJobs those with at least one job
	// (the others were never active, or their sessions were all dropped);
	// Sessions counts the sessions generated.
	Users, StartupUsers, UsersWithJobs, Sessions int
	// UserClasses counts the users of each class; SessionClasses the
	// sessions of each class.
	UserClasses    [NumUserClasses]int
	SessionClasses [NumSessionClasses]int
	// Dropped counts sessions given up because a week's sessions of a user
	// could not be placed apart (Talby (2006), Listing 5 with our final
	// guard of one session less).
	Dropped int

	streamed int // the jobs handed out by Stream
}

// ErrConfig reports a bad run configuration.
var ErrConfig = errors.New("talby: bad configuration")

type user struct {
	class userclass.Class
	woa   int
	// startup marks a start-up user under StartupFitted.
	startup bool
	prev    sessionclass.Class
	// busy holds the [start, end) of this user's sessions that may still
	// run at the start of the current week.
	busy []span
}

type span struct{ start, end int64 }

// classTables are a session class's precomputed job-layer draws.
type classTables struct {
	days, halfHours []float64
	jobsCum         []float64 // cumulative Zipf weights, index n-1
	sizes           []float64
	norm            []float64
	// sd is the total log-sd of the runtimes' nested draw.
	sd float64
}

// quantileRuntime returns the runtime at standard normal score z of the
// distribution of quantiles q (Runtime.Quantiles): the quantile Φ(z),
// interpolated linearly in ln runtime.
func quantileRuntime(q []float64, z float64) int64 {
	u := normCDF(z) * float64(len(q)-1)
	i := int(u)
	if i >= len(q)-1 {
		return int64(math.Round(q[len(q)-1]))
	}
	f := u - float64(i)
	a, b := math.Log(q[i]), math.Log(q[i+1])
	return int64(math.Round(math.Exp(a + f*(b-a))))
}

// generator holds the precomputed tables of one run.
type generator struct {
	p          Params
	r          *rand.Rand
	userShares [NumUserClasses]float64
	startup    [NumUserClasses][]float64
	stationary [NumUserClasses][NumSessionClasses]float64
	rows       [NumUserClasses][NumSessionClasses][NumSessionClasses]float64
	global     [NumSessionClasses]float64
	jobs       [NumSessionClasses]classTables
	out        *Workload
	// scratch for one week's sessions of a user.
	cand    []pending
	starts  []int64
	prevCls userclass.Class
	first   bool
}

// pending is a session being placed: its class, span and jobs.
type pending struct {
	class sessionclass.Class
	span
	jobs []Job
}

// Generate runs Talby's generative model (Talby (2006), section 12.6,
// Listing 5) for cfg.Weeks weeks: users active at start-up and new users
// every week, each with a class; every week each user is active or not,
// an active user has a number of sessions, each of a class drawn from the
// previous one's, placed in the week at least Placement.Gap apart from
// the user's other sessions by rejection; each session's jobs come from
// its class's job layer. Inside a session, a job is submitted less than
// Placement.Gap after the previous job's end, so that sessions found by
// the think-time rule (Talby (2006), section 9.2.1) are the generated
// ones when the jobs do not wait.
func Generate(p Params, cfg Config) (*Workload, error) {
	return generate(p, cfg, nil)
}

// Stream generates what [Generate] does and hands fn each job as the SWF
// record [Workload.SWF] makes of it, in the same order, as soon as that
// order is known, instead of holding them all: a session starts within
// its week and its jobs after its start, so once a week is drawn the jobs
// submitted before the next week starts are final. The Workload returned
// has the counts, not the jobs (Jobs is nil; [Workload.Header] counts the
// jobs handed out). Memory: the jobs of about one week (with those of
// sessions still running), and the numbers and end times of the jobs of
// the sessions not yet complete.
func Stream(p Params, cfg Config, fn func(*swf.Job) error) (*Workload, error) {
	done := int64(math.MinInt64) // the jobs submitted before it are handed out
	n, carried := 0, 0
	links := sessionLinks{}
	left := map[int]int{}       // jobs of each session not yet handed out
	users := map[int]struct{}{} // users with jobs
	flush := func(w *Workload, limit int64) error {
		for _, j := range w.Jobs[carried:] { // drawn since the last flush
			left[j.Session]++
		}
		slices.SortStableFunc(w.Jobs, jobOrder)
		if len(w.Jobs) > 0 && w.Jobs[0].Submit < done {
			return fmt.Errorf("talby: a job submitted at %d s comes after the jobs before %d s were written", w.Jobs[0].Submit, done)
		}
		k := 0
		for ; k < len(w.Jobs) && w.Jobs[k].Submit < limit; k++ {
			j := &w.Jobs[k]
			rec := j.record(int64(n + k + 1))
			links.link(j, &rec)
			if left[j.Session]--; left[j.Session] == 0 {
				delete(left, j.Session)
				delete(links, j.Session)
			}
			users[j.User] = struct{}{}
			if err := fn(&rec); err != nil {
				return err
			}
		}
		n += k
		w.Jobs = append(w.Jobs[:0], w.Jobs[k:]...)
		carried = len(w.Jobs)
		done = limit
		return nil
	}
	w, err := generate(p, cfg, flush)
	if err != nil {
		return nil, err
	}
	if err := flush(w, math.MaxInt64); err != nil {
		return nil, err
	}
	w.Jobs, w.streamed, w.UsersWithJobs = nil, n, len(users)
	return w, nil
}

// jobOrder orders jobs by submit time, then user (Workload.Jobs' order
// with a stable sort of the jobs in generation order).
func jobOrder(a, b Job) int {
	if a.Submit != b.Submit {
		return cmpInt64(a.Submit, b.Submit)
	}
	return a.User - b.User
}

// generate runs the model; flush, when not nil, is given the workload
// after each week with the start of the next.
func generate(p Params, cfg Config, flush func(w *Workload, next int64) error) (*Workload, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if cfg.Weeks < 1 || cfg.Weeks > MaxWeeks {
		return nil, fmt.Errorf("%w: weeks = %d: must be in [1, %d]", ErrConfig, cfg.Weeks, MaxWeeks)
	}
	g := &generator{p: p, r: rand.New(rand.NewPCG(cfg.Seed, 0x74616c6279)), out: &Workload{}, first: true}
	g.prepare()
	var users []*user
	add := func(woa int, startup bool) {
		u := &user{class: g.drawUserClass(), woa: woa, prev: -1}
		if startup {
			pm := g.startup[u.class]
			u.woa = 1 + draw(g.r, pm[1:], 1)
			u.startup = p.StartupFitted()
		}
		users = append(users, u)
		g.out.UserClasses[u.class]++
	}
	nStart := p.drawStartupUsers(g.r)
	for range nStart {
		add(0, true)
	}
	g.out.StartupUsers = nStart
	const week = 7 * 86400
	for w := range cfg.Weeks {
		for range p.drawNewUsers(g.r) {
			add(1, false)
		}
		start := int64(w) * week
		for id, u := range users {
			// Sessions that ended before this week cannot collide.
			u.busy = slices.DeleteFunc(u.busy, func(s span) bool { return s.end+p.Placement.Gap <= start })
			switch {
			case u.startup:
				if g.r.Float64() >= p.StartupInactive(w+1, u.class) {
					k, s := p.startupGPD(w+1, u.class)
					g.week(u, id+1, start, p.drawCount(g.r, k, s))
				}
			case u.woa == 1 || g.r.Float64() >= p.Inactive(u.woa, u.class):
				n := p.drawSessions(g.r, u.woa, u.class)
				g.week(u, id+1, start, n)
			}
			u.woa++
		}
		if flush != nil {
			if err := flush(g.out, start+week); err != nil {
				return nil, err
			}
		}
	}
	g.out.Users = len(users)
	seen := make([]bool, len(users)+1)
	for _, j := range g.out.Jobs {
		if !seen[j.User] {
			seen[j.User] = true
			g.out.UsersWithJobs++
		}
	}
	slices.SortStableFunc(g.out.Jobs, jobOrder)
	return g.out, nil
}

func (g *generator) prepare() {
	p := g.p
	g.userShares = p.UserClassShares()
	for u := range NumUserClasses {
		uc := userclass.Class(u)
		g.startup[u] = p.StartupWoA(uc)
		g.stationary[u] = p.Stationary(uc)
		for c := range NumSessionClasses {
			g.rows[u][c] = p.chainRow(uc, sessionclass.Class(c))
		}
	}
	g.global = p.SessionClasses.Global
	normalize(g.global[:])
	for c, j := range p.Jobs {
		t := &g.jobs[c]
		t.days = append([]float64(nil), j.Days[:]...)
		normalize(t.days)
		t.halfHours = append([]float64(nil), j.HalfHours[:]...)
		normalize(t.halfHours)
		t.jobsCum = make([]float64, j.Jobs.Max)
		var s float64
		for n := 1; n <= j.Jobs.Max; n++ {
			s += math.Pow(float64(n), -j.Jobs.A)
			t.jobsCum[n-1] = s
		}
		t.sd = math.Sqrt(j.Runtime.Session*j.Runtime.Session + j.Runtime.Sequence*j.Runtime.Sequence + j.Runtime.Job*j.Runtime.Job)
		if !(t.sd > 0) {
			t.sd = 1
		}
		for _, z := range j.Sizes {
			t.sizes = append(t.sizes, z.P)
			t.norm = append(t.norm, z.Norm)
		}
		normalize(t.sizes)
	}
}

// drawUserClass draws a new user's class: the previous user's with
// probability Repeat, else from the shares (Talby (2006), section 11.4).
func (g *generator) drawUserClass() userclass.Class {
	var c userclass.Class
	if !g.first && g.r.Float64() < g.p.UserClasses.Repeat {
		c = g.prevCls
	} else {
		c = userclass.Class(draw(g.r, g.userShares[:], 1))
	}
	g.first, g.prevCls = false, c
	return c
}

// drawSessionClass draws by Eq. 18 (SessionClassProbs, with the tables).
func (g *generator) drawSessionClass(woa int, uc userclass.Class, prev sessionclass.Class) sessionclass.Class {
	cond := g.stationary[uc]
	if prev >= 0 {
		cond = g.rows[uc][prev]
	}
	var s [NumSessionClasses]float64
	var tot float64
	for c, l := range g.p.SessionClasses.WoA {
		v := math.Max(0, l.Slope*float64(woa)+l.Intercept+cond[c]-g.global[c])
		s[c] = v
		tot += v
	}
	if tot <= 0 {
		return sessionclass.Class(draw(g.r, cond[:], 1))
	}
	return sessionclass.Class(draw(g.r, s[:], tot))
}

// week places n sessions of user u (ID id) in the week starting at start
// (Listing 5's GenerateWeeklySessions): up to Attempts placements of one
// draw of classes, up to Redraws draws of classes; then the week loses
// sessions (our guard, as the thesis' loop need not end): as many as the
// failed attempts could not place, at least one. The lost sessions are
// counted in Workload.Dropped.
func (g *generator) week(u *user, id int, start int64, n int) {
	pl := g.p.Placement
	for n > 0 {
		best := 0
		for range pl.Redraws {
			classes := make([]sessionclass.Class, n)
			psc := u.prev
			for i := range classes {
				classes[i] = g.drawSessionClass(u.woa, u.class, psc)
				psc = classes[i]
			}
			if pl.Redraw == PlacementStarts {
				placed := g.placeStarts(classes, u, id, start)
				if placed == n {
					g.commit(u, classes)
					return
				}
				best = max(best, placed)
				continue
			}
			for range pl.Attempts {
				if !g.place(classes, u, id, start) {
					// g.cand holds the sessions placed before the
					// collision.
					best = max(best, len(g.cand))
					continue
				}
				g.commit(u, classes)
				return
			}
		}
		next := min(n-1, max(best, 1))
		g.out.Dropped += n - next
		n = next
	}
}

// commit adds the placed sessions of g.cand to the workload.
func (g *generator) commit(u *user, classes []sessionclass.Class) {
	u.prev = classes[len(classes)-1]
	for _, s := range g.cand {
		g.out.Sessions++
		g.out.SessionClasses[s.class]++
		for _, j := range s.jobs {
			j.Session = g.out.Sessions
			g.out.Jobs = append(g.out.Jobs, j)
		}
		u.busy = append(u.busy, s.span)
	}
}

// placeStarts places sessions of the given classes by PlacementStarts:
// their jobs are drawn once, relative to a start at 0, and up to
// Placement.Attempts draws of their start times are tried; a draw fails at
// the first session closer than Placement.Gap to one placed before it or
// to the user's sessions still running. On success g.cand holds the
// sessions at their starts and it returns len(classes); otherwise the most
// sessions any draw placed before its collision.
func (g *generator) placeStarts(classes []sessionclass.Class, u *user, id int, start int64) int {
	gap := g.p.Placement.Gap
	g.cand = g.cand[:0]
	for _, c := range classes {
		if len(g.cand) < cap(g.cand) {
			g.cand = g.cand[:len(g.cand)+1]
		} else {
			g.cand = append(g.cand, pending{})
		}
		g.session(&g.cand[len(g.cand)-1], c, u, id, 0, math.MaxInt64)
	}
	if cap(g.starts) < len(classes) {
		g.starts = make([]int64, len(classes))
	}
	starts := g.starts[:len(classes)]
	apart := func(s0, d0, s1, d1 int64) bool {
		if s0 <= s1 {
			return s0+d0+gap <= s1
		}
		return s1+d1+gap <= s0
	}
	best := 0
	for range g.p.Placement.Attempts {
		placed := 0
	draw:
		for i, c := range classes {
			s0 := g.sessionStart(c, start)
			d0 := g.cand[i].end
			for _, b := range u.busy {
				if !apart(s0, d0, b.start, b.end-b.start) {
					break draw
				}
			}
			for k := range i {
				if !apart(s0, d0, starts[k], g.cand[k].end) {
					break draw
				}
			}
			starts[i] = s0
			placed++
		}
		if placed < len(classes) {
			best = max(best, placed)
			continue
		}
		for i := range g.cand {
			s := &g.cand[i]
			for k := range s.jobs {
				s.jobs[k].Submit += starts[i]
			}
			s.span = span{start: starts[i], end: starts[i] + s.end}
		}
		return len(classes)
	}
	return best
}

// place draws one session of each class into g.cand and reports whether
// none of them, nor the user's sessions still running, are closer than
// Placement.Gap (Listing 5's Collisions: s1 starts first and ends later
// than Gap before s2 starts). It gives up at the first collision: the
// accepted placements are those of drawing all sessions and then checking,
// at a fraction of the cost. A start inside another session (or its gap)
// is a collision whatever the session's jobs, so it is checked before they
// are drawn.
func (g *generator) place(classes []sessionclass.Class, u *user, id int, start int64) bool {
	g.cand = g.cand[:0]
	gap := g.p.Placement.Gap
	for _, c := range classes {
		s0 := g.sessionStart(c, start)
		for _, b := range u.busy {
			if s0 >= b.start && s0 < b.end+gap {
				return false
			}
		}
		for _, b := range g.cand {
			if s0 >= b.start && s0 < b.end+gap {
				return false
			}
		}
		// The session must end more than gap before the next start.
		limit := int64(math.MaxInt64)
		for _, b := range u.busy {
			if b.start >= s0 {
				limit = min(limit, b.start-gap)
			}
		}
		for _, b := range g.cand {
			if b.start >= s0 {
				limit = min(limit, b.start-gap)
			}
		}
		// Reuse the slot's job buffer from earlier attempts.
		if len(g.cand) < cap(g.cand) {
			g.cand = g.cand[:len(g.cand)+1]
		} else {
			g.cand = append(g.cand, pending{})
		}
		if !g.session(&g.cand[len(g.cand)-1], c, u, id, s0, limit) {
			g.cand = g.cand[:len(g.cand)-1]
			return false
		}
	}
	return true
}

// sessionStart draws the start of a session of class c in the week
// starting at start: a day of the week, a half-hour of the day and a
// second in it.
func (g *generator) sessionStart(c sessionclass.Class, start int64) int64 {
	t := &g.jobs[c]
	day := draw(g.r, t.days, 1)
	hh := draw(g.r, t.halfHours, 1)
	return start + int64(day)*86400 + int64(hh)*1800 + g.r.Int64N(1800)
}

// session draws the jobs of a session of class c starting at s0 (Listing
// 5's GenerateSession with the job layer of JobClass) into out, whose job
// buffer it reuses. It stops and reports false as soon as the session ends
// after limit.
func (g *generator) session(out *pending, c sessionclass.Class, u *user, id int, s0, limit int64) bool {
	r, jc, t := g.r, &g.p.Jobs[c], &g.jobs[c]
	n := 1 + sort.SearchFloat64s(t.jobsCum, r.Float64()*t.jobsCum[len(t.jobsCum)-1])
	if n > len(t.jobsCum) {
		n = len(t.jobsCum)
	}
	ms := g.p.Machine.Procs
	centre := jc.Runtime.Mu + jc.Runtime.Session*r.NormFloat64()
	var seq float64
	var procs int
	out.class, out.span, out.jobs = c, span{start: s0, end: s0}, out.jobs[:0]
	sub := s0
	var prevRun int64
	for i := range n {
		if i == 0 || r.Float64() >= jc.Repeat {
			seq = centre + jc.Runtime.Sequence*r.NormFloat64()
			k := draw(r, t.sizes, 1)
			procs = int(math.Round(t.norm[k] * float64(ms) / 128))
			procs = min(max(procs, 1), ms)
		}
		x := seq + jc.Runtime.Job*r.NormFloat64()
		var run int64
		if q := jc.Runtime.Quantiles; len(q) > 1 {
			run = quantileRuntime(q, (x-jc.Runtime.Mu)/t.sd)
		} else {
			run = int64(math.Round(math.Exp(x)))
		}
		run = min(max(run, 1), jc.Runtime.Max)
		if i > 0 {
			sub += g.gap(jc, prevRun)
		}
		out.jobs = append(out.jobs, Job{Submit: sub, Runtime: run, Procs: procs, User: id, SessionClass: c, UserClass: u.class})
		out.end = max(out.end, sub+run)
		if out.end > limit {
			return false
		}
		prevRun = run
	}
	return true
}

// gap draws the time from a job's submit to the next one's in a session:
// shorter than the previous job's runtime plus Placement.Gap, so that the
// think time stays below the session threshold. Draws at or above the
// bound are drawn again (at most 20 times), then taken uniform below it.
func (g *generator) gap(jc *JobClass, prevRun int64) int64 {
	bound := prevRun + g.p.Placement.Gap
	r := g.r
	for range 20 {
		if r.Float64() < jc.Gap.Zero {
			return 0
		}
		x := math.Round(math.Exp(jc.Gap.Mu + jc.Gap.Sigma*r.NormFloat64()))
		if x < float64(bound) {
			return int64(x)
		}
	}
	return r.Int64N(max(bound, 1))
}
