package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/scale"
	"github.com/hpcwl/hpcwl/trace"
)

func init() { register(newScaleCommand) }

// scaleOptions are the options of `hpcwl scale`.
type scaleOptions struct {
	trace  traceFlags
	by     string
	factor float64
	target float64
	cap    bool
	pow2   bool
	out    string
	to     string
	json   bool
	// factorSet and targetSet say whether --load and --target-load were
	// given, so that an explicit 0 is refused as such.
	factorSet, targetSet bool
}

func newScaleCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts scaleOptions
	cmd := &cobra.Command{
		Use:   "scale TRACE --by METHOD (--load FACTOR | --target-load LOAD) -o OUT",
		Short: "Change a log's offered load by scaling inter-arrival times, runtimes or sizes",
		Long: `Scale changes the offered load of a log by one of the three naive methods of
the literature (Talby, User Modeling of Parallel Workloads, 2006, section 4.3):

  --by interarrival  divide every inter-arrival time by the factor (submit
                     times move towards the first one)
  --by runtime       multiply every runtime and requested time by the factor
  --by size          multiply every processor count by the factor, rounded and
                     at least 1; a job the scaling makes wider than the machine
                     is an error unless --cap caps it at the machine
                     (--pow2 rounds to powers of two)

--load multiplies the offered load by a factor; --target-load gives the load
to reach, and the factor is computed from the log's offered load: the work of
its runnable jobs over the machine times the span from the first to the last
submission. The output's header records the method, the factor, the loads
before and after and every warning; its recorded wait times become unknown
(-1), since the recorded schedule does not fit the new load.

Each method breaks one property of the log, and the command warns of it:
interarrival the daily and weekly cycle (jobs leave their time of day, users'
gaps between sessions shrink), runtime the runtime distribution, size the size
distribution and the dominance of powers of two (and the jobs capped at the
machine). Real systems of higher load have longer inter-arrival times, shorter
runtimes and only weakly larger jobs than less loaded ones, the opposite of
all three; results at loads of 95% or more made this way are questionable.
Methods that keep the log's structure: hpcwl resample --load (more or fewer
users, after Zakay and Feitelson) and hpcwl generate lublin --offered-load (the
Lublin-Feitelson model's arrival rate). docs/load.md says when to use which.` + exitStatusHelp,
		Example: `  hpcwl scale builtin:KTH-SP2 --by interarrival --load 1.2 -o kth-x1.2.swf
  hpcwl scale builtin:KTH-SP2 --by runtime --target-load 0.9 -o kth-90.swf --json
  hpcwl scale builtin:KTH-SP2 --by size --load 1.3 --cap --pow2 -o kth-size.swf`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			opts.factorSet, opts.targetSet = cmd.Flags().Changed("load"), cmd.Flags().Changed("target-load")
			return runScale(cmd.Context(), opts, args[0], stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.by, "by", "", "scaling method (required): interarrival, runtime, size")
	f.Float64Var(&opts.factor, "load", 0, "multiply the offered load by this factor (above 0)")
	f.Float64Var(&opts.target, "target-load", 0, "scale to this offered load instead (e.g. 0.9)")
	f.BoolVar(&opts.cap, "cap", false, "--by size: cap sizes at the machine instead of failing")
	f.BoolVar(&opts.pow2, "pow2", false, "--by size: round scaled sizes to the nearest power of two")
	f.StringVarP(&opts.out, "output", "o", "", "write the scaled log to `FILE` (.swf, .csv, .json, optionally .gz; .parquet; - is stdout) (required)")
	f.StringVar(&opts.to, "to", "", "output format: swf, csv, batsim, parquet (default: from the extension)")
	f.BoolVar(&opts.json, "json", false, "print the summary as JSON")
	return cmd
}

// scaleReport is the summary of `hpcwl scale`.
type scaleReport struct {
	Version string `json:"hpcwl_version"`
	Input   string `json:"input"`
	SHA256  string `json:"sha256"`
	Output  string `json:"output"`
	Procs   int    `json:"procs"`
	// TargetLoad is the load asked for with --target-load (0 otherwise).
	TargetLoad float64 `json:"target_load,omitempty"`
	*scale.Result
}

