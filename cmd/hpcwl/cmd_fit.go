package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/fit"
	"github.com/hpcwl/hpcwl/gen/lublin"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/stats"
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

func newFitCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts fitOptions
	cmd := &cobra.Command{
		Use:   "fit TRACE",
		Short: "Fit distributions or a workload model to a log",
		Long: `Fit fits the candidate distributions (` + strings.Join(fit.CandidateNames, ", ") + `)
by maximum likelihood (EM for the mixtures) to the runtime, processors,
inter-arrival time and requested time of a log, and ranks them by their
Kolmogorov-Smirnov distance; the Anderson-Darling statistic A², a chi-square
test on bins of equal model probability (statistic/degrees of freedom), AIC
and BIC are shown as well. Only positive
values are fitted. Degenerate fits (a constant variable, an infinite or NaN
likelihood, a generalized Pareto of shape <= -1, a mixture part collapsed
onto one repeated value) are reported as such and ranked last, before the
families that could not be fitted.

"hpcwl fit lublin TRACE" fits the Lublin-Feitelson model instead, "hpcwl fit minh
TRACE" the Minh-Wolters bursty bag-of-tasks model, "hpcwl fit talby TRACE"
Talby's model of users and sessions.` + exitStatusHelp,
		Example: `  hpcwl fit builtin:KTH-SP2
  hpcwl fit --families lognormal,gamma,hypergamma --json log.swf.gz
  hpcwl fit lublin builtin:KTH-SP2 -o kth-params.json
  hpcwl fit talby builtin:KTH-SP2 -o kth-talby.json`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runFit(opts, args[0], stdout)
		}),
	}
	opts.trace.add(cmd)
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the fits as JSON")
	cmd.Flags().StringSliceVar(&opts.families, "families", nil, "families to fit, comma-separated (default: all)")
	cmd.Flags().StringVar(&opts.status, "status", "all", `jobs to fit: "all", or "completed" (status 1)`)
	cmd.AddCommand(newFitLublinCommand(stdout, stderr))
	cmd.AddCommand(newFitMinhCommand(stdout, stderr))
	cmd.AddCommand(newFitTalbyCommand(stdout, stderr))
	cmd.AddCommand(newFitAverageCommand(stdout, stderr))
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

func selectJobs(t *trace.Trace, name, status string) ([]*trace.Job, error) {
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
	if len(jobs) == 0 && len(t.Jobs) > 0 {
		// Some archive logs (NASA-iPSC) record no
		// status at all: say so rather than fail later on zero jobs.
		unknown := 0
		for i := range t.Jobs {
			if t.Jobs[i].Status < 0 {
				unknown++
			}
		}
		return nil, fmt.Errorf("%s: %w: none of the %d jobs completed (status 1; %d have an unknown status, -1); --status all fits every job", name, errNoCompleted, len(t.Jobs), unknown)
	}
	return jobs, nil
}

// errNoCompleted is wrapped by the error of a fit whose log has no
// completed job.
var errNoCompleted = errors.New("no completed jobs")

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
	jobs, err := selectJobs(t, name, opts.status)
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
	fmt.Fprintf(tw, "variable\tunit\tn\trank\tfamily\tKS D\tp-value\tAD A2\tchi2/df\tAIC\tBIC\tparameters\n")
	for _, v := range rep.Variables {
		if len(v.Candidates) == 0 {
			fmt.Fprintf(tw, "%s\t%s\t%d\t\t(too few positive values)\n", v.Variable, fitUnits[v.Variable], v.N)
			continue
		}
		for i, c := range v.Candidates {
			name := v.Variable + "\t" + fitUnits[v.Variable]
			if i > 0 {
				name = "\t"
			}
			if c.Error != "" {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\t\t\t\t\t\tnot fitted: %s\n", name, v.N, i+1, c.Name, c.Error)
				continue
			}
			if c.Degenerate != "" {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\t\t\t\t\t\tdegenerate: %s; %s\n", name, v.N, i+1, c.Name,
					c.Degenerate, formatParams(c.Params))
				continue
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%.4f\t%.3g\t%.4g\t%s\t%.0f\t%.0f\t%s\n", name, v.N, i+1, c.Name,
				c.KS.D, c.KS.PValue, c.AD.A2, chiPerDF(c.ChiSquare), c.AIC, c.BIC, formatParams(c.Params))
		}
	}
	return tw.Flush()
}

