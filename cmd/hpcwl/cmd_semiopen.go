package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/semiopen"
)

func init() { register(newSemiopenCommand) }

func newSemiopenCommand(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "semiopen MODEL",
		Short: "Semi-open models of throughput: the mixed open/closed model and the re-open model (Zakay)",
		Long: `Semiopen computes Zakay and Feitelson's semi-open models of throughput
(Zakay's thesis, chapter 6), in which users react to the response time so that
the throughput is a result rather than an input:

  mixed   open users (rate --lambda, one job each) and --users closed users
          (think time --think) on one server, by mean value analysis, with the
          operational laws; --simulate checks it against hpcwl's own
          simulator with feedback
  reopen  users who arrive at rate --lambda and after each job submit another
          with probability --p (a constant, e^-r or Shmueli's), simulated
          on one FCFS server, with the runtime bias of "break" and "continue"
          jobs` + exitStatusHelp,
		Example: `  hpcwl semiopen mixed --lambda 0.3 --think 5
  hpcwl semiopen reopen --lambda 0.1,0.5,0.9 --p exp,shmueli`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("semiopen needs a MODEL; available: mixed, reopen")
			}
			return usagef("unknown model %q; available: mixed, reopen", args[0])
		},
		RunE: action(func(*cobra.Command, []string) error { return nil }),
	}
	cmd.AddCommand(newSemiopenMixedCommand(stdout, stderr))
	cmd.AddCommand(newSemiopenReopenCommand(stdout, stderr))
	return cmd
}

// parseList reads a comma-separated list of numbers for flag; each value
// must satisfy ok, whose range is described by valid.
func parseList(flag, s string, ok func(float64) bool, valid string) ([]float64, error) {
	var xs []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !ok(v) {
			return nil, usagef("--%s: %q is out of range; valid: %s", flag, strings.TrimSpace(f), valid)
		}
		xs = append(xs, v)
	}
	return xs, nil
}

// parseUsers reads a list of closed populations such as "1-10,15,20".
func parseUsers(s string) ([]int, error) {
	const valid = "whole numbers 1 to 100000, or ranges LO-HI, separated by commas (e.g. 1-10,15,20)"
	var ns []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		lo, hi, isRange := strings.Cut(f, "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 1 || b < a || b > 100000 || len(ns)+b-a >= 100000 {
			return nil, usagef("--users: %q is out of range; valid: %s", f, valid)
		}
		for n := a; n <= b; n++ {
			ns = append(ns, n)
		}
	}
	return ns, nil
}

// parameterError turns a model's parameter error into a usage error (exit
// status 2) naming the valid range.
func parameterError(err error) error {
	if errors.Is(err, semiopen.ErrParameter) {
		return usageError{err}
	}
	return err
}

// semiopenMixedOptions are the options of `hpcwl semiopen mixed`.
type semiopenMixedOptions struct {
	lambda, think, service float64
	users                  string
	simulate               bool
	horizon                float64
	unit                   int64
	seed                   uint64
	swf, to                string
	json                   bool
}

func newSemiopenMixedCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts semiopenMixedOptions
	cmd := &cobra.Command{
		Use:   "mixed",
		Short: "The mixed open/closed model by mean value analysis and operational laws",
		Long: `Mixed solves the mixed model of Zakay's thesis, chapter 6, section III: one
server; open users arrive at rate --lambda, submit one job and leave; N closed
users each submit a job, wait for it, think for --think on average, and submit
the next. All jobs have mean service demand --service (µ = 1/service). Times
are in any one unit; the thesis uses --service 1.

For each N of --users, the closed class is solved by exact mean value analysis
with its service time inflated by the open load, S_c = S/(1 - lambda S), and
the open class's response time is S_c (1 + Q_c). Printed per N: the closed
response time R_c and throughput X_c, the open response time R_o, the system
throughput X = lambda + X_c and utilization U = S X, the operational phase
(full beyond the knee N* = (µ - lambda)(Z + S_c), partial before it) and the
full-utilization law R_c = N/(µ - lambda) - Z, which MVA approaches as N grows.

--simulate checks each row against hpcwl's own simulator: the model is written
as a log of a one-processor machine (closed users as chains of jobs separated
by exponential think times, open users with one job each, exponential
runtimes; --unit seconds per time unit, --horizon time units long) and
replayed under FCFS with Zakay's Adjusted feedback, which makes each closed
user's next job arrive a think time after the previous one ends; throughput
and response times are measured from 10% of the horizon to the horizon.
--swf FILE writes that log for a single N, to be replayed by
"hpcwl evaluate FILE --scheduler fcfs --users adjusted".

Valid ranges: --service > 0, --think >= 0, 0 <= --lambda < 1/service,
--users 1 to 100000, --unit 1 to 86400 s, --horizon 10 to 1e7.` + exitStatusHelp,
		Example: `  hpcwl semiopen mixed --lambda 0.3 --think 5
  hpcwl semiopen mixed --lambda 0 --think 5 --users 1-20 --json
  hpcwl semiopen mixed --lambda 0.3 --users 2,5,10 --simulate
  hpcwl semiopen mixed --lambda 0.3 --users 5 --horizon 2000 --swf mixed5.swf`,
		Args: exactArgs(0, "no argument"),
		RunE: action(func(cmd *cobra.Command, _ []string) error {
			return runSemiopenMixed(cmd.Context(), opts, stdout, stderr)
		}),
	}
	f := cmd.Flags()
	f.Float64Var(&opts.lambda, "lambda", 0.3, "open arrival rate, jobs per time unit (0 <= lambda < 1/service)")
	f.Float64Var(&opts.think, "think", 5, "mean think time Z of the closed users (>= 0)")
	f.Float64Var(&opts.service, "service", 1, "mean service demand S = 1/µ (> 0)")
	f.StringVar(&opts.users, "users", "1-10,15,20", "closed populations N: numbers and ranges LO-HI, separated by commas")
	f.BoolVar(&opts.simulate, "simulate", false, "also replay the model with Adjusted feedback under FCFS and print what was measured")
	f.Float64Var(&opts.horizon, "horizon", 20000, "length of the simulated log, in time units (10 to 1e7)")
	f.Int64Var(&opts.unit, "unit", 600, "seconds per time unit in the simulated log (1 to 86400)")
	f.Uint64Var(&opts.seed, "seed", 1, "seed of the simulated log (N users draw from PCG(seed, N))")
	f.StringVar(&opts.swf, "swf", "", "write the log of the model (one N) to `FILE` (SWF; .gz, .csv, .parquet by extension)")
	f.StringVar(&opts.to, "to", "", "format of --swf: swf, csv, batsim, parquet (default: from its extension)")
	f.BoolVar(&opts.json, "json", false, "print the results as JSON")
	return cmd
}

// semiopenMixedRow is one closed population: the MVA solution and, with
// --simulate, what the simulation measured.
type semiopenMixedRow struct {
	semiopen.MixedPoint
	FullUtilizationResponse float64                `json:"full_utilization_response"`
	Simulated               *semiopen.MixedMeasure `json:"simulated,omitempty"`
}

// semiopenMixedReport is the JSON form of `hpcwl semiopen mixed`.
type semiopenMixedReport struct {
	Version  string             `json:"hpcwl_version"`
	Command  string             `json:"command"`
	Model    semiopen.Mixed     `json:"model"`
	Knee     float64            `json:"knee"`
	Inflated float64            `json:"inflated_service"`
	Seed     uint64             `json:"seed,omitempty"`
	Unit     int64              `json:"unit_seconds,omitempty"`
	Horizon  float64            `json:"horizon,omitempty"`
	Rows     []semiopenMixedRow `json:"rows"`
}

