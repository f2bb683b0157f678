package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/fit"
	"github.com/hpcwl/hpcwl/gen/lublin"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/spf13/cobra"
)

func init() { register(newFitCommand) }

// fitOptions are the options of `hpcwl fit`.
type fitOptions struct {
	trace    traceFlags
	json     bool
	families []string
	status   string
}

func newFitCommand(stdout, _ io.Writer) *cobra.Command {
	var opts fitOptions
	cmd := &cobra.Command{
		Use:   "fit TRACE",
		Short: "Fit distributions or a workload model to a log",
		Long: `Fit fits the candidate distributions (` + strings.Join(fit.CandidateNames, ", ") + `)
by maximum likelihood (EM for the mixtures) to the runtime, processors,
inter-arrival time and requested time of a log, and ranks them by their
Kolmogorov-Smirnov distance; AIC and BIC are shown as well. Only positive
values are fitted.

"hpcwl fit lublin TRACE" fits the Lublin-Feitelson model instead.` + exitStatusHelp,
		Example: `  hpcwl fit builtin:KTH-SP2
  hpcwl fit --families lognormal,gamma,hypergamma --json log.swf.gz
  hpcwl fit lublin builtin:KTH-SP2 -o kth-params.json`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runFit(opts, args[0], stdout)
		}),
	}
	opts.trace.add(cmd)
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the fits as JSON")
	cmd.Flags().StringSliceVar(&opts.families, "families", nil, "families to fit, comma-separated (default: all)")
	cmd.Flags().StringVar(&opts.status, "status", "all", `jobs to fit: "all", or "completed" (status 1)`)
	cmd.AddCommand(newFitLublinCommand(stdout))
	return cmd
}

// fitVariable is one variable's ranked fits.
type fitVariable struct {
	Variable   string          `json:"variable"`
	N          int             `json:"n"`
	Candidates []fit.Candidate `json:"candidates"`
}

// fitReport is the JSON form of `hpcwl fit`.
type fitReport struct {
	Version   string        `json:"hpcwl_version"`
	Trace     string        `json:"trace"`
	SHA256    string        `json:"sha256,omitempty"`
	Status    string        `json:"status"`
	Variables []fitVariable `json:"variables"`
}

func selectJobs(t *trace.Trace, status string) ([]*trace.Job, error) {
	switch status {
	case "all", "completed":
	default:
		return nil, usagef(`--status must be "all" or "completed", got %q`, status)
	}
	var jobs []*trace.Job
	for i := range t.Jobs {
		if status == "completed" && t.Jobs[i].Status != 1 {
			continue
		}
		jobs = append(jobs, &t.Jobs[i])
	}
	return jobs, nil
}

func runFit(opts fitOptions, name string, stdout io.Writer) error {
	for _, f := range opts.families {
		if !contains(fit.CandidateNames, f) {
			return usagef("unknown family %q for --families; valid: %s", f, strings.Join(fit.CandidateNames, ", "))
		}
	}
	t, err := opts.trace.load(name)
	if err != nil {
		return err
	}
	jobs, err := selectJobs(t, opts.status)
	if err != nil {
		return err
	}
	if len(jobs) == 0 {
		return fmt.Errorf("%s: no jobs to fit", name)
	}
	samples := map[string][]float64{}
	var prev int64 = -1
	for _, j := range jobs {
		if j.Runtime > 0 {
			samples["runtime"] = append(samples["runtime"], float64(j.Runtime))
		}
		if p := j.Processors(); p > 0 {
			samples["processors"] = append(samples["processors"], float64(p))
		}
		if j.ReqTime > 0 {
			samples["requested_time"] = append(samples["requested_time"], float64(j.ReqTime))
		}
		if prev >= 0 && j.Submit > prev {
			samples["inter_arrival"] = append(samples["inter_arrival"], float64(j.Submit-prev))
		}
		prev = j.Submit
	}
	rep := fitReport{Version: version.String(), Trace: name, SHA256: t.SHA256, Status: opts.status}
	for _, v := range []string{"runtime", "processors", "inter_arrival", "requested_time"} {
		x := samples[v]
		fv := fitVariable{Variable: v, N: len(x)}
		if len(x) >= 2 {
			if fv.Candidates, err = fit.Rank(x, opts.families, nil); err != nil {
				return fmt.Errorf("fitting %s: %w", v, err)
			}
		}
		rep.Variables = append(rep.Variables, fv)
	}
	if opts.json {
		return writeJSON(stdout, rep)
	}
	return printFit(stdout, &rep)
}

func printFit(w io.Writer, rep *fitReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "variable\tn\trank\tfamily\tKS D\tp-value\tAIC\tBIC\tparameters\n")
	for _, v := range rep.Variables {
		if len(v.Candidates) == 0 {
			fmt.Fprintf(tw, "%s\t%d\t\t(too few positive values)\n", v.Variable, v.N)
			continue
		}
		for i, c := range v.Candidates {
			name := v.Variable
			if i > 0 {
				name = ""
			}
			if c.Error != "" {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\t\t\t\tnot fitted: %s\n", name, v.N, i+1, c.Name, c.Error)
				continue
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%.4f\t%.3g\t%.0f\t%.0f\t%s\n", name, v.N, i+1, c.Name,
				c.KS.D, c.KS.PValue, c.AIC, c.BIC, formatParams(c.Params))
		}
	}
	return tw.Flush()
}

