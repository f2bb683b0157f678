package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/semiopen"
)

// semiopenReopenOptions are the options of `hpcwl semiopen reopen`.
type semiopenReopenOptions struct {
	lambda, p, think string
	service          float64
	users, runs      int
	seed             uint64
	json             bool
}

func newSemiopenReopenCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts semiopenReopenOptions
	cmd := &cobra.Command{
		Use:   "reopen",
		Short: "The re-open model: users who submit another job with a probability that may depend on the response time",
		Long: `Reopen simulates the re-open model of Zakay's thesis, chapter 6, section IV:
users arrive in a Poisson stream of rate --lambda and submit a job; when a job
ends with response time r (wait plus service), its user submits another after
an exponential think time of mean --think with probability p(r), and
otherwise leaves. One FCFS server, exponential service times of mean
--service; --users users per run (the thesis: 10,000), --runs runs averaged
(run i draws from PCG(--seed, i)).

--p is a constant probability (the model is then open: X = lambda/(1 - p),
and an M/M/1 queue, printed beside the simulation), exp for p = e^-r, or
shmueli for Shmueli and Feitelson's 0.8/(0.05 r + 1) with r in minutes and
10r in place of r, as in the thesis (shmueli:SCALE for another number of
minutes per time unit). --lambda, --p and --think take comma-separated lists;
every combination is one row (Figs. 4, 5 and 7 are such sweeps).

Printed per row: throughput X and utilization U over the arrival period, jobs
per user, mean response time R and wait W, time-average queue length L_q
(waiting jobs), mean throughput per user (jobs over residence time), and the
runtime bias (section IV-C, Fig. 8): mean service time of the jobs after which
the user continued and of those after which he left ("break"), and the
probability that a break job ran longer than a continue job (0.5 without
bias).

Valid ranges: --service > 0, 0 < --lambda < 1/service, --think >= 0,
0 <= constant --p < 1 - lambda*service, --users 1 to 10000000, --runs 1 to
1000.` + exitStatusHelp,
		Example: `  hpcwl semiopen reopen --lambda 0.5 --p 0.36,0.47
  hpcwl semiopen reopen --lambda 0.5 --p 0.36 --think 0.1,1,10
  hpcwl semiopen reopen --lambda 0.1,0.3,0.5,0.7,0.9 --p exp,shmueli --json`,
		Args: exactArgs(0, "no argument"),
		RunE: action(func(cmd *cobra.Command, _ []string) error {
			return runSemiopenReopen(cmd.Context(), opts, stdout)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.lambda, "lambda", "0.5", "user arrival rates, comma-separated (0 < lambda < 1/service)")
	f.StringVar(&opts.p, "p", "shmueli", "continuation probabilities, comma-separated: a constant 0 <= p < 1, exp, shmueli, shmueli:SCALE")
	f.StringVar(&opts.think, "think", "1", "mean think times, comma-separated (>= 0)")
	f.Float64Var(&opts.service, "service", 1, "mean service time S = 1/µ (> 0)")
	f.IntVar(&opts.users, "users", 10000, "users per run (1 to 10000000)")
	f.IntVar(&opts.runs, "runs", 3, "runs averaged per row (1 to 1000)")
	f.Uint64Var(&opts.seed, "seed", 1, "seed of the runs")
	f.BoolVar(&opts.json, "json", false, "print the results as JSON")
	return cmd
}

// semiopenReopenRow is one combination of parameters.
type semiopenReopenRow struct {
	Lambda   float64                  `json:"lambda"`
	P        string                   `json:"p"`
	Think    float64                  `json:"think"`
	Mean     semiopen.ReopenResult    `json:"mean"`
	SD       semiopen.ReopenResult    `json:"sd"`
	Analytic *semiopen.ReopenAnalytic `json:"analytic,omitempty"`
}

// semiopenReopenReport is the JSON form of `hpcwl semiopen reopen`.
type semiopenReopenReport struct {
	Version string              `json:"hpcwl_version"`
	Command string              `json:"command"`
	Service float64             `json:"service"`
	Users   int                 `json:"users"`
	Runs    int                 `json:"runs"`
	Seed    uint64              `json:"seed"`
	Rows    []semiopenReopenRow `json:"rows"`
}

func runSemiopenReopen(ctx context.Context, opts semiopenReopenOptions, stdout io.Writer) error {
	if !(opts.service > 0) || math.IsInf(opts.service, 1) {
		return usagef("--service %v: out of range; valid: a finite number > 0", opts.service)
	}
	if opts.users < 1 || opts.users > 10_000_000 {
		return usagef("--users %d: out of range; valid: 1 to 10000000", opts.users)
	}
	if opts.runs < 1 || opts.runs > 1000 {
		return usagef("--runs %d: out of range; valid: 1 to 1000", opts.runs)
	}
	lambdas, err := parseList("lambda", opts.lambda, func(v float64) bool { return v > 0 && v*opts.service < 1 },
		fmt.Sprintf("0 < lambda < 1/service = %g", 1/opts.service))
	if err != nil {
		return err
	}
	thinks, err := parseList("think", opts.think, func(v float64) bool { return v >= 0 && !math.IsInf(v, 1) }, "a finite number >= 0")
	if err != nil {
		return err
	}
	var conts []semiopen.Continuation
	for _, s := range strings.Split(opts.p, ",") {
		c, err := semiopen.ParseContinuation(s)
		if err != nil {
			return usagef("--p: %v", err)
		}
		conts = append(conts, c)
	}
	var models []semiopen.Reopen
	for _, l := range lambdas {
		for _, c := range conts {
			for _, z := range thinks {
				m := semiopen.Reopen{Lambda: l, Think: z, Service: opts.service, Continue: c, Users: opts.users}
				if err := m.Validate(); err != nil {
					return parameterError(err)
				}
				models = append(models, m)
			}
		}
	}
	rep := semiopenReopenReport{Version: version.String(), Command: commandLine(), Service: opts.service,
		Users: opts.users, Runs: opts.runs, Seed: opts.seed}
	for _, m := range models {
		s, err := m.Replicate(ctx, opts.seed, opts.runs)
		if err != nil {
			return parameterError(err)
		}
		row := semiopenReopenRow{Lambda: m.Lambda, P: m.Continue.String(), Think: m.Think, Mean: s.Mean, SD: s.SD}
		if a, err := m.Analytic(); err == nil {
			row.Analytic = &a
		}
		rep.Rows = append(rep.Rows, row)
	}
	if opts.json {
		return writeJSON(stdout, rep)
	}
	return printSemiopenReopen(stdout, rep)
}

func printSemiopenReopen(out io.Writer, rep semiopenReopenReport) error {
	fmt.Fprintf(out, "re-open model (Zakay, ch. 6, section IV): FCFS, exponential times, service %g, %d users per run, mean of %d runs (seed %d)\n\n",
		rep.Service, rep.Users, rep.Runs, rep.Seed)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "lambda\tp\tZ\tX\tU\tjobs/user\tR\tW\tL_q\tX/user\tcontinue S\tbreak S\tP(break>cont)\tM/M/1 X\tM/M/1 R\t")
	for _, r := range rep.Rows {
		m := r.Mean
		fmt.Fprintf(tw, "%g\t%s\t%g\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%s\t%.3f\t%s\t", r.Lambda, r.P, r.Think,
			m.Throughput, m.Utilization, m.JobsPerUser, m.Response, m.Wait, m.QueueLength, m.UserThroughput,
			naIf(m.Bias.Continue.N == 0, m.Bias.Continue.Mean), m.Bias.Break.Mean, naIf(m.Bias.Continue.N == 0, m.Bias.Dominance))
		if a := r.Analytic; a != nil {
			fmt.Fprintf(tw, "%.3f\t%.3f\t\n", a.Throughput, a.Response)
		} else {
			fmt.Fprintf(tw, "-\t-\t\n")
		}
	}
	return tw.Flush()
}

// naIf formats v with 3 decimals, or "n/a" when na.
func naIf(na bool, v float64) string {
	if na {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", v)
}
