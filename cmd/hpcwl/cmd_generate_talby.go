package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/extswf"
	"github.com/hpcwl/hpcwl/gen/talby"
	"github.com/hpcwl/hpcwl/internal/inputlimit"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/metamodel"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/spf13/cobra"
)

// generateTalbyOptions are the options of `hpcwl generate talby`.
type generateTalbyOptions struct {
	params    string
	procs     int
	cm, cl    float64
	weeks     int
	seed      uint64
	instances int
	estimates string
	maxEst    string
	json      bool
	out       string
	to        string
	// startup and placement override the parameters' rules.
	startup, placement string
	// extJobs, extSessions and extUsers name Talby's extended formats.
	extJobs, extSessions, extUsers string
}

func newGenerateTalbyCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts generateTalbyOptions
	cmd := &cobra.Command{
		Use:   "talby",
		Short: "Generate users, sessions and jobs from Talby's user and session model",
		Long: `Generate talby draws a workload from the generative model of Talby's thesis
(User Modeling of Parallel Workloads, Hebrew University 2006, chapters 11-13):
users active at start-up and new users every week, each of one of four
classes; every week each user is inactive or has a number of sessions,
each of one of five classes drawn from the previous session's, placed in the
week at least 20 minutes apart by rejection (Listing 5); each session's jobs
come from its class's job layer. The defaults are the published parameters
(Tables 30-36, Eqs. 13-18) with a job layer derived from Table 21; --params
reads a file written by "hpcwl fit talby -o" (or edited by hand).

The model's inputs are the machine size, the median CPU work Cm and the CPU
load CL (section 11.1). --procs alone sets Cm and CL from Table 28; --cm and
--cl set them directly. Jobs carry user IDs; the jobs of a session are
submitted less than 20 minutes after the previous one ends and a user's
sessions are at least 20 minutes apart, so Talby's rule (a think time of 20
minutes or more starts a session, as "hpcwl classes" applies it) finds the
generated sessions, and "hpcwl sessions --method last --threshold 20m" nearly
all of them (jobs do not wait: wait = -1).

The thesis models no runtime estimates: requested times are -1 unless
--estimates tsafrir draws them from the model of Tsafrir, Etsion and
Feitelson (JSSPP 2005), as "generate lublin" does.

The thesis advises many instances averaged rather than one (section 14.1):
--instances N writes N workloads, OUT-001.swf ... OUT-N.swf with seeds
SEED ... SEED+N-1, and prints the workload variables of Talby's Tables 2-3
averaged over them.

Parameters from "fit talby" select two extensions of ours that make the
generated workload come back like the fitted log: start-up users active as
the log's were (--startup-activity fitted; "thesis" gives them Eqs. 16-17's
week of activity) and sessions placed by redrawing only their start times
(--placement starts; "sessions" redraws whole sessions, as Listing 5 does,
which favours short sessions). The published parameters use the thesis'
rules.

SWF fields 17 and 18 carry each session's job order: a job submitted after
an earlier job of its session ended names the one that ended last and the
think time from its end (-1 for a session's first burst). --ext-jobs,
--ext-sessions and --ext-users FILE also write the jobs, sessions and users in
Talby's extended formats (appendix D, as "hpcwl classes" writes them) with
the generated session and user classes; with --instances, one file per
instance, named like the workloads.

The summary says how many users were created and how many have at least one
job: users who are never active, or whose sessions could not be placed,
have none.

The same options and seed always give the same jobs. The output header records
the model, parameters and seed.` + exitStatusHelp,
		Example: `  hpcwl generate talby --weeks 52 --seed 1 -o talby.swf
  hpcwl generate talby --procs 1024 --weeks 104 -o big.swf.gz
  hpcwl generate talby --cm 600 --cl 0.65 --procs 400 --weeks 26 -o heavy.swf
  hpcwl generate talby --weeks 26 --instances 3 -o inst.swf
  hpcwl generate talby --weeks 26 --estimates tsafrir -o with-estimates.swf
  hpcwl generate talby --weeks 26 -o t.swf --ext-sessions t.sessions --ext-users t.users
  hpcwl fit talby builtin:KTH-SP2 -o kth.json
  hpcwl generate talby --params kth.json --weeks 48 --startup-activity thesis -o kth-thesis.swf`,
		Args: exactArgs(0, "no arguments"),
		RunE: action(func(cmd *cobra.Command, _ []string) error {
			return runGenerateTalby(cmd, opts, stdout, stderr)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.params, "params", "", "parameter file (JSON) from fit talby; default: the published parameters")
	f.IntVar(&opts.procs, "procs", 0, fmt.Sprintf("machine size; without --cm and --cl, they follow from Table 28 (default: the parameters', %d for the published ones)", talby.DefaultProcs))
	f.Float64Var(&opts.cm, "cm", 0, "median CPU work Cm, s (default: the parameters')")
	f.Float64Var(&opts.cl, "cl", 0, "CPU load CL, e.g. 0.6 (default: the parameters')")
	f.IntVar(&opts.weeks, "weeks", 52, "number of weeks to generate")
	f.Uint64Var(&opts.seed, "seed", 1, "random seed")
	f.IntVar(&opts.instances, "instances", 1, "number of workloads to generate, seeds SEED, SEED+1, ...")
	f.StringVar(&opts.estimates, "estimates", "none", "requested times (field 9): none (-1), or tsafrir (the model of Tsafrir, Etsion and Feitelson 2005)")
	f.StringVar(&opts.maxEst, "max-estimate", "", "with --estimates tsafrir: the largest requested time, e.g. 18h, 2d (default: the longest runtime rounded up to an hour)")
	f.BoolVar(&opts.json, "json", false, "print the summary as JSON")
	f.StringVarP(&opts.out, "output", "o", "-", "output file (.swf, .csv, .json, optionally .gz; .parquet); - for stdout")
	f.StringVar(&opts.to, "to", "", "output format: swf, csv, batsim or parquet (default: from the extension)")
	f.StringVar(&opts.startup, "startup-activity", "", "start-up users' activity: thesis (Eqs. 16-17) or fitted (needs parameters from fit talby) (default: the parameters')")
	f.StringVar(&opts.placement, "placement", "", "on a collision redraw whole sessions (Listing 5) or only their starts (default: the parameters')")
	f.StringVar(&opts.extJobs, "ext-jobs", "", "also write the jobs in Talby's extended job format (appendix D) to this file")
	f.StringVar(&opts.extSessions, "ext-sessions", "", "also write the sessions, with their generated classes, in Talby's extended session format to this file")
	f.StringVar(&opts.extUsers, "ext-users", "", "also write the users, with their generated classes, in Talby's extended user format to this file")
	addBatsimVersionFlag(cmd)
	positiveFlags(cmd, "procs", "cm", "cl", "weeks", "instances", "max-estimate")
	return cmd
}

// talbyParams returns the parameters of generate talby: the file's or the
// published ones, with the machine options applied.
func talbyParams(cmd *cobra.Command, opts generateTalbyOptions) (talby.Params, error) {
	var p talby.Params
	if opts.params != "" {
		data, err := inputlimit.ReadFile(opts.params, inputlimit.MaxParamFile)
		if err != nil {
			return p, err
		}
		if p, err = talby.ReadParams(bytes.NewReader(data)); err != nil {
			return p, fmt.Errorf("%s: %w", opts.params, err)
		}
		sum := sha256.Sum256(data)
		runInputs = append(runInputs, inputRecord{Name: opts.params, SHA256: hex.EncodeToString(sum[:])})
	} else {
		var err error
		if p, err = talby.DefaultParams(talby.DefaultProcs); err != nil {
			return p, err
		}
	}
	if opts.procs > 0 {
		p.Machine.Procs = opts.procs
		if !cmd.Flags().Changed("cm") && !cmd.Flags().Changed("cl") {
			pr, err := metamodel.FromMachine(float64(opts.procs))
			if err != nil {
				return p, usagef("--procs %d: %v; give --cm and --cl", opts.procs, err)
			}
			p.Machine.Cm, p.Machine.CL = pr.Cm, pr.CL
		}
	}
	if opts.cm > 0 {
		p.Machine.Cm = opts.cm
	}
	if opts.cl > 0 {
		p.Machine.CL = opts.cl
	}
	switch opts.startup {
	case "":
	case talby.StartupThesis, talby.StartupFitted:
		if opts.startup == talby.StartupFitted && p.StartupUsers.Inactivity == nil {
			return p, usagef("--startup-activity fitted needs parameters from fit talby (--params); the published ones have only the thesis' rule")
		}
		p.StartupUsers.Activity = opts.startup
	default:
		return p, usagef("--startup-activity must be thesis or fitted, got %q", opts.startup)
	}
	switch opts.placement {
	case "":
	case talby.PlacementSessions, talby.PlacementStarts:
		p.Placement.Redraw = opts.placement
	default:
		return p, usagef("--placement must be sessions or starts, got %q", opts.placement)
	}
	return p, p.Validate()
}

// talbyWarnings returns the ways the run leaves the data range of the
// thesis (Talby (2006), section 14.1).
func talbyWarnings(p talby.Params, weeks int) []string {
	var w []string
	if weeks > 104 {
		w = append(w, fmt.Sprintf("%d weeks: the thesis advises at most two years per workload (several one-year workloads rather than one long one)", weeks))
	}
	if m := p.Machine.Procs; m < 100 || m > 2048 {
		w = append(w, fmt.Sprintf("machine size %d is outside the data range of the model (100-2048 processors)", m))
	}
	if cl := p.Machine.CL; cl < 0.4 || cl > 0.8 {
		w = append(w, fmt.Sprintf("CPU load %.3g is outside the data range of the model (40-80%%)", cl))
	}
	if a := p.MeanStartupUsers(); a < p.StartupUsers.Noise {
		w = append(w, fmt.Sprintf("the expected users at start-up (Eq. 13) are %.1f, within the noise of 0: the load is too high for the model", a))
	}
	return w
}

// instanceName returns OUT with "-NNN" before its extensions.
func instanceName(out string, i, n int) string {
	dir, base := filepath.Split(out)
	ext := ""
	for _, e := range []string{".gz", ".swf", ".csv", ".json", ".parquet"} {
		if strings.HasSuffix(strings.TrimSuffix(base, ext), e) {
			ext = e + ext
		}
	}
	stem := strings.TrimSuffix(base, ext)
	width := len(fmt.Sprint(n))
	width = max(width, 3)
	return filepath.Join(dir, fmt.Sprintf("%s-%0*d%s", stem, width, i+1, ext))
}

func runGenerateTalby(cmd *cobra.Command, opts generateTalbyOptions, stdout, stderr io.Writer) error {
	if opts.weeks < 1 || opts.weeks > talby.MaxWeeks {
		return usagef("--weeks must be in 1..%d, got %d", talby.MaxWeeks, opts.weeks)
	}
	if opts.instances < 1 || opts.instances > 10000 {
		return usagef("--instances must be in 1..10000, got %d", opts.instances)
	}
	if opts.instances > 1 && opts.out == "-" {
		return usagef("--instances %d writes one file per instance: give -o FILE", opts.instances)
	}
	maxEst, err := estimateFlags(opts.estimates, opts.maxEst)
	if err != nil {
		return err
	}
	if _, err := outputFormat(opts.out, opts.to); err != nil {
		return err
	}
	exts := []struct {
		flag, name string
		write      func(io.Writer, *extswf.Input) error
	}{{"--ext-jobs", opts.extJobs, extswf.WriteJobs}, {"--ext-sessions", opts.extSessions, extswf.WriteSessions}, {"--ext-users", opts.extUsers, extswf.WriteUsers}}
	// name returns the file of instance i for the output name.
	name := func(n string, i int) string {
		if opts.instances > 1 && n != "" {
			return instanceName(n, i, opts.instances)
		}
		return n
	}
	var outs []output
	for i := range opts.instances {
		outs = append(outs, output{"-o", name(opts.out, i)})
		for _, e := range exts {
			if opts.instances > 1 && e.name == "-" {
				return usagef("--instances %d writes one file per instance: give %s FILE", opts.instances, e.flag)
			}
			outs = append(outs, output{e.flag, name(e.name, i)})
		}
	}
	if err := checkOutputs([]string{opts.params}, outs...); err != nil {
		return err
	}
	p, err := talbyParams(cmd, opts)
	if err != nil {
		return err
	}
	for _, w := range talbyWarnings(p, opts.weeks) {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	cfg := talby.Config{Weeks: opts.weeks, Seed: opts.seed}
	if opts.instances == 1 && !opts.json && opts.extJobs == "" && opts.extSessions == "" && opts.extUsers == "" && streamOutputs {
		// No summary or extended format (they need the whole workload):
		// each job is written as its order is known.
		return streamTalby(p, cfg, opts, maxEst, stdout, stderr)
	}
	write := func(i int, w *talby.Workload, c talby.Config) error {
		out := name(opts.out, i)
		h := w.Header(p, c)
		jobs := w.SWF()
		if opts.estimates == "tsafrir" && len(jobs) > 0 {
			// A stream of its own, so that the jobs of a seed do not change.
			run := make([]int64, len(jobs))
			for i := range jobs {
				run[i] = jobs[i].Runtime
			}
			est, note, err := tsafrirEstimates(run, maxEst, c.Seed, stderr)
			if err != nil {
				return err
			}
			for i := range jobs {
				jobs[i].ReqTime = est[i]
			}
			h.AddNote(note)
		}
		h.Add("Note", fmt.Sprintf("generated by hpcwl %s: generate talby --seed %d --weeks %d", version.String(), c.Seed, c.Weeks))
		t, err := swfTrace(h, jobs)
		if err != nil {
			return err
		}
		if err := writeTrace(t, out, opts.to, stdout); err != nil {
			return err
		}
		if opts.extJobs != "" || opts.extSessions != "" || opts.extUsers != "" {
			r, err := w.Labels(t, p)
			if err != nil {
				return err
			}
			var eh swf.Header
			stampHeader(&eh)
			eh.AddNote(fmt.Sprintf("Generated by Talby's model (%s), seed %d, %d weeks: session and user classes as generated", talby.Version, c.Seed, c.Weeks))
			in := &extswf.Input{Traces: []*trace.Trace{t}, Report: r, Header: eh}
			for _, e := range exts {
				if e.name == "" {
					continue
				}
				if err := writeOutput(name(e.name, i), stdout, func(wr io.Writer) error { return e.write(wr, in) }); err != nil {
					return err
				}
			}
		}
		dest := out
		if out == "-" {
			dest = "standard output"
		}
		fmt.Fprintf(stderr, "wrote %d jobs (%d sessions; %d users with jobs of %d created, %d of them at start-up) to %s\n",
			len(w.Jobs), w.Sessions, w.UsersWithJobs, w.Users, w.StartupUsers, dest)
		return nil
	}
	ins, err := talby.Instances(p, cfg, opts.instances, write)
	if err != nil {
		return err
	}
	sw := summaryWriter(stdout, stderr, outs...)
	avg := talby.Average(ins)
	if opts.json {
		return writeJSON(sw, struct {
			Version   string                  `json:"hpcwl_version"`
			Weeks     int                     `json:"weeks"`
			Instances []talby.Instance        `json:"instances"`
			Average   map[string]talby.Spread `json:"average"`
		}{version.String(), opts.weeks, ins, avg})
	}
	if opts.instances == 1 {
		return nil
	}
	tw := tabwriter.NewWriter(sw, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "variable\tmean\tsd\t\n")
	for _, k := range talby.InstanceVariables {
		a := avg[k]
		fmt.Fprintf(tw, "%s\t%.4g\t%.3g\t\n", k, a.Mean, a.SD)
	}
	return tw.Flush()
}

// streamTalby writes one workload of generate talby job by job
// (talby.Stream), with the header after the jobs (held in a scratch file
// until the counts are known). With --estimates tsafrir a first run of
// the generator gives the estimate model the runtimes (8 bytes per job and
// the model's 24), as for generate lublin.
func streamTalby(p talby.Params, cfg talby.Config, opts generateTalbyOptions, maxEst int64, stdout, stderr io.Writer) error {
	var est []int64
	var estNote string
	if opts.estimates == "tsafrir" {
		var run []int64
		if _, err := talby.Stream(p, cfg, func(j *swf.Job) error {
			run = append(run, j.Runtime)
			return nil
		}); err != nil {
			return err
		}
		if len(run) > 0 {
			var err error
			if est, estNote, err = tsafrirEstimates(run, maxEst, cfg.Seed, stderr); err != nil {
				return err
			}
		}
	}
	out, err := createTraceOutput(opts.out, opts.to, stdout, traceSource{procs: p.Machine.Procs})
	if err != nil {
		return err
	}
	defer out.abort()
	n := 0
	w, err := talby.Stream(p, cfg, func(s *swf.Job) error {
		if est != nil {
			s.ReqTime = est[n]
		}
		n++
		tj, err := trace.FromSWF(s)
		if err != nil {
			return fmt.Errorf("job %d: %w", s.ID, err)
		}
		return out.WriteJob(&tj)
	})
	if err != nil {
		return err
	}
	h := w.Header(p, cfg)
	if estNote != "" {
		h.AddNote(estNote)
	}
	h.Add("Note", fmt.Sprintf("generated by hpcwl %s: generate talby --seed %d --weeks %d", version.String(), cfg.Seed, cfg.Weeks))
	if err := out.setHeader(h); err != nil {
		return err
	}
	if err := out.finish(""); err != nil {
		return err
	}
	dest := opts.out
	if dest == "-" {
		dest = "standard output"
	}
	fmt.Fprintf(stderr, "wrote %d jobs (%d sessions; %d users with jobs of %d created, %d of them at start-up) to %s\n",
		n, w.Sessions, w.UsersWithJobs, w.Users, w.StartupUsers, dest)
	return nil
}