// chiPerDF formats a chi-square statistic as stat/df.
func chiPerDF(c stats.ChiSquareResult) string {
	if c.DF <= 0 {
		return fmt.Sprintf("%.4g/-", c.Stat)
	}
	return fmt.Sprintf("%.4g/%d", c.Stat, c.DF)
}

// fitUnits gives the unit of each fitted variable; the parameters of a
// fit are in that unit (scales) or its inverse (rates).
var fitUnits = map[string]string{"runtime": "s", "processors": "procs", "inter_arrival": "s", "requested_time": "s"}

// formatParams lists the parameters of a fit, never in scientific notation.
func formatParams(p map[string]float64) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + fixed5(p[k])
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
	trace            traceFlags
	json             bool
	out              string
	status           string
	exclude          []int
	typed            bool
	interactiveProcs int
	sizeGroups       string
	work             bool
}

func newFitLublinCommand(stdout, stderr io.Writer) *cobra.Command {
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

With --typed it fits the model three times, as the paper does: to the whole
log, to its batch jobs and to its interactive jobs, and writes a typed
parameter set (its "whole" class holds the whole-sample fit, so editing
"mode" switches generators). Interactive jobs are those of queue 0 (SWF
field 15), batch jobs those of queue 1 and above: the SWF convention and the
paper's split of the SDSC Paragon logs, where interactive jobs bypassed the
NQS batch queues. Logs without queue numbers (e.g. KTH-SP2) cannot be split
and are refused. --interactive-procs sets the interactive partition size
(default: fitted from the interactive job sizes).

--size-groups also fits a free hyper-Gamma (all five parameters) to the
runtimes of each size range, as the paper does before tying the weight to the
size (Table 4): "paper:KTH" (or SDSC95, SDSC96, LANL) for the paper's groups,
or ranges such as 1-4,5-100. With --work the variable is ln(processors x
runtime), the total work of the paper's Table 3 (one range covering every size
gives the whole-log fit). "hpcwl fit lublin-average" averages several fits
into one representative model.

