package sched

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/hpcwl/hpcwl/sim"
)

// Options tune the schedulers that plan with runtime predictions.
type Options struct {
	// EstimateFactor multiplies the predictions used for reservations and
	// backfilling decisions (EASY, SJBF, conservative), as in "EASY with
	// doubled estimates" (spec talby section 11.2). The kill time stays the
	// requested time. 0 means 1 (2 for "easy-x2"); it must be >= 1.
	EstimateFactor float64
}

// Factory builds a fresh scheduler for one run.
type Factory func(o Options) sim.Scheduler

type entry struct {
	factory       Factory
	usesEstimates bool
	about         string
}

var registry = map[string]entry{
	"fcfs":         {func(Options) sim.Scheduler { return NewFCFS() }, false, "first come first served, no backfilling"},
	"easy":         {func(o Options) sim.Scheduler { return NewEASY(o.EstimateFactor) }, true, "EASY backfilling: reservation for the oldest waiting job only"},
	"easy-x2":      {func(o Options) sim.Scheduler { return NewEASY(orDefault(o.EstimateFactor, 2)) }, true, "EASY with doubled estimates"},
	"conservative": {func(o Options) sim.Scheduler { return NewConservative(o.EstimateFactor) }, true, "conservative backfilling: a reservation for every waiting job"},
	"sjf":          {func(Options) sim.Scheduler { return NewSJF() }, false, "shortest (predicted) job first, no backfilling"},
	"sjbf":         {func(o Options) sim.Scheduler { return NewSJBF(o.EstimateFactor) }, true, "EASY with predictions and shortest-first backfilling"},
	"ups":          {func(Options) sim.Scheduler { return NewUPS(0.5, ByLoad) }, false, "User Priority Scheduler, load-based, alpha_user 0.5"},
	"ups-recency":  {func(Options) sim.Scheduler { return NewUPS(0.5, ByRecency) }, false, "User Priority Scheduler, recency-based, alpha_user 0.5"},
}

func orDefault(f, d float64) float64 {
	if f == 0 {
		return d
	}
	return f
}

// Names returns the registered scheduler names, sorted.
func Names() []string {
	ns := make([]string, 0, len(registry))
	for n := range registry {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Describe returns a one-line description of the named scheduler, or "".
func Describe(name string) string { return registry[strings.ToLower(name)].about }

// New returns a new scheduler by name (case-insensitive), with default
// options. An unknown name gives an error listing the valid ones.
func New(name string) (sim.Scheduler, error) { return NewWithOptions(name, Options{}) }

// NewWithOptions returns a new scheduler by name with options o.
func NewWithOptions(name string, o Options) (sim.Scheduler, error) {
	e, ok := registry[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("unknown scheduler %q; valid: %s", name, strings.Join(Names(), ", "))
	}
	if o.EstimateFactor != 0 {
		if !e.usesEstimates {
			return nil, fmt.Errorf("scheduler %s does not plan with estimates, so an estimate factor does not apply; it applies to: %s",
				name, strings.Join(estimateUsers(), ", "))
		}
		if o.EstimateFactor < 1 || math.IsInf(o.EstimateFactor, 0) || math.IsNaN(o.EstimateFactor) {
			return nil, fmt.Errorf("estimate factor %v: must be >= 1", o.EstimateFactor)
		}
	}
	return e.factory(o), nil
}

func estimateUsers() []string {
	var ns []string
	for _, n := range Names() {
		if registry[n].usesEstimates {
			ns = append(ns, n)
		}
	}
	return ns
}
