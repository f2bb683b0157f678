package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/hpcwl/hpcwl/gen/estimate"
	"github.com/hpcwl/hpcwl/gen/lublin"
	"github.com/hpcwl/hpcwl/internal/inputlimit"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/spf13/cobra"
)

func init() { register(newGenerateCommand) }

func newGenerateCommand(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "generate MODEL",
		Short: "Generate a synthetic workload from a model",
		Long:  `Generate writes a synthetic workload drawn from a workload model.` + exitStatusHelp,
		Example: `  hpcwl generate lublin --procs 256 --count 10000 --seed 1 -o lublin.swf
  hpcwl generate lublin --params kth-params.json --duration 30d -o month.swf
  hpcwl generate talby --weeks 52 -o talby.swf
  hpcwl generate downey --count 10000 --offered-load 0.7 -o downey.swf`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("generate needs a MODEL; available: lublin, minh, talby, downey")
			}
			return usagef("unknown model %q; available: lublin, minh, talby, downey", args[0])
		},
		RunE: action(func(*cobra.Command, []string) error { return nil }),
	}
	cmd.AddCommand(newGenerateLublinCommand(stdout, stderr))
	cmd.AddCommand(newGenerateMinhCommand(stdout, stderr))
	cmd.AddCommand(newGenerateTalbyCommand(stdout, stderr))
	cmd.AddCommand(newGenerateDowneyCommand(stdout, stderr))
	return cmd
}

// generateLublinOptions are the options of `hpcwl generate lublin`.
type generateLublinOptions struct {
	params    string
	mode      string
	jobs      int
	duration  string
	procs     int
	load      float64
	ownRate   bool
	erlang    bool
	arrivals  string
	estimates string
	maxEst    string
	users     int
	userAlpha float64
	seed      uint64
	startHour float64
	out       string
	to        string
}

func newGenerateLublinCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts generateLublinOptions
	cmd := &cobra.Command{
		Use:   "lublin",
		Short: "Generate jobs from the Lublin-Feitelson model",
		Long: `Generate lublin draws rigid jobs from the Lublin-Feitelson model (JPDC 2003)
as its reference program does: sizes from a serial probability, a two-stage
uniform on log2 size and power-of-two rounding; runtimes from a hyper-Gamma
whose mixing weight depends on the size; arrivals from a Gamma with a daily
cycle. The default parameters are the published ones ("whole" mode, or
"typed" batch + interactive); --params reads a JSON file as written by
"hpcwl fit lublin -o", which may also be edited by hand.

--procs scales the model to a machine of that size; no job is wider than the
machine, whatever its size (a size drawn above it is drawn again). --offered-load
calibrates the arrival rate to a target offered load. Parameters fitted to a
log carry its arrival rate and offered load: by default the arrival rate is
calibrated to the log's (--own-rate keeps the fitted arrival parameters' own),
and both the expected rate and load are reported next to the log's.

--hyper-erlang replaces the runtime hyper-Gamma by the hyper-Erlang the paper
suggests as a cheaper equivalent: each Gamma shape rounded to an integer, its
scale changed to keep the mean.

--arrivals expected-interarrival uses the paper's method 1 of combining
interarrivals with the daily cycle instead of its chosen method 3 (slot
weights): the Gamma scale of the next interarrival depends on the slot of the
last arrival. It keeps the parameters' own rate (no --offered-load; with a
fitted parameter file, --own-rate).

--estimates tsafrir gives every job a requested time from the model of user
runtime estimates of Tsafrir, Etsion and Feitelson (JSSPP 2005): a few round,
popular values, the maximum (--max-estimate) the most popular, never below the
job's runtime; --users N assigns Zipf-distributed user IDs. With both, the log
runs under EASY with realistic estimates and feeds sessions and evaluate.

The same options and seed always give the same jobs. The output header records
the model, parameters and seed.` + exitStatusHelp,
		Example: `  hpcwl generate lublin --procs 256 --count 10000 -o lublin.swf
  hpcwl generate lublin --mode typed --offered-load 0.8 --seed 3 -o typed.swf.gz
  hpcwl generate lublin --params kth-params.json --count 20000 -o kth-model.swf
  hpcwl generate lublin --hyper-erlang --count 20000 -o erlang.swf
  hpcwl generate lublin --arrivals expected-interarrival --count 20000 -o method1.swf
  hpcwl generate lublin --count 20000 --estimates tsafrir --users 100 -o with-estimates.swf`,
		Args: exactArgs(0, "no arguments"),
		RunE: action(func(*cobra.Command, []string) error {
			return runGenerateLublin(opts, stdout, stderr)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.params, "params", "", "parameter file (JSON); default: the published parameters")
	f.StringVar(&opts.mode, "mode", "whole", `parameter set when --params is not given: "whole" or "typed"`)
	f.IntVar(&opts.jobs, "count", 0, fmt.Sprintf("number of jobs (default %d unless --duration is given)", lublin.DefaultJobs))
	// --jobs and --load, the earlier names, name a file (simulate, evaluate)
	// and a load factor (resample, replicate) elsewhere.
	f.IntVar(&opts.jobs, "jobs", 0, "number of jobs (deprecated: use --count)")
	deprecate(cmd, "jobs", "use --count (--jobs names a per-job results file in simulate and evaluate)")
	f.StringVar(&opts.duration, "duration", "", "stop after this much time (90m, 12h, 30d, 4w)")
	f.IntVar(&opts.procs, "procs", 0, "machine size to scale the model to (default: the parameters' own, 128 for the published sets)")
	f.Float64Var(&opts.load, "offered-load", 0, "target offered load, e.g. 0.7 (default: the fitted log's arrival rate when --params holds one, else the parameters' own)")
	f.Float64Var(&opts.load, "load", 0, "target offered load (deprecated: use --offered-load)")
	deprecate(cmd, "load", "use --offered-load (--load is a load factor in resample and replicate)")
	f.BoolVar(&opts.ownRate, "own-rate", false, "keep the arrival parameters' own rate, not the fitted log's")
	f.StringVar(&opts.arrivals, "arrivals", string(lublin.SlotWeight), "how interarrivals follow the daily cycle: slot-weight (the paper's method 3) or expected-interarrival (method 1)")
	f.BoolVar(&opts.erlang, "hyper-erlang", false, "draw runtimes from a hyper-Erlang: Gamma shapes rounded to integers, means kept (Lublin and Feitelson 2003, section 5.2)")
	f.StringVar(&opts.estimates, "estimates", "none", "requested times (field 9): none (-1), or tsafrir (the model of Tsafrir, Etsion and Feitelson 2005)")
	f.StringVar(&opts.maxEst, "max-estimate", "", "with --estimates tsafrir: the largest requested time, e.g. 18h, 2d (default: the longest runtime rounded up to an hour)")
	f.IntVar(&opts.users, "users", 0, "give jobs user IDs 1..N drawn from a Zipf distribution (default: no users, field 12 = -1)")
	f.Float64Var(&opts.userAlpha, "user-alpha", 1, "with --users: the Zipf exponent of the users' job counts")
	f.Uint64Var(&opts.seed, "seed", 1, "random seed")
	f.Float64Var(&opts.startHour, "start-hour", 0, "local time of day of time 0, in hours [0, 24)")
	f.StringVarP(&opts.out, "output", "o", "-", "output file (.swf, .csv, .json, optionally .gz; .parquet); - for stdout")
	f.StringVar(&opts.to, "to", "", "output format: swf, csv, batsim or parquet (default: from the extension)")
	addBatsimVersionFlag(cmd)
	positiveFlags(cmd, "count", "jobs", "duration", "procs", "offered-load", "load", "max-estimate", "users", "user-alpha")
	return cmd
}

func runGenerateLublin(opts generateLublinOptions, stdout, stderr io.Writer) error {
	cfg := lublin.Config{Jobs: opts.jobs, Procs: opts.procs, Load: opts.load, OwnRate: opts.ownRate, Seed: opts.seed, StartHour: opts.startHour, HyperErlang: opts.erlang, Arrivals: lublin.ArrivalMethod(opts.arrivals)}
	switch {
	case opts.jobs < 0:
		return usagef("--count must be positive, got %d", opts.jobs)
	case opts.procs < 0:
		return usagef("--procs must be positive, got %d", opts.procs)
	case opts.load < 0:
		return usagef("--offered-load must be positive, got %g", opts.load)
	case opts.startHour < 0 || opts.startHour >= 24:
		return usagef("--start-hour must be in [0, 24), got %g", opts.startHour)
	}
	if m := lublin.ArrivalMethod(opts.arrivals); !slices.Contains(lublin.ArrivalMethods, m) {
		return usagef("unknown --arrivals %q; valid: %v", opts.arrivals, lublin.ArrivalMethods)
	}
	if opts.arrivals != string(lublin.SlotWeight) && opts.load > 0 {
		return usagef("--arrivals %s keeps the parameters' own arrival rate; it cannot be combined with --offered-load", opts.arrivals)
	}
	maxEst, err := estimateFlags(opts.estimates, opts.maxEst)
	if err != nil {
		return err
	}
	if opts.users < 0 || !(opts.userAlpha > 0) {
		return usagef("--users must be positive and --user-alpha above 0")
	}
	if opts.duration != "" {
		d, err := parseSeconds(opts.duration)
		if err != nil {
			return usagef("--duration: %v", err)
		}
		cfg.Duration = int64(d)
	}
	if opts.params != "" {
		data, err := inputlimit.ReadFile(opts.params, inputlimit.MaxParamFile)
		if err != nil {
			return err
		}
		cfg.Params, err = lublin.ReadParams(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("%s: %w", opts.params, err)
		}
		sum := sha256.Sum256(data)
		runInputs = append(runInputs, inputRecord{Name: opts.params, SHA256: hex.EncodeToString(sum[:])})
	} else {
		switch lublin.Mode(opts.mode) {
		case lublin.Whole, lublin.Typed:
			cfg.Params = lublin.DefaultParams(lublin.Mode(opts.mode))
		default:
			return usagef(`--mode must be "whole" or "typed", got %q`, opts.mode)
		}
	}
	if opts.arrivals != string(lublin.SlotWeight) && cfg.Params.Target != nil && !opts.ownRate {
		return usagef("--arrivals %s keeps the parameters' own arrival rate; %s holds a fitted log's rate: add --own-rate", opts.arrivals, opts.params)
	}
	if _, err := outputFormat(opts.out, opts.to); err != nil {
		return err
	}
	if err := checkOutputs([]string{opts.params}, output{"-o", opts.out}); err != nil {
		return err
	}
	g, err := lublin.New(cfg)
	if err != nil {
		return err
	}
	// Requested times and users come from streams of their own, so that
	// they leave the jobs of a seed unchanged. The estimate model hands its
	// values out over the whole run (longest jobs first): a first run of
	// the generator gives it the runtimes, the second writes the jobs.
	var est []int64
	var estNote string
	if opts.estimates == "tsafrir" {
		first, err := lublin.New(cfg)
		if err != nil {
			return err
		}
		var run []int64
		if _, err := first.Stream(trace.JobWriterFunc(func(j *trace.Job) error {
			run = append(run, j.Runtime)
			return nil
		})); err != nil {
			return err
		}
		if len(run) > 0 {
			if est, estNote, err = tsafrirEstimates(run, maxEst, opts.seed, stderr); err != nil {
				return err
			}
		}
	}
	var users *lublin.Users
	if opts.users > 0 {
		if users, err = lublin.NewUsers(opts.users, opts.userAlpha, rand.New(rand.NewPCG(opts.seed, 0x7573657273))); err != nil {
			return usageError{err}
		}
	}
	header := func(n int) swf.Header {
		h := g.Header(n)
		if estNote != "" {
			h.AddNote(estNote)
		}
		if users != nil && n > 0 {
			h.AddNote(fmt.Sprintf("Users: IDs 1..%d drawn per job from a Zipf distribution of exponent %g", opts.users, opts.userAlpha))
		}
		h.Add("Note", fmt.Sprintf("generated by hpcwl %s: generate lublin --seed %d", version.String(), opts.seed))
		return h
	}
	rate, load := g.Expected()
	if opts.arrivals != string(lublin.SlotWeight) {
		fmt.Fprintf(stderr, "arrival rate and offered load: not predicted for --arrivals %s\n", opts.arrivals)
	} else if tg := cfg.Params.Target; tg != nil {
		fmt.Fprintf(stderr, "arrival rate: %.1f jobs/week expected, fitted log %.1f; offered load: %.3f expected, fitted log %.3f\n",
			7*rate, 7*tg.JobsPerDay, load, tg.OfferedLoad)
		if opts.procs == 0 && opts.load == 0 && !opts.ownRate && math.Abs(load-tg.OfferedLoad) > 0.1*tg.OfferedLoad {
			fmt.Fprintf(stderr, "warning: at the log's arrival rate the model offers a load %.0f%% off the log's (its job sizes and runtimes differ); --offered-load %.3f calibrates the load instead\n",
				100*(load-tg.OfferedLoad)/tg.OfferedLoad, tg.OfferedLoad)
		}
	} else {
		fmt.Fprintf(stderr, "arrival rate: %.1f jobs/week expected; offered load: %.3f expected\n", 7*rate, load)
	}
	h0 := g.Header(0)
	procs, _ := h0.MaxProcs()
	out, err := createTraceOutput(opts.out, opts.to, stdout, traceSource{procs: int(procs)})
	if err != nil {
		return err
	}
	defer out.abort()
	// The header counts the jobs: known before them unless a duration
	// ends the run (then the jobs wait in a scratch file).
	if est != nil || opts.duration == "" {
		n := cfg.Jobs
		if n == 0 {
			n = lublin.DefaultJobs
		}
		if est != nil {
			n = len(est)
		}
		if err := out.setHeader(header(n)); err != nil {
			return err
		}
	}
	n, err := g.Stream(trace.JobWriterFunc(func(j *trace.Job) error {
		if est != nil {
			j.ReqTime = est[j.ID-1]
		}
		if users != nil {
			j.User = users.Next()
		}
		return out.WriteJob(j)
	}))
	if err != nil {
		return err
	}
	if err := finishGenerated(out, header(n), opts.duration); err != nil {
		return err
	}
	if opts.out != "-" {
		fmt.Fprintf(stderr, "wrote %d jobs to %s\n", n, opts.out)
	}
	return nil
}

// swfTrace builds a trace from SWF records.
func swfTrace(h swf.Header, jobs []swf.Job) (*trace.Trace, error) {
	tj := make([]trace.Job, len(jobs))
	for i := range jobs {
		j, err := trace.FromSWF(&jobs[i])
		if err != nil {
			return nil, fmt.Errorf("job %d: %w", jobs[i].ID, err)
		}
		tj[i] = j
	}
	return trace.New(h, tj, trace.Options{}), nil
}

// estimateFlags checks --estimates and --max-estimate of the generators
// and returns the largest estimate in seconds (0: the model's own).
func estimateFlags(estimates, maxEstimate string) (int64, error) {
	switch estimates {
	case "none", "tsafrir":
	default:
		return 0, usagef("unknown --estimates %q; valid: none, tsafrir", estimates)
	}
	if maxEstimate == "" {
		return 0, nil
	}
	if estimates != "tsafrir" {
		return 0, usagef("--max-estimate needs --estimates tsafrir")
	}
	d, err := parseSeconds(maxEstimate)
	if err != nil {
		return 0, usagef("--max-estimate: %v", err)
	}
	if d < 3600 {
		return 0, usagef("--max-estimate %s: the model needs at least 1h", maxEstimate)
	}
	return int64(d), nil
}

// tsafrirEstimates gives the jobs of the given runtimes requested times from
// the model of Tsafrir, Etsion and Feitelson, from a random stream of their
// own (so that the jobs drawn for a seed do not change), and returns them
// with the header note that records them; it warns on stderr when jobs run
// longer than their estimate.
func tsafrirEstimates(run []int64, maxEst int64, seed uint64, stderr io.Writer) ([]int64, string, error) {
	est, over, used, err := estimate.Model(run, maxEst, rand.New(rand.NewPCG(seed, 0x747366723035)))
	if err != nil {
		return nil, "", err
	}
	if over > 0 {
		fmt.Fprintf(stderr, "warning: %d jobs run longer than the requested time the model gave them (raise --max-estimate)\n", over)
	}
	return est, fmt.Sprintf("Estimates: requested times from the model of Tsafrir, Etsion & Feitelson (JSSPP 2005), maximum %d s; %d jobs run longer than their estimate", used, over), nil
}

// finishGenerated completes a generated workload written as it was drawn:
// the header h, if no job has set it yet (the header is known only at the
// end when the run is bounded by --duration), then the output; a run in
// which no job arrived within the duration says so.
func finishGenerated(out *traceOutput, h swf.Header, duration string) error {
	if out.header == nil {
		if err := out.setHeader(h); err != nil {
			return err
		}
	}
	if err := out.finish(""); err != nil {
		if errors.Is(err, errNoJobs) {
			return fmt.Errorf("%w (no job arrives within --duration %s)", err, duration)
		}
		return err
	}
	return nil
}