func runScale(ctx context.Context, opts scaleOptions, name string, stdout, stderr io.Writer) error {
	if opts.by == "" {
		return usagef("--by is required: interarrival, runtime or size")
	}
	m, err := scale.ParseMethod(opts.by)
	if err != nil {
		return usageError{err}
	}
	switch {
	case opts.factorSet && opts.targetSet:
		return usagef("--load and --target-load exclude each other; give one")
	case !opts.factorSet && !opts.targetSet:
		return usagef("give the load change: --load FACTOR or --target-load LOAD")
	case opts.factorSet && !(opts.factor > 0):
		return usagef("--load %v: the factor must be a positive number", opts.factor)
	case opts.targetSet && !(opts.target > 0):
		return usagef("--target-load %v: the load must be a positive number", opts.target)
	case opts.factor < 0 || math.IsNaN(opts.factor) || math.IsInf(opts.factor, 0):
		return usagef("--load %v: the factor must be a positive number", opts.factor)
	case opts.target < 0 || math.IsNaN(opts.target) || math.IsInf(opts.target, 0):
		return usagef("--target-load %v: the load must be a positive number", opts.target)
	case (opts.cap || opts.pow2) && m != scale.Size:
		return usagef("--cap and --pow2 apply to --by size only")
	}
	if opts.out == "" {
		return usagef("-o FILE is required (- for standard output)")
	}
	if _, err := outputFormat(opts.out, opts.to); err != nil {
		return err
	}
	outs := []output{{"-o", opts.out}}
	if err := checkOutputs([]string{name}, outs...); err != nil {
		return err
	}
	so := scale.Options{Method: m, Factor: opts.factor, Cap: opts.cap, PowerOfTwo: opts.pow2}
	var t *trace.Trace
	var r *scale.Result
	if inputFormat(name) == formatSWF && name != "-" {
		t, r, err = scaleStream(ctx, name, opts, so, stdout)
	} else {
		// Standard input cannot be read twice; the CSV and Batsim readers
		// read whole traces.
		t, r, err = scaleWhole(ctx, name, opts, so, stdout)
	}
	var oe *scale.OversizeError
	if errors.As(err, &oe) {
		return fmt.Errorf("%s: %w; nothing written: pass --cap to cap them at the machine, a smaller factor, or another --by", name, err)
	}
	if err != nil {
		return err
	}
	rep := scaleReport{Version: version.String(), Input: name, SHA256: t.SHA256, Output: opts.out, Procs: t.Procs,
		TargetLoad: opts.target, Result: r}
	sw := summaryWriter(stdout, stderr, outs...)
	if opts.json {
		return writeJSON(sw, rep)
	}
	return printScale(sw, stderr, &rep)
}

// scaleWhole scales the log held whole and writes it.
func scaleWhole(ctx context.Context, name string, opts scaleOptions, so scale.Options, stdout io.Writer) (*trace.Trace, *scale.Result, error) {
	t, err := opts.trace.load(name)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if opts.targetSet {
		if so.Factor, err = scale.FactorFor(t, opts.target); err != nil {
			return nil, nil, err
		}
	}
	r, err := scale.Apply(t, so)
	if err != nil {
		return nil, nil, err
	}
	return t, r, writeTrace(r.Trace, opts.out, opts.to, stdout, t)
}

// scaleStream scales a log file read twice, job by job (scale.Stream): the
// first pass measures it, the second scales each job and writes it at once.
// The output's header, which reports the scaled load, comes after the jobs
// (through a scratch file).
func scaleStream(ctx context.Context, name string, opts scaleOptions, so scale.Options, stdout io.Writer) (*trace.Trace, *scale.Result, error) {
	topt := trace.Options{Procs: opts.trace.procs}
	s, err := openScanner(name, topt)
	if err != nil {
		return nil, nil, scanError(err)
	}
	defer s.Close()
	st := scale.NewStream(name, s.Header(), s.Procs(), so)
	if err := scanJobs(s, func(j *trace.Job) error {
		st.Measure(j)
		return nil
	}); err != nil {
		return nil, nil, err
	}
	t, err := scanDone(s)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	factor := so.Factor
	if opts.targetSet {
		if factor, err = st.FactorFor(opts.target); err != nil {
			return nil, nil, err
		}
	}
	if err := st.Start(factor); err != nil {
		return nil, nil, err
	}
	o, err := createTraceOutput(opts.out, opts.to, stdout, traceSource{name: t.Name, procs: t.Procs, in: t.Name, inSHA: t.SHA256})
	if err != nil {
		return nil, nil, err
	}
	defer o.abort()
	s2, err := openScanner(name, topt)
	if err != nil {
		return nil, nil, scanError(err)
	}
	defer s2.Close()
	if err := scanJobs(s2, func(j *trace.Job) error {
		if err := st.Scale(j); err != nil {
			return err
		}
		return o.WriteJob(j)
	}); err != nil {
		return nil, nil, err
	}
	t2, err := s2.Trace()
	if err != nil {
		return nil, nil, err
	}
	if t2.SHA256 != t.SHA256 {
		return nil, nil, fmt.Errorf("%s: the file changed while being read; nothing written", name)
	}
	r, h, err := st.Finish(&t.Header)
	if err != nil {
		return nil, nil, err
	}
	if err := o.setHeader(h); err != nil {
		return nil, nil, err
	}
	return t, r, o.finish("")
}

func printScale(w, warn io.Writer, r *scaleReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format+"\n", a...) }
	p("input\t%s (%d processors)", r.Input, r.Procs)
	p("method\t%s, factor %.6g", r.Method, r.Factor)
	if r.TargetLoad != 0 {
		p("target\toffered load %.4f", r.TargetLoad)
	}
	p("offered load\t%.4f -> %.4f (x%.6g)", r.LoadBefore, r.LoadAfter, r.Achieved)
	if r.Capped > 0 {
		p("capped\t%d jobs at the machine", r.Capped)
	}
	p("output\t%s", r.Output)
	if err := tw.Flush(); err != nil {
		return err
	}
	var lines []string
	for _, x := range r.Warnings {
		lines = append(lines, fmt.Sprintf("warning: %s: %s", x.Property, x.Text))
	}
	if len(lines) > 0 {
		_, err := fmt.Fprintln(warn, strings.Join(lines, "\n"))
		return err
	}
	return nil
}
