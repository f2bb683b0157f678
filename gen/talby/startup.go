package talby

import (
	"fmt"
	"math"

	"github.com/hpcwl/hpcwl/userclass"
)

// startupUser is a user first seen before the steady state (week
// SteadyWeek), with the sessions of each full week of the log.
type startupUser struct {
	class userclass.Class
	per   map[int]int // week -> sessions
}

// fitStartupActivity fits the activity of start-up users (our extension
// StartupFitted, see StartupUsers) to the users first seen before week
// SteadyWeek of a log of weeks full weeks, given the parameters fitted so
// far (new users' inactivity), the mean number of new users per week of
// the steady state and the class shares of new users.
//
// The users first seen before week SteadyWeek are the start-up users and
// the new users of weeks 1-11, which cannot be told apart. The new users'
// part is removed in expectation: in week w, mean·share(c) new users of
// class c arrived in each week a ≤ min(w, 11), each active with
// probability 1 − Inactive(w − a + 1, c); the start-up users number
// early(c) − 11·mean·share(c). P(inactive in model week x = w + 1) is
// then 1 − (active early users − expected active new ones) / start-up
// users, and A, B of A·ln x + B are its least-squares line over the weeks.
// The sessions per active week are the generalized Pareto of all early
// users' active weeks (the new users among them included), shape and
// scale linear in x, by maximum likelihood. A class with fewer than
// MinClassUsers start-up users gets the lines of all classes pooled.
// It reports false, with a note, when even the pool is too small.
func fitStartupActivity(p Params, early []startupUser, weeks int, mean float64, share [NumUserClasses]float64) (in [NumUserClasses]InactivityLine, ss [NumUserClasses]GPDLine, notes []string, ok bool) {
	steady := float64(SteadyWeek - 1)
	// Per class and pooled (index NumUserClasses): start-up users, active
	// users per week (observed minus expected new ones), GPD data.
	const pool = NumUserClasses
	var n [pool + 1]float64
	var active [pool + 1][]float64
	var obs [pool + 1]map[[2]int]int
	for c := range pool + 1 {
		active[c] = make([]float64, weeks+1)
		obs[c] = map[[2]int]int{}
	}
	for _, u := range early {
		for _, c := range []int{int(u.class), pool} {
			n[c]++
			for w, k := range u.per {
				if w < 1 || w > weeks || k == 0 {
					continue
				}
				active[c][w]++
				obs[c][[2]int{w + 1, k}]++
			}
		}
	}
	for c := range pool {
		m := mean * share[c]
		n[c] -= steady * m
		n[pool] -= steady * m
		for w := 1; w <= weeks; w++ {
			var e float64
			for a := 1; a <= min(w, SteadyWeek-1); a++ {
				e += m * (1 - p.Inactive(w-a+1, userclass.Class(c)))
			}
			active[c][w] -= e
			active[pool][w] -= e
		}
	}
	if n[pool] < MinClassUsers || weeks < 3 {
		return in, ss, []string{fmt.Sprintf("start-up users: %.1f users active at start-up (fewer than %d): the thesis' start-up activity (Eqs. 16-17) kept", n[pool], MinClassUsers)}, false
	}
	sp := p.SessionsPerWeek
	sp.FirstWeek = false
	line := func(c int) (InactivityLine, GPDLine, bool) {
		var sx, sy, sxx, sxy, k float64
		for w := 1; w <= weeks; w++ {
			x := math.Log(float64(w + 1))
			y := math.Min(1, math.Max(0, 1-active[c][w]/n[c]))
			sx += x
			sy += y
			sxx += x * x
			sxy += x * y
			k++
		}
		den := k*sxx - sx*sx
		if den <= 0 {
			return InactivityLine{}, GPDLine{}, false
		}
		a := (k*sxy - sx*sy) / den
		l := InactivityLine{A: a, B: (sy - a*sx) / k}
		var o []gpdObs
		for key, m := range obs[c] {
			o = append(o, gpdObs{woa: key[0], n: key[1], count: m})
		}
		sortObs(o)
		start := p.SessionsPerWeek.Class[0]
		if c < pool {
			start = p.SessionsPerWeek.Class[c]
		}
		g := fitGPD(o, sp, start)
		g.FirstK, g.FirstSigma = 0, 0
		return l, g, true
	}
	pl, pg, pok := line(pool)
	if !pok {
		return in, ss, []string{"start-up users: too few weeks to fit their activity: the thesis' start-up activity (Eqs. 16-17) kept"}, false
	}
	for c := range pool {
		in[c], ss[c] = pl, pg
		if n[c] < MinClassUsers {
			notes = append(notes, fmt.Sprintf("start-up users: %.1f %s users active at start-up (fewer than %d): the activity of all start-up users pooled", math.Max(n[c], 0), userclass.Class(c), MinClassUsers))
			continue
		}
		if l, g, ok := line(c); ok {
			in[c], ss[c] = l, g
		}
	}
	return in, ss, notes, true
}