func runSemiopenMixed(ctx context.Context, opts semiopenMixedOptions, stdout, stderr io.Writer) error {
	m := semiopen.Mixed{Lambda: opts.lambda, Think: opts.think, Service: opts.service}
	switch {
	case !(opts.service > 0) || math.IsInf(opts.service, 1):
		return usagef("--service %v: out of range; valid: a finite number > 0", opts.service)
	case !(opts.think >= 0) || math.IsInf(opts.think, 1):
		return usagef("--think %v: out of range; valid: a finite number >= 0", opts.think)
	case !(opts.lambda >= 0 && opts.lambda*opts.service < 1):
		return usagef("--lambda %v: out of range; valid: 0 <= lambda < 1/service = %g (the open load must stay below the capacity)", opts.lambda, 1/opts.service)
	}
	if err := m.Validate(); err != nil {
		return parameterError(err)
	}
	ns, err := parseUsers(opts.users)
	if err != nil {
		return err
	}
	wo := semiopen.WorkloadOptions{Unit: opts.unit, Horizon: opts.horizon}
	if opts.unit < 1 || opts.unit > 86400 {
		return usagef("--unit %d: out of range; valid: 1 to 86400 seconds", opts.unit)
	}
	if !(opts.horizon >= 10 && opts.horizon <= 1e7) {
		return usagef("--horizon %v: out of range; valid: 10 to 1e7 time units", opts.horizon)
	}
	if opts.swf != "" && len(ns) != 1 {
		return usagef("--swf writes the log of one population: give a single --users N (got %d)", len(ns))
	}
	outs := []output{{flag: "--swf", name: opts.swf}}
	if err := checkOutputs(nil, outs...); err != nil {
		return err
	}
	if opts.swf != "" {
		if _, err := outputFormat(opts.swf, opts.to); err != nil {
			return err
		}
	} else if opts.to != "" {
		return usagef("--to sets the format of --swf; give --swf FILE")
	}
	maxN := ns[0]
	for _, n := range ns {
		maxN = max(maxN, n)
	}
	pts, err := m.MVA(maxN)
	if err != nil {
		return parameterError(err)
	}
	rep := semiopenMixedReport{Version: version.String(), Command: commandLine(), Model: m, Knee: m.Knee(), Inflated: m.InflatedService()}
	simulate := opts.simulate || opts.swf != ""
	if simulate {
		rep.Seed, rep.Unit, rep.Horizon = opts.seed, opts.unit, opts.horizon
	}
	for _, n := range ns {
		row := semiopenMixedRow{MixedPoint: pts[n-1], FullUtilizationResponse: m.FullUtilizationResponse(n)}
		if simulate {
			rng := rand.New(rand.NewPCG(opts.seed, uint64(n)))
			meas, t, err := semiopen.SimulateMixed(ctx, m, n, wo, rng)
			if err != nil {
				return parameterError(err)
			}
			if opts.simulate {
				row.Simulated = meas
			}
			if opts.swf != "" {
				if err := writeTrace(t, opts.swf, opts.to, stdout); err != nil {
					return err
				}
			}
		}
		rep.Rows = append(rep.Rows, row)
	}
	out := summaryWriter(stdout, stderr, outs...)
	if opts.json {
		return writeJSON(out, rep)
	}
	return printSemiopenMixed(out, rep, opts.simulate)
}

func printSemiopenMixed(out io.Writer, rep semiopenMixedReport, simulated bool) error {
	m := rep.Model
	fmt.Fprintf(out, "mixed model (Zakay, ch. 6, section III): open lambda %g, think time %g, service %g (capacity %g)\n",
		m.Lambda, m.Think, m.Service, m.Capacity())
	fmt.Fprintf(out, "inflated service S_c = S/(1 - lambda S) = %.4f; knee N* = (µ - lambda)(Z + S_c) = %.3f\n", rep.Inflated, rep.Knee)
	if simulated {
		fmt.Fprintf(out, "simulated: FCFS, Adjusted feedback, one processor, %d s per unit, horizon %g units, measured after %g%%, seed %d\n",
			rep.Unit, rep.Horizon, 100*semiopen.Warmup, rep.Seed)
	}
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "N\tphase\tR_c\tX_c\tR_o\tX\tU\tN/(µ-λ)-Z\t"
	if simulated {
		head += "sim X\tsim X_c\tsim R_c\tsim R_o\tsim U\t"
	}
	fmt.Fprintln(tw, head)
	for _, r := range rep.Rows {
		fmt.Fprintf(tw, "%d\t%s\t%.3f\t%.4f\t%.3f\t%.4f\t%.4f\t%.3f\t", r.N, r.Phase, r.ClosedResponse, r.ClosedThroughput,
			r.OpenResponse, r.Throughput, r.Utilization, r.FullUtilizationResponse)
		if s := r.Simulated; s != nil {
			ro := "n/a"
			if s.OpenJobs > 0 {
				ro = fmt.Sprintf("%.3f", s.OpenResponse)
			}
			fmt.Fprintf(tw, "%.4f\t%.4f\t%.3f\t%s\t%.4f\t", s.Throughput, s.ClosedThroughput, s.ClosedResponse, ro, s.Utilization)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
