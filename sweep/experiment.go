// Package sweep runs a declared grid of simulations, an experiment, and
// keeps one tidy row of results per run in a SQLite database, so that a
// sweep that is stopped can resume where it stopped with nothing lost or
// run twice.
//
// An experiment names the logs, the schedulers, node speeds, machine size
// factors, load factors, replays (rigid or a feedback user model) and how
// many resampled variants of each log to simulate; every combination is one
// run. Variant 0 is the log itself; variants 1..N are user-level resamplings
// of it (Zakay and Feitelson), the same for every scheduler, so that the
// schedulers are compared on the same workloads. The load factor is applied
// by the resampling (it scales the number of users), the method that keeps
// sessions and the daily cycle, so load factors other than 1 need variants.
package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hpcwl/hpcwl/feedback"
	"github.com/hpcwl/hpcwl/internal/inputlimit"
	"github.com/hpcwl/hpcwl/sched"
)

// Experiment is a grid of simulation runs, as read from a YAML file:
//
//	name: easy-vs-fcfs
//	logs: [builtin:KTH-SP2, SDSC-SP2-1998-4.2-cln.swf.gz]
//	schedulers: [fcfs, easy, conservative]
//	speeds: [1, 0.5]          # node speed factors; default [1]
//	procs_factors: [1]        # machine size factors; default [1]
//	loads: [1, 1.2]           # load factors, by user-level resampling; default [1]
//	replays: [rigid, madon]   # rigid, or a feedback user model; default [rigid]
//	variants: 10              # resampled variants per log and load; default 0 (the logs only)
//	seed: 1                   # seed of the resampling; default 1
//	kill: false               # kill jobs at their requested time
type Experiment struct {
	Name         string    `yaml:"name"`
	Logs         []string  `yaml:"logs"`
	Schedulers   []string  `yaml:"schedulers"`
	Speeds       []float64 `yaml:"speeds"`
	ProcsFactors []float64 `yaml:"procs_factors"`
	Loads        []float64 `yaml:"loads"`
	Replays      []string  `yaml:"replays"`
	Variants     int       `yaml:"variants"`
	Seed         uint64    `yaml:"seed"`
	Kill         bool      `yaml:"kill"`

	// Source is the file's text, and Hash its SHA-256: a results database
	// belongs to one experiment.
	Source []byte `yaml:"-"`
	Hash   string `yaml:"-"`
}

// Run is one point of the grid.
type Run struct {
	Log         string
	Variant     int // 0: the log itself; 1..N: resampled variants
	Load        float64
	Scheduler   string
	Speed       float64
	ProcsFactor float64
	Replay      string
}

// Key identifies the run in the results: its coordinates as text.
func (r Run) Key() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return strings.Join([]string{r.Log, strconv.Itoa(r.Variant), f(r.Load), r.Scheduler, f(r.Speed), f(r.ProcsFactor), r.Replay}, "|")
}

// ErrExperiment wraps the errors of an experiment file.
var ErrExperiment = errors.New("experiment")

// maxRuns bounds the grid: a typo in a list should not start a billion runs.
const maxRuns = 10_000_000

// Read reads and checks an experiment file; errors name the file and, where
// the YAML parser gives it, the line.
func Read(r io.Reader, name string) (*Experiment, error) {
	data, err := io.ReadAll(io.LimitReader(inputlimit.Lines(r, name, inputlimit.MaxLine), inputlimit.MaxParamFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > inputlimit.MaxParamFile {
		return nil, fmt.Errorf("%s: larger than %d bytes: %w", name, inputlimit.MaxParamFile, inputlimit.ErrTooLong)
	}
	var e Experiment
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&e); err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("%w %s: empty file", ErrExperiment, name)
		}
		return nil, fmt.Errorf("%w %s: %v", ErrExperiment, name, err)
	}
	e.Source = data
	sum := sha256.Sum256(data)
	e.Hash = hex.EncodeToString(sum[:])
	if err := e.check(); err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrExperiment, name, err)
	}
	return &e, nil
}

func (e *Experiment) check() error {
	if len(e.Logs) == 0 {
		return errors.New("logs: at least one log is needed")
	}
	if len(e.Schedulers) == 0 {
		return errors.New("schedulers: at least one scheduler is needed")
	}
	for _, s := range e.Schedulers {
		if sched.Describe(s) == "" {
			return fmt.Errorf("schedulers: unknown scheduler %q; valid: %s", s, strings.Join(sched.Names(), ", "))
		}
	}
	if len(e.Speeds) == 0 {
		e.Speeds = []float64{1}
	}
	if len(e.ProcsFactors) == 0 {
		e.ProcsFactors = []float64{1}
	}
	if len(e.Loads) == 0 {
		e.Loads = []float64{1}
	}
	if len(e.Replays) == 0 {
		e.Replays = []string{"rigid"}
	}
	for _, l := range []struct {
		name string
		v    []float64
	}{{"speeds", e.Speeds}, {"procs_factors", e.ProcsFactors}, {"loads", e.Loads}} {
		for _, x := range l.v {
			if !(x > 0) || math.IsInf(x, 0) {
				return fmt.Errorf("%s: %v must be a number > 0", l.name, x)
			}
		}
	}
	for _, r := range e.Replays {
		if r == "rigid" {
			continue
		}
		if _, err := feedback.ParseModel(r); err != nil {
			return fmt.Errorf("replays: %q: rigid, or a feedback user model: %v", r, err)
		}
	}
	if e.Variants < 0 {
		return fmt.Errorf("variants: %d must be >= 0", e.Variants)
	}
	if e.Variants == 0 {
		for _, l := range e.Loads {
			if l != 1 {
				return fmt.Errorf("loads: %v: load factors are applied by resampling the users, so they need variants >= 1", l)
			}
		}
	}
	if e.Seed == 0 {
		e.Seed = 1
	}
	if n := e.NumRuns(); n > maxRuns {
		return fmt.Errorf("%d runs: more than %d", n, maxRuns)
	}
	return nil
}

// NumRuns returns the number of runs of the grid.
func (e *Experiment) NumRuns() int {
	n := len(e.Logs) * len(e.Schedulers) * len(e.Speeds) * len(e.ProcsFactors) * len(e.Replays)
	if e.Variants == 0 {
		return n
	}
	return n * len(e.Loads) * e.Variants
}

// Runs lists every run of the grid, log by log and variant by variant, so
// that the runs of one workload follow each other.
func (e *Experiment) Runs() []Run {
	var runs []Run
	for _, log := range e.Logs {
		loads, first, last := e.Loads, 1, e.Variants
		if e.Variants == 0 {
			loads, first, last = []float64{1}, 0, 0
		}
		for _, load := range loads {
			for v := first; v <= last; v++ {
				for _, replay := range e.Replays {
					for _, speed := range e.Speeds {
						for _, pf := range e.ProcsFactors {
							for _, s := range e.Schedulers {
								runs = append(runs, Run{Log: log, Variant: v, Load: load, Scheduler: strings.ToLower(s),
									Speed: speed, ProcsFactor: pf, Replay: replay})
							}
						}
					}
				}
			}
		}
	}
	return runs
}
