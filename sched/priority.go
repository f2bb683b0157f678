package sched

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// A queue priority function ranks the waiting jobs for EASY backfilling
// with a priority order (see [NewEASYPriority]): the first job in that
// order that does not fit gets the reservation, and the others are
// backfilled in that order. Each function sees, for a waiting job, its
// wait w = now - submit (seconds), its planned time r (the runtime
// prediction, by default the requested time, times the estimate factor; at
// least 1 s), its processor count n and its submit time s (seconds since
// the start of the log, at least 1 s). A function gives a tier and a score:
// lower tiers come first, then higher scores; ties go to the older job.
type queuePriority struct {
	about string
	rank  func(w, r, n, s float64) (tier int, score float64)
}

// queuePriorities are the priority functions of the learning-based
// scheduling literature's baselines.
var queuePriorities = map[string]queuePriority{
	// First come, first served: EASY's own order (Lifka 1995).
	"fcfs": {"first come first served (plain EASY)", func(_, _, _, s float64) (int, float64) { return 0, -s }},
	// WFP3 (Tang, Lan, Desai, Buettner and Yu, "Fault-aware,
	// utility-based job scheduling on Blue Gene/P systems", IEEE Cluster
	// 2009): priority (w/r)^3 * n, largest first; one of the baselines of
	// Carastan-Santos and de Camargo (SC 2017).
	"wfp3": {"WFP3: largest (w/r)^3 * n first (Tang et al. 2009)", func(w, r, n, _ float64) (int, float64) {
		q := w / r
		return 0, q * q * q * n
	}},
	// UNICEP (Tang et al. 2009, as above): priority w / (log2(n) * r),
	// largest first. For a serial job log2(1) = 0 makes the priority
	// unbounded: serial jobs come before all parallel ones, among
	// themselves by w / r (the limit of the formula as log2(n) tends to 0,
	// which is what implementations adding a tiny epsilon to the
	// denominator compute).
	"unicep": {"UNICEP: largest w / (log2(n) * r) first, serial jobs first (Tang et al. 2009)", func(w, r, n, _ float64) (int, float64) {
		if n <= 1 {
			return 0, w / r
		}
		return 1, w / (math.Log2(n) * r)
	}},
	// F1 (Carastan-Santos and de Camargo, "Obtaining dynamic scheduling
	// policies with simulation and machine learning", SC 2017): the best
	// of the four nonlinear policies they learned, score
	// log10(r) * n + 870 * log10(s), smallest first.
	"f1": {"F1: smallest log10(r) * n + 870 * log10(s) first (Carastan-Santos and de Camargo 2017)", func(_, r, n, s float64) (int, float64) {
		return 0, -(math.Log10(r)*n + 870*math.Log10(s))
	}},
	// Smallest area first: smallest r * n first, one of the baselines of
	// Carastan-Santos and de Camargo (SC 2017).
	"saf": {"smallest area first: smallest r * n first", func(_, r, n, _ float64) (int, float64) { return 0, -r * n }},
	// Shortest job first: smallest planned time r first (the classic SJF
	// order, here under EASY; Carastan-Santos and de Camargo 2017's SPF
	// baseline).
	"sjf": {"shortest job first: smallest r first", func(_, r, _, _ float64) (int, float64) { return 0, -r }},
	// Largest job first: most processors n first, the counterpart by size
	// of shortest job first; it favours the wide jobs that backfilling
	// delays most.
	"ljf": {"largest job first: most processors n first", func(_, _, n, _ float64) (int, float64) { return 0, n }},
}

// PriorityNames returns the names of the queue priority functions EASY
// accepts (its "priority" parameter), sorted.
func PriorityNames() []string {
	ns := make([]string, 0, len(queuePriorities))
	for n := range queuePriorities {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// DescribePriority returns a one-line description of the named queue
// priority function, or "".
func DescribePriority(name string) string { return queuePriorities[strings.ToLower(name)].about }

// NewEASYPriority returns EASY backfilling with the waiting queue ordered
// by the named priority function (see [PriorityNames]) instead of by
// arrival, recomputed at every scheduling pass: jobs start in priority
// order while the first fits, the first that does not fit gets the only
// reservation (its shadow time, with the extra processors of every job
// ending then), and every other waiting job is backfilled first fit in
// priority order if it ends by the shadow time or fits in the extra
// processors. This is Maui's design (see [Maui]) with another priority;
// "fcfs" gives plain EASY. Factor is the estimate factor (0 or 1: none).
func NewEASYPriority(name string, factor float64) (*Maui, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	p, ok := queuePriorities[name]
	if !ok {
		return nil, fmt.Errorf("unknown queue priority %q; valid: %s", name, strings.Join(PriorityNames(), ", "))
	}
	s := NewMaui(1, 0, factor)
	if name != "fcfs" {
		s.name = "easy-" + name
		s.rank = p.rank
	}
	return s, nil
}
