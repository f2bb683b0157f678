package main

import (
	"fmt"
	"io"
	"os"

	"github.com/hpcwl/hpcwl/gen/lublin"
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
		Example: `  hpcwl generate lublin --procs 256 --jobs 10000 --seed 1 -o lublin.swf
  hpcwl generate lublin --params kth-params.json --duration 30d -o month.swf`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("generate needs a MODEL; available: lublin")
			}
			return usagef("unknown model %q; available: lublin", args[0])
		},
		RunE: action(func(*cobra.Command, []string) error { return nil }),
	}
	cmd.AddCommand(newGenerateLublinCommand(stdout, stderr))
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

--procs scales the model to a machine of that size; --load calibrates the
arrival rate to a target offered load. The same options and seed always give
the same jobs. The output header records the model, parameters and seed.` + exitStatusHelp,
		Example: `  hpcwl generate lublin --procs 256 --jobs 10000 -o lublin.swf
  hpcwl generate lublin --mode typed --load 0.8 --seed 3 -o typed.swf.gz
  hpcwl generate lublin --params kth-params.json --jobs 20000 -o kth-model.swf`,
		Args: exactArgs(0, "no arguments"),
		RunE: action(func(*cobra.Command, []string) error {
			return runGenerateLublin(opts, stdout, stderr)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.params, "params", "", "parameter file (JSON); default: the published parameters")
	f.StringVar(&opts.mode, "mode", "whole", `parameter set when --params is not given: "whole" or "typed"`)
	f.IntVar(&opts.jobs, "jobs", 0, fmt.Sprintf("number of jobs (default %d unless --duration is given)", lublin.DefaultJobs))
	f.StringVar(&opts.duration, "duration", "", "stop after this much time (90m, 12h, 30d, 4w)")
	f.IntVar(&opts.procs, "procs", 0, "machine size to scale the model to (default: the parameters' own, 128 for the published sets)")
	f.Float64Var(&opts.load, "load", 0, "target offered load, e.g. 0.7 (default: the parameters' own)")
	f.Uint64Var(&opts.seed, "seed", 1, "random seed")
	f.Float64Var(&opts.startHour, "start-hour", 0, "local time of day of time 0, in hours [0, 24)")
	f.StringVarP(&opts.out, "output", "o", "-", "output file (.swf, .csv, .json, optionally .gz; .parquet); - for stdout")
	f.StringVar(&opts.to, "to", "", "output format: swf, csv, batsim or parquet (default: from the extension)")
	return cmd
}

func runGenerateLublin(opts generateLublinOptions, stdout, stderr io.Writer) error {
	cfg := lublin.Config{Jobs: opts.jobs, Procs: opts.procs, Load: opts.load, Seed: opts.seed, StartHour: opts.startHour}
	switch {
	case opts.jobs < 0:
		return usagef("--jobs must be positive, got %d", opts.jobs)
	case opts.procs < 0:
		return usagef("--procs must be positive, got %d", opts.procs)
	case opts.load < 0:
		return usagef("--load must be positive, got %g", opts.load)
	case opts.startHour < 0 || opts.startHour >= 24:
		return usagef("--start-hour must be in [0, 24), got %g", opts.startHour)
	}
	if opts.duration != "" {
		d, err := parseSeconds(opts.duration)
		if err != nil {
			return usagef("--duration: %v", err)
		}
		cfg.Duration = int64(d)
	}
	if opts.params != "" {
		f, err := os.Open(opts.params)
		if err != nil {
			return err
		}
		cfg.Params, err = lublin.ReadParams(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", opts.params, err)
		}
	} else {
		switch lublin.Mode(opts.mode) {
		case lublin.Whole, lublin.Typed:
			cfg.Params = lublin.DefaultParams(lublin.Mode(opts.mode))
		default:
			return usagef(`--mode must be "whole" or "typed", got %q`, opts.mode)
		}
	}
	if _, err := outputFormat(opts.out, opts.to); err != nil {
		return err
	}
	h, jobs, err := lublin.Generate(cfg)
	if err != nil {
		return err
	}
	h.Add("Note", fmt.Sprintf("generated by hpcwl %s: generate lublin --seed %d", version.String(), opts.seed))
	t, err := swfTrace(h, jobs)
	if err != nil {
		return err
	}
	if err := writeTrace(t, opts.out, opts.to, stdout); err != nil {
		return err
	}
	if opts.out != "-" {
		fmt.Fprintf(stderr, "wrote %d jobs to %s\n", len(jobs), opts.out)
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
