package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"

	"github.com/hpcwl/hpcwl/bursty"
	"github.com/hpcwl/hpcwl/internal/inputlimit"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/spf13/cobra"
)

// fitMinhOptions are the options of `hpcwl fit minh`.
type fitMinhOptions struct {
	trace   traceFlags
	delta   int64
	perUser bool
	allJobs bool
	alloc   bool
	logRun  bool
	calib   bool
	gmax    int
	out     string
}

func newFitMinhCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts fitMinhOptions
	cmd := &cobra.Command{
		Use:   "minh TRACE",
		Short: "Fit the Minh-Wolters bursty bag-of-tasks model to a log",
		Long: `Fit minh fits the model of Minh and Wolters to the successful jobs of a log:
runtime classes by a 1-D Gaussian mixture chosen by BIC among 1..--gmax
components and the equal (E) and unequal (V) variance models (on runtimes in
seconds, or ln(runtime+1) with --log-runtime); parallelism labels
round(log2(jobs in the group)) + 1 per processor count (requested processors,
or allocated with --allocated); the label table (jobs per runtime label and
parallelism label, with the processor counts of each cell); and the Zipf
exponent of the sizes of all bags of tasks (--delta, single jobs included),
by maximum likelihood, or with --calibrate-zipf the exponent with which the
model, run on the log's own arrivals, puts the same fraction of jobs in bags
of two or more as the log (bags also end at gaps over Δ, so realised sizes
fall short of the drawn ones); and the multifractal wavelet model of the
arrivals (bins of about 60 s). The parameters are written as JSON with -o (standard
output by default), with the log's name and SHA-256, ready for
"hpcwl generate minh --params FILE".` + exitStatusHelp,
		Example: `  hpcwl fit minh HPC2N-2002-2.2-cln.swf.gz -o hpc2n-minh.json
  hpcwl generate minh --params hpc2n-minh.json --count 100000 -o synthetic.swf`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runFitMinh(opts, args[0], stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.Int64Var(&opts.delta, "delta", 100, "BoT time parameter Δ in seconds (>= 0)")
	f.BoolVar(&opts.perUser, "per-user", false, "bags of tasks contiguous only within each user's jobs")
	f.BoolVar(&opts.allJobs, "all-jobs", false, "use jobs of every status, not only the successful ones")
	f.BoolVar(&opts.alloc, "allocated", false, "parallelism by allocated instead of requested processors")
	f.BoolVar(&opts.logRun, "log-runtime", false, "fit the runtime mixture to ln(runtime+1) instead of seconds")
	f.IntVar(&opts.gmax, "gmax", 9, "largest number of mixture components tried")
	f.BoolVar(&opts.calib, "calibrate-zipf", false, "choose the Zipf exponent so that the model, on the log's arrivals, puts as many jobs in bags as the log")
	f.StringVarP(&opts.out, "output", "o", "-", "parameter file (JSON); - for stdout")
	positiveFlags(cmd, "gmax")
	return cmd
}

func runFitMinh(opts fitMinhOptions, name string, stdout, stderr io.Writer) error {
	if opts.delta < 0 {
		return usagef("--delta must be >= 0 seconds, got %d", opts.delta)
	}
	if opts.gmax < 1 || opts.gmax > 30 {
		return usagef("--gmax must be in 1..30, got %d", opts.gmax)
	}
	if err := checkOutputs([]string{name}, output{"-o", opts.out}); err != nil {
		return err
	}
	t, err := opts.trace.load(name)
	if err != nil {
		return err
	}
	o := bursty.FitOptions{Options: bursty.DefaultOptions(), LogRuntime: opts.logRun, GMax: opts.gmax, CalibrateZipf: opts.calib}
	o.Delta, o.AllJobs, o.Allocated = opts.delta, opts.allJobs, opts.alloc
	if opts.perUser {
		o.Contiguity = bursty.PerUser
	}
	m, err := bursty.Fit(t, o)
	if err != nil {
		return fmt.Errorf("%s: %w%s", name, err, allJobsHint(err, opts.allJobs))
	}
	m.Provenance["hpcwl_version"] = version.String()
	if len(invocation) > 0 {
		m.Provenance["command"] = shellJoin(invocation)
	}
	m.Provenance["contiguity"] = o.Contiguity.String()
	fmt.Fprintf(summaryWriter(stdout, stderr, output{"-o", opts.out}), "%d jobs: %d runtime classes (%s, %s runtimes), %d parallelism labels, %d label cells, Zipf exponent %.4f (largest bag %d)\n",
		m.Jobs, m.Runtime.G, m.Runtime.Variance, m.Runtime.Space, m.Labels, len(m.Cells), m.ZipfAlpha, m.ZipfMax)
	return writeOutput(opts.out, stdout, m.Write)
}

// generateMinhOptions are the options of `hpcwl generate minh`.
type generateMinhOptions struct {
	params   string
	arrivals string
	process  string
	jobsSet  bool
	jobs     int
	seed     uint64
	procs    int
	out      string
	to       string
}

func newGenerateMinhCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts generateMinhOptions
	cmd := &cobra.Command{
		Use:   "minh",
		Short: "Generate jobs from the Minh-Wolters bursty bag-of-tasks model",
		Long: `Generate minh draws jobs from a model fitted by "hpcwl fit minh" (Algorithms 1
and 2 of Minh and Wolters). Arrivals (--arrival-process): "mwm" (the default
when the parameter file has one) draws bin counts from the multifractal
wavelet model fitted to the log (Haar cascade with one symmetric Beta per
scale, standing in for the paper's unpublished modification of MWM) over the
log's span, the rate scaled to --count, and places each bin's arrivals
uniformly; "poisson" uses a Poisson process with the log's mean
inter-arrival time. --arrivals TRACE takes the arrival times of the
successful jobs of a log instead (one synthetic job per arrival, the paper's
way of checking the runtime and processor model).

A job arriving at most Δ after the previous one repeats its runtime and
processors until the bag reaches a size drawn from the fitted Zipf law;
otherwise a runtime class is drawn by the mixture weights, a parallelism
label by the label table, the runtime from the class's Gaussian (drawn again
while negative) and the processors from the cell's processor counts. The
same parameters and seed give the same jobs.` + exitStatusHelp,
		Example: `  hpcwl generate minh --params hpc2n-minh.json --count 100000 --seed 2 -o synthetic.swf
  hpcwl generate minh --params hpc2n-minh.json --arrivals HPC2N-2002-2.2-cln.swf.gz -o model.swf`,
		Args: exactArgs(0, "no arguments"),
		RunE: action(func(cmd *cobra.Command, _ []string) error {
			opts.jobsSet = cmd.Flags().Changed("count")
			return runGenerateMinh(opts, stdout, stderr)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.params, "params", "", `parameter file (JSON) written by "hpcwl fit minh" (required)`)
	f.IntVar(&opts.jobs, "count", 10000, "number of jobs (with MWM or Poisson arrivals)")
	f.StringVar(&opts.process, "arrival-process", "", `"mwm" or "poisson" (default: mwm when the parameters have it)`)
	f.StringVar(&opts.arrivals, "arrivals", "", "take the arrival times of this log's successful jobs instead of Poisson arrivals")
	f.Uint64Var(&opts.seed, "seed", 1, "random seed")
	f.IntVar(&opts.procs, "procs", 0, "machine size written in the header (default: the fitted log's, from the parameter file)")
	f.StringVarP(&opts.out, "output", "o", "-", "output file (.swf, .csv, .json, optionally .gz; .parquet); - for stdout")
	f.StringVar(&opts.to, "to", "", "output format: swf, csv, batsim or parquet (default: from the extension)")
	positiveFlags(cmd, "count", "procs")
	return cmd
}

func runGenerateMinh(opts generateMinhOptions, stdout, stderr io.Writer) error {
	if opts.params == "" {
		return usagef("generate minh needs --params FILE (written by \"hpcwl fit minh\")")
	}
	if opts.jobs < 1 {
		return usagef("--count must be positive, got %d", opts.jobs)
	}
	if _, err := outputFormat(opts.out, opts.to); err != nil {
		return err
	}
	switch opts.process {
	case "", "mwm", "poisson":
	default:
		return usagef("unknown --arrival-process %q; valid: mwm, poisson", opts.process)
	}
	if opts.arrivals != "" && opts.process != "" {
		return usagef("--arrival-process and --arrivals exclude each other")
	}
	if opts.arrivals != "" && opts.jobsSet {
		return usagef("--count and --arrivals exclude each other: the arrivals give the number of jobs")
	}
	if err := checkOutputs([]string{opts.params, opts.arrivals}, output{"-o", opts.out}); err != nil {
		return err
	}
	data, err := inputlimit.ReadFile(opts.params, inputlimit.MaxParamFile)
	if err != nil {
		return err
	}
	m, err := bursty.ReadModel(bytes.NewReader(data))
	if err != nil {
		return usageError{fmt.Errorf("%s: %w", opts.params, err)}
	}
	sum := sha256.Sum256(data)
	runInputs = append(runInputs, inputRecord{Name: opts.params, SHA256: hex.EncodeToString(sum[:])})
	procs := m.MachineProcs
	if opts.procs > 0 {
		procs = opts.procs
	}
	if procs == 0 {
		fmt.Fprintf(stderr, "warning: %s records no machine size (the log had none, or the file was fitted before hpcwl recorded it): the output's header has no MaxProcs; give --procs N\n", opts.params)
	}
	if opts.process == "mwm" && m.Arrivals == nil {
		return usageError{fmt.Errorf("%s: the parameters have no arrival model (field \"arrivals\"); use --arrival-process poisson", opts.params)}
	}
	var arr []float64
	var how string
	switch {
	case opts.arrivals != "":
	case opts.process == "poisson" || m.Arrivals == nil:
		arr, how = m.PoissonSchedule(opts.jobs, opts.seed), "Poisson arrivals"
	default:
		arr, how = m.MWMSchedule(opts.jobs, opts.seed), fmt.Sprintf("MWM arrivals (%d scales, bins of %.1f s)", m.Arrivals.Levels, m.Arrivals.Bin)
	}
	if opts.arrivals != "" {
		at, err := loadAnyTrace(opts.arrivals, trace.Options{})
		if err != nil {
			return err
		}
		sel, _, _ := bursty.Select(at.Jobs, false)
		if len(sel) == 0 {
			return fmt.Errorf("%s: no successful jobs to take arrivals from", opts.arrivals)
		}
		sel = bursty.SortByArrival(sel)
		arr = make([]float64, len(sel))
		for i := range sel {
			arr[i] = float64(sel[i].Submit)
		}
		how = "arrivals of " + opts.arrivals
	}
	var h swf.Header
	h.Add("Version", "2.2")
	h.Add("MaxJobs", strconv.Itoa(len(arr)))
	h.Add("MaxRecords", strconv.Itoa(len(arr)))
	if procs > 0 {
		h.Add("MaxProcs", strconv.Itoa(procs))
	}
	h.AddNote(fmt.Sprintf("generated by hpcwl %s: generate minh --params %s --seed %d, %d jobs, %s", version.String(), opts.params, opts.seed, len(arr), how))
	if lg := m.Provenance["log"]; lg != "" {
		h.AddNote("Minh-Wolters model fitted to " + lg)
	}
	// One job per arrival, written as it is drawn.
	out, err := createTraceOutput(opts.out, opts.to, stdout, traceSource{name: "minh", procs: procs})
	if err != nil {
		return err
	}
	defer out.abort()
	if err := out.setHeader(h); err != nil {
		return err
	}
	if err := m.Stream(arr, opts.seed, out); err != nil {
		return err
	}
	if err := out.finish(""); err != nil {
		return err
	}
	if opts.out != "-" {
		fmt.Fprintf(stderr, "wrote %d jobs to %s (%s)\n", len(arr), opts.out, how)
	}
	return nil
}
