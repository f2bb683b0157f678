package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/metamodel"
	"github.com/hpcwl/hpcwl/summary"
	"github.com/spf13/cobra"
)

func init() { register(newMetamodelCommand) }

// metamodelOptions are the options of `hpcwl metamodel`.
type metamodelOptions struct {
	trace     traceFlags
	cm, jd    float64
	cl        float64
	machine   int
	json      bool
	agreement bool
}

func newMetamodelCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts metamodelOptions
	cmd := &cobra.Command{
		Use:   "metamodel [TRACE...]",
		Short: "Predict workload variables from Talby's parametric meta-model",
		Long: `Metamodel evaluates the parametric meta-model of Talby, Feitelson and Raveh
(Talby's thesis, User Modeling of Parallel Workloads, 2006, chapter 10): the
workload variables of Tables 2-3 (Ci, Rm, Ri, Pm, Pi, UJ, CL, Am, Ai) from the
median CPU work Cm (s) and the jobs per day JD (Table 24, --cm and --jd); the
Multiple-Jobs axis (JD, Am, Ai) from Cm and the CPU load CL instead (Table 26,
--cm and --cl); and Cm, JD and CL from the machine size alone (Table 28,
--machine), the rest then by Table 26.

Given TRACEs, it checks the equations against the logs instead: each log's
variables predicted from its own Cm and JD, Cm and CL, and machine size,
next to the measured ones, and per equation the R² over the logs (on the
values and on their logarithms) and the median ratio predicted/measured.` + exitStatusHelp,
		Example: `  hpcwl metamodel --cm 25 --jd 100
  hpcwl metamodel --cm 600 --cl 0.65
  hpcwl metamodel --machine 1024
  hpcwl metamodel --agreement builtin:KTH-SP2`,
		Args: cobra.ArbitraryArgs,
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runMetamodel(cmd, opts, args, stdout)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.Float64Var(&opts.cm, "cm", 0, "median CPU work Cm, s")
	f.Float64Var(&opts.jd, "jd", 0, "jobs per day JD (Table 24)")
	f.Float64Var(&opts.cl, "cl", 0, "CPU load CL, e.g. 0.6 (Table 26)")
	f.IntVar(&opts.machine, "machine", 0, "machine size in processors (Table 28)")
	f.BoolVar(&opts.json, "json", false, "print JSON")
	f.BoolVar(&opts.agreement, "agreement", false, "with TRACEs: print only the per-equation agreement, not every log")
	positiveFlags(cmd, "cm", "jd", "cl", "machine")
	return cmd
}

func runMetamodel(cmd *cobra.Command, opts metamodelOptions, args []string, stdout io.Writer) error {
	set := func(name string) bool { return cmd.Flags().Changed(name) }
	if len(args) > 0 {
		if set("cm") || set("jd") || set("cl") || set("machine") {
			return usagef("give either TRACEs to check the equations on, or the inputs --cm with --jd or --cl, or --machine")
		}
		return runMetamodelCheck(opts, args, stdout)
	}
	if opts.agreement {
		return usagef("--agreement needs TRACEs")
	}
	var p metamodel.Prediction
	var err error
	var model string
	switch {
	case set("machine") && !set("cm") && !set("jd") && !set("cl"):
		p, err = metamodel.FromMachine(float64(opts.machine))
		model = "Table 28 (machine size), then Table 26"
	case set("cm") && set("jd") && !set("cl") && !set("machine"):
		p, err = metamodel.FromJD(opts.cm, opts.jd)
		model = "Table 24 (JD/Cm)"
	case set("cm") && set("cl") && !set("jd") && !set("machine"):
		p, err = metamodel.FromCL(opts.cm, opts.cl)
		model = "Table 26 (CL/Cm)"
	default:
		return usagef("give --cm with --jd (Table 24) or with --cl (Table 26), or --machine alone (Table 28)")
	}
	if err != nil {
		return usageError{err}
	}
	if opts.json {
		return writeJSON(stdout, struct {
			Version    string               `json:"hpcwl_version"`
			Model      string               `json:"model"`
			Prediction metamodel.Prediction `json:"prediction"`
		}{version.String(), model, p})
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "model\t%s\n", model)
	for _, r := range []struct {
		name, unit string
		v          float64
	}{{"Cm", "s, CPU work median", p.Cm}, {"JD", "jobs per day", p.JD}, {"CL", "CPU load", p.CL},
		{"Ci", "s, CPU work 90% interval", p.Ci}, {"Rm", "s, runtime median", p.Rm}, {"Ri", "s, runtime 90% interval", p.Ri},
		{"Pm", "processors median", p.Pm}, {"Pi", "processors 90% interval", p.Pi}, {"UJ", "users per 1000 jobs", p.UJ},
		{"Am", "s, inter-arrival median", p.Am}, {"Ai", "s, inter-arrival 90% interval", p.Ai}} {
		fmt.Fprintf(tw, "%s\t%.4g\t%s\n", r.name, r.v, r.unit)
	}
	return tw.Flush()
}

func runMetamodelCheck(opts metamodelOptions, args []string, stdout io.Writer) error {
	var all []metamodel.Comparison
	for _, name := range args {
		t, err := opts.trace.load(name)
		if err != nil {
			return err
		}
		all = append(all, metamodel.Compare(name, summary.Of(t).Talby)...)
	}
	agree := metamodel.Agree(all)
	if opts.json {
		return writeJSON(stdout, struct {
			Version     string                 `json:"hpcwl_version"`
			Comparisons []metamodel.Comparison `json:"comparisons"`
			Agreement   []metamodel.Agreement  `json:"agreement"`
		}{version.String(), all, agree})
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	if !opts.agreement {
		fmt.Fprintf(tw, "log\tmodel\tvariable\tpredicted\tmeasured\tratio\t\n")
		for _, c := range all {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%.4g\t%.4g\t%.3f\t\n", c.Log, c.Model, c.Variable, c.Predicted, c.Measured, c.Predicted/c.Measured)
		}
		fmt.Fprintln(tw, "\t\t\t\t\t\t")
	}
	fmt.Fprintf(tw, "model\tvariable\tlogs\tR²\tR² (log)\tmedian ratio\t\n")
	for _, a := range agree {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.2f\t%.2f\t%.3f\t\n", a.Model, a.Variable, a.Logs, a.R2, a.LogR2, a.MedianRatio)
	}
	return tw.Flush()
}