As in the paper, only completed jobs (status 1) are used unless --status all.` + exitStatusHelp,
		Example: `  hpcwl fit lublin builtin:KTH-SP2 -o kth-params.json
  hpcwl fit lublin --typed --exclude-slots 7 SDSC-Par-1996-3.1-cln.swf.gz -o sdsc-typed.json
  hpcwl generate lublin --params kth-params.json --count 20000 --seed 1 -o kth-model.swf
  hpcwl fit lublin --size-groups paper:KTH --work builtin:KTH-SP2`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runFitLublin(opts, args[0], stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the goodness-of-fit report as JSON")
	cmd.Flags().StringVarP(&opts.out, "output", "o", "", "write the fitted parameters (JSON) to this file")
	cmd.Flags().StringVar(&opts.status, "status", "completed", `jobs to fit: "completed" (status 1) or "all"`)
	cmd.Flags().BoolVar(&opts.typed, "typed", false, "fit whole, batch (queue >= 1) and interactive (queue 0) classes; writes a typed parameter set")
	cmd.Flags().IntVar(&opts.interactiveProcs, "interactive-procs", 0, "with --typed: processors of the interactive partition (default: fitted from the sizes)")
	positiveFlags(cmd, "interactive-procs")
	cmd.Flags().IntSliceVar(&opts.exclude, "exclude-slots", nil, "half-hour slots (0-47) left out of the daily cycle, e.g. 7 for an administrative 03:30 peak")
	cmd.Flags().StringVar(&opts.sizeGroups, "size-groups", "", `also fit a hyper-Gamma per size range: "paper:KTH" (SDSC95, SDSC96, KTH, LANL) or ranges like 1-4,5-100`)
	cmd.Flags().BoolVar(&opts.work, "work", false, "with --size-groups: fit ln(processors x runtime), the total work, instead of ln(runtime)")
	return cmd
}

// fitLublinReport is the JSON form of `hpcwl fit lublin`.
type fitLublinReport struct {
	Version string            `json:"hpcwl_version"`
	Trace   string            `json:"trace"`
	SHA256  string            `json:"sha256,omitempty"`
	Jobs    int               `json:"jobs"`
	Params  lublin.Params     `json:"params"`
	Report  *lublin.FitReport `json:"fit,omitempty"`
	// Typed is the report of --typed (Report is then absent).
	Typed *lublin.TypedFitReport `json:"typed_fit,omitempty"`
	// SizeGroups holds the per-size-group fits of --size-groups, of
	// ln(total work) when Work is set.
	SizeGroups []lublin.GroupFit `json:"size_groups,omitempty"`
	Work       bool              `json:"work,omitempty"`
}

func runFitLublin(opts fitLublinOptions, name string, stdout, stderr io.Writer) error {
	outs := []output{{"-o", opts.out}}
	if err := checkOutputs([]string{name}, outs...); err != nil {
		return err
	}
	for _, s := range opts.exclude {
		if s < 0 || s > 47 {
			return usagef("--exclude-slots takes half-hour slots 0-47, got %d", s)
		}
	}
	t, err := opts.trace.load(name)
	if err != nil {
		return err
	}
	jobs, err := selectJobs(t, name, opts.status)
	if err != nil {
		return err
	}
	if opts.interactiveProcs < 0 || (opts.interactiveProcs > 0 && !opts.typed) {
		return usagef("--interactive-procs takes a positive number of processors and needs --typed")
	}
	var ranges []lublin.SizeRange
	if opts.sizeGroups != "" {
		if ranges, err = parseSizeGroups(opts.sizeGroups); err != nil {
			return err
		}
	} else if opts.work {
		return usagef("--work needs --size-groups")
	}
	clock := t.Clock()
	l := lublin.Log{StartTime: clock.Start, Location: clock.Loc, MachineProcs: t.Procs}
	for _, j := range jobs {
		l.Submit = append(l.Submit, j.Submit)
		l.Runtime = append(l.Runtime, j.Runtime)
		l.Procs = append(l.Procs, int64(j.Processors()))
		l.Queue = append(l.Queue, int64(j.Queue))
	}
	fo := &lublin.FitOptions{ExcludeSlots: opts.exclude, InteractiveProcs: opts.interactiveProcs}
	out := fitLublinReport{Version: version.String(), Trace: name, SHA256: t.SHA256, Jobs: len(jobs)}
	if opts.typed {
		params, rep, err := lublin.FitTyped(l, fo)
		if err != nil {
			return fmt.Errorf("fitting the typed Lublin model to %s: %w", name, err)
		}
		out.Params, out.Typed = params, rep
	} else {
		tp, rep, err := lublin.FitLog(l, fo)
		if err != nil {
			return fmt.Errorf("fitting the Lublin model to %s: %w", name, err)
		}
		out.Params, out.Report = lublin.Params{Mode: lublin.Whole, Whole: tp}, rep
	}
	if ranges != nil {
		if out.SizeGroups, err = lublin.FitSizeGroups(l, ranges, &lublin.GroupOptions{Work: opts.work}); err != nil {
			return fmt.Errorf("fitting the size groups of %s: %w", name, err)
		}
		out.Work = opts.work
	}
	// The whole log's arrival rate and load (not only the jobs fitted), for
	// generate to reproduce.
	all := lublin.Log{MachineProcs: t.Procs}
	for i := range t.Jobs {
		j := &t.Jobs[i]
		all.Submit = append(all.Submit, j.Submit)
		all.Runtime = append(all.Runtime, j.Runtime)
		all.Procs = append(all.Procs, int64(j.Processors()))
	}
	if out.Params.Target, err = lublin.TargetOf(all); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	out.Params.Source = &lublin.Source{Log: name, SHA256: t.SHA256, MachineProcs: t.Procs,
		Version: "hpcwl " + version.String(), Command: commandLine()}
	if opts.out != "" {
		if err := writeOutput(opts.out, stdout, func(w io.Writer) error { return lublin.WriteParams(w, out.Params) }); err != nil {
			return err
		}
	}
	sw := summaryWriter(stdout, stderr, outs...)
	if opts.json {
		return writeJSON(sw, out)
	}
	return printFitLublin(sw, &out)
}

func printFitLublin(w io.Writer, r *fitLublinReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "log\t%s (%d jobs used)\n", r.Trace, r.Jobs)
	if r.Typed == nil {
		printLublinClass(tw, "", r.Params.Whole, r.Report)
		if err := tw.Flush(); err != nil {
			return err
		}
		return printGroupsAfter(w, r)
	}
	ty := r.Typed
	fmt.Fprintf(tw, "classes\t%d batch (queue >= 1), %d interactive (queue 0), %d unknown queue (whole sample only)\n",
		ty.BatchJobs, ty.InteractiveJobs, ty.UnknownQueue)
	for _, c := range []struct {
		name string
		p    lublin.TypeParams
		rep  *lublin.FitReport
	}{{"whole", r.Params.Whole, ty.Whole}, {"batch", r.Params.Batch, ty.Batch}, {"interactive", r.Params.Interactive, ty.Interactive}} {
		printLublinClass(tw, c.name+" ", c.p, c.rep)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return printGroupsAfter(w, r)
}

// printGroupsAfter prints the --size-groups table after a blank line.
func printGroupsAfter(w io.Writer, r *fitLublinReport) error {
	if r.SizeGroups == nil {
		return nil
	}
	fmt.Fprintln(w)
	return printSizeGroups(w, r.SizeGroups, r.Work)
}

// printLublinClass prints the parameters and goodness of fit of one class;
// prefix names the class in typed mode.
func printLublinClass(tw io.Writer, prefix string, p lublin.TypeParams, rep *lublin.FitReport) {
	s, rt, a := rep.Sizes, rep.Runtimes, rep.Arrivals
	// v formats a parameter, or says it is implausible (the reason follows).
	v := func(key string, x float64, format string) string {
		if _, bad := rep.Implausible[key]; bad {
			return "implausible"
		}
		return fmt.Sprintf(format, x)
	}
	fmt.Fprintf(tw, "%ssizes\tserial %.3f  power-of-two %.3f  two-stage uniform low %.2f med %.2f hi %.2f prob %.3f\tKS D %.3f (parallel sizes); smallest %d (log %d), mean %.2f (log %.2f)\n",
		prefix, p.SerialProb, p.Pow2Prob, p.ULow, p.UMed, p.UHi, p.UProb, s.TSUD, s.ModelMinSize, s.MinSize, s.ModelMeanSize, s.MeanSize)
	fmt.Fprintf(tw, "%sruntimes\thyper-Gamma a1 %s b1 %s a2 %s b2 %s  weight pa %.4g pb %.3f\tKS D %.3f (model with linear weight); chi2 %s p %.3g (simulated expected counts)\n",
		prefix, v("a1", p.A1, "%.3f"), v("b1", p.B1, "%.3f"), v("a2", p.A2, "%.3f"), v("b2", p.B2, "%.3f"), p.PA, p.PB, rt.ModelD, chiPerDF(rt.Chi2), rt.Chi2.PValue)
	fmt.Fprintf(tw, "%sarrivals\tpeak Gamma a %s b %s  ARAR %s  daily cycle a %s b %s\tKS D %.3f (peak), %.3f (daily)\n",
		prefix, v("a_arr", p.AArr, "%.3f"), v("b_arr", p.BArr, "%.3f"), v("arar", p.ARAR, "%.3f"),
		v("a_num", p.ANum, "%.3f"), v("b_num", p.BNum, "%.3f"), a.PeakD, a.DailyD)
	keys := make([]string, 0, len(rep.Implausible))
	for k := range rep.Implausible {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(tw, "%swarning\timplausible %s: %s; do not generate from this fit as it is\n", prefix, k, rep.Implausible[k])
	}
	if prefix == "" || prefix == "whole " {
		for _, n := range rep.Notes {
			fmt.Fprintf(tw, "note\t%s\n", n)
		}
	}
}