func formatParams(p map[string]float64) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%.4g", k, p[k])
	}
	return strings.Join(parts, " ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fitLublinOptions are the options of `hpcwl fit lublin`.
type fitLublinOptions struct {
	trace   traceFlags
	json    bool
	out     string
	status  string
	exclude []int
}

func newFitLublinCommand(stdout io.Writer) *cobra.Command {
	var opts fitLublinOptions
	cmd := &cobra.Command{
		Use:   "lublin TRACE",
		Short: "Fit the Lublin-Feitelson model to a log",
		Long: `Fit lublin estimates every parameter of the Lublin-Feitelson model of rigid
jobs (whole-sample mode) from a log: job sizes (serial and power-of-two
fractions, two-stage uniform on log2 size), runtimes (hyper-Gamma of log
runtime with a mixing weight linear in size, per size group), peak-hour
inter-arrival times and the daily cycle. It prints the goodness of fit of each
part and writes the parameters as JSON with -o, ready for
"hpcwl generate lublin --params FILE".

As in the paper, only completed jobs (status 1) are used unless --status all.` + exitStatusHelp,
		Example: `  hpcwl fit lublin builtin:KTH-SP2 -o kth-params.json
  hpcwl generate lublin --params kth-params.json --jobs 20000 --seed 1 -o kth-model.swf`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runFitLublin(opts, args[0], stdout)
		}),
	}
	opts.trace.add(cmd)
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the goodness-of-fit report as JSON")
	cmd.Flags().StringVarP(&opts.out, "output", "o", "", "write the fitted parameters (JSON) to this file")
	cmd.Flags().StringVar(&opts.status, "status", "completed", `jobs to fit: "completed" (status 1) or "all"`)
	cmd.Flags().IntSliceVar(&opts.exclude, "exclude-slots", nil, "half-hour slots (0-47) left out of the daily cycle, e.g. 7 for an administrative 03:30 peak")
	return cmd
}

// fitLublinReport is the JSON form of `hpcwl fit lublin`.
type fitLublinReport struct {
	Version string            `json:"hpcwl_version"`
	Trace   string            `json:"trace"`
	SHA256  string            `json:"sha256,omitempty"`
	Jobs    int               `json:"jobs"`
	Params  lublin.Params     `json:"params"`
	Report  *lublin.FitReport `json:"fit"`
}

func runFitLublin(opts fitLublinOptions, name string, stdout io.Writer) error {
	for _, s := range opts.exclude {
		if s < 0 || s > 47 {
			return usagef("--exclude-slots takes half-hour slots 0-47, got %d", s)
		}
	}
	t, err := opts.trace.load(name)
	if err != nil {
		return err
	}
	jobs, err := selectJobs(t, opts.status)
	if err != nil {
		return err
	}
	clock := t.Clock()
	l := lublin.Log{StartTime: clock.Start, Location: clock.Loc, MachineProcs: t.Procs}
	for _, j := range jobs {
		l.Submit = append(l.Submit, j.Submit)
		l.Runtime = append(l.Runtime, j.Runtime)
		l.Procs = append(l.Procs, int64(j.Processors()))
	}
	tp, rep, err := lublin.FitLog(l, &lublin.FitOptions{ExcludeSlots: opts.exclude})
	if err != nil {
		return fmt.Errorf("fitting the Lublin model to %s: %w", name, err)
	}
	params := lublin.Params{Mode: lublin.Whole, Whole: tp}
	if opts.out != "" {
		if err := writeOutput(opts.out, stdout, func(w io.Writer) error { return lublin.WriteParams(w, params) }); err != nil {
			return err
		}
	}
	out := fitLublinReport{Version: version.String(), Trace: name, SHA256: t.SHA256, Jobs: len(jobs), Params: params, Report: rep}
	if opts.json {
		return writeJSON(stdout, out)
	}
	if opts.out == "-" {
		return nil
	}
	return printFitLublin(stdout, &out)
}

func printFitLublin(w io.Writer, r *fitLublinReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p, s, rt, a := r.Params.Whole, r.Report.Sizes, r.Report.Runtimes, r.Report.Arrivals
	fmt.Fprintf(tw, "log\t%s (%d jobs used)\n", r.Trace, r.Jobs)
	fmt.Fprintf(tw, "sizes\tserial %.3f  power-of-two %.3f  two-stage uniform low %.2f med %.2f hi %.2f prob %.3f\tKS D %.3f\n",
		p.SerialProb, p.Pow2Prob, p.ULow, p.UMed, p.UHi, p.UProb, s.TSUD)
	fmt.Fprintf(tw, "runtimes\thyper-Gamma a1 %.3f b1 %.3f a2 %.3f b2 %.3f  weight pa %.4g pb %.3f\tKS D %.3f (model with linear weight)\n",
		p.A1, p.B1, p.A2, p.B2, p.PA, p.PB, rt.ModelD)
	fmt.Fprintf(tw, "arrivals\tpeak Gamma a %.3f b %.3f  ARAR %.3f  daily cycle a %.3f b %.3f\tKS D %.3f (peak), %.3f (daily)\n",
		p.AArr, p.BArr, p.ARAR, p.ANum, p.BNum, a.PeakD, a.DailyD)
	for _, n := range r.Report.Notes {
		fmt.Fprintf(tw, "note\t%s\n", n)
	}
	return tw.Flush()
}
