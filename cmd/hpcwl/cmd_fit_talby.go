package main

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/gen/talby"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/userclass"
	"github.com/spf13/cobra"
)

// fitTalbyOptions are the options of `hpcwl fit talby`.
type fitTalbyOptions struct {
	trace traceFlags
	seed  uint64
	clip  float64
	sclip float64
	json  bool
	out   string
	// thesis keeps the thesis' rules where our extensions differ.
	thesis bool
}

func newFitTalbyCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts fitTalbyOptions
	cmd := &cobra.Command{
		Use:   "talby TRACE",
		Short: "Fit Talby's user and session model to a log",
		Long: `Fit talby estimates every parameter of the generative model of Talby's thesis
(User Modeling of Parallel Workloads, Hebrew University 2006, chapters 11-13)
from one log: sessions (20-minute think time) and users are found and
classified as "hpcwl classes" does; the machine's median CPU work and CPU
load are the log's; new users per week, users at start-up, user classes,
inactivity, sessions per week, session-class chains and the job layer of
each session class are fitted (see the gen/talby package documentation for
the methods). One log cannot give the slopes of Eq. 13 and Table 30 in Cm and
CL: the published slopes are kept and the levels fitted. Parts without
enough data keep the published values, and the notes say which; a log too
short for a whole layer is an error naming the layer.

Two rules of the thesis do not let a fitted model give back its log; the
fitted parameters select our extensions instead, and --thesis-rules keeps the
thesis' rules: start-up users get the week of activity of Eqs. 16-17 and the
inactivity of new users of that age (the extension fits their activity to
the log's users first seen before week 12, new users of those weeks removed
in expectation), and a collision redraws whole sessions, as Listing 5 does
(the extension redraws only their start times, so that long sessions are
not lost more often than short ones). Both rules' parameters are written
either way; "generate talby --startup-activity" and "--placement" choose.
The job layer keeps each session class's runtimes as the log's quantiles.

The parameters are written as JSON with -o, with the log's name and SHA-256,
ready for "hpcwl generate talby --params FILE".` + exitStatusHelp,
		Example: `  hpcwl fit talby builtin:KTH-SP2 -o kth-talby.json
  hpcwl generate talby --params kth-talby.json --weeks 52 -o kth-talby.swf`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runFitTalby(opts, args[0], stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.Uint64Var(&opts.seed, "seed", 1, "seed of the k-means of the session and user classes")
	f.Float64Var(&opts.clip, "clip", 0, "limit the users' z-scores to this many standard deviations before k-means, as in classes (0: no limit)")
	f.Float64Var(&opts.sclip, "session-clip", 0, "limit the sessions' z-scores likewise (0: no limit)")
	f.BoolVar(&opts.json, "json", false, "print the fit report as JSON")
	f.BoolVar(&opts.thesis, "thesis-rules", false, "select the thesis' start-up activity (Eqs. 16-17) and placement (Listing 5) rather than our extensions")
	f.StringVarP(&opts.out, "output", "o", "", "write the fitted parameters (JSON) to this file; - for stdout")
	return cmd
}

func runFitTalby(opts fitTalbyOptions, name string, stdout, stderr io.Writer) error {
	if opts.clip < 0 || opts.sclip < 0 {
		return usagef("--clip and --session-clip must be >= 0 (0: no limit), got %v and %v", opts.clip, opts.sclip)
	}
	outs := []output{{"-o", opts.out}}
	if err := checkOutputs([]string{name}, outs...); err != nil {
		return err
	}
	t, err := opts.trace.load(name)
	if err != nil {
		return err
	}
	p, rep, err := talby.Fit(t, talby.FitOptions{Procs: opts.trace.procs, Seed: opts.seed, Clip: opts.clip, SessionClip: opts.sclip, ThesisRules: opts.thesis})
	if err != nil {
		return fmt.Errorf("fitting the Talby model to %s: %w", name, err)
	}
	p.Source = &talby.Source{Log: name, SHA256: t.SHA256, Version: "hpcwl " + version.String(), Command: commandLine(), Weeks: rep.Weeks}
	if opts.out != "" {
		if err := writeOutput(opts.out, stdout, func(w io.Writer) error { return talby.WriteParams(w, p) }); err != nil {
			return err
		}
	}
	sw := summaryWriter(stdout, stderr, outs...)
	if opts.json {
		return writeJSON(sw, struct {
			Version string           `json:"hpcwl_version"`
			Trace   string           `json:"trace"`
			SHA256  string           `json:"sha256,omitempty"`
			Report  *talby.FitReport `json:"report"`
			Params  talby.Params     `json:"params"`
		}{version.String(), name, t.SHA256, rep, p})
	}
	tw := tabwriter.NewWriter(sw, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "log\t%s: %d jobs, %d full weeks, %d users, %d sessions\n", name, rep.Jobs, rep.Weeks, rep.Users, rep.Sessions)
	fmt.Fprintf(tw, "machine\t%d processors, Cm %.0f s, CL %.3f\n", p.Machine.Procs, p.Machine.Cm, p.Machine.CL)
	fmt.Fprintf(tw, "new users\tlog-logistic mu %.3f sigma %.3f (published 1.25, 0.2214) over %d weeks from week %d\n", p.NewUsers.Mu, p.NewUsers.Sigma, len(rep.NewUsers), talby.SteadyWeek)
	fmt.Fprintf(tw, "start-up users\t%.1f (Eq. 13 intercept %.2f with the published slope %.2f; published mean at this CL %.1f)\n",
		rep.StartupUsers, p.StartupUsers.Intercept, p.StartupUsers.Slope, -543.37*p.Machine.CL+481.77)
	sh := p.UserClassShares()
	fmt.Fprintf(tw, "user classes\t")
	for c := range talby.NumUserClasses {
		fmt.Fprintf(tw, "%s %d (%.2f)  ", userclass.Class(c), rep.UserClasses[c], sh[c])
	}
	fmt.Fprintf(tw, "repeat %.3f (published 0.10)\n", p.UserClasses.Repeat)
	for c := range talby.NumUserClasses {
		in, g := p.Inactivity.Class[c], p.SessionsPerWeek.Class[c]
		fmt.Fprintf(tw, "%s\tinactivity a %.4f b %.4f; sessions/week k %.4f%+.5f·WoA sigma %.3f%+.4f·WoA, week 1 k %.3f sigma %.3f (%d users with a known first week)\n",
			userclass.Class(c), in.A, in.B, g.KIntercept, g.KSlope, g.SigmaIntercept, g.SigmaSlope, g.FirstK, g.FirstSigma, rep.KnownUsers[c])
	}
	fmt.Fprintf(tw, "session classes\t")
	for c := range talby.NumSessionClasses {
		w := p.SessionClasses.WoA[c]
		fmt.Fprintf(tw, "%s %d (%.4f%+.5f·WoA)  ", sessionclass.Class(c), rep.SessionClasses[c], w.Intercept, w.Slope)
	}
	fmt.Fprintln(tw)
	for c, j := range p.Jobs {
		fmt.Fprintf(tw, "%s jobs\tZipf a %.3f on 1..%d, repeat %.3f, %d sizes, runtime median %.0f s (sd session %.2f sequence %.2f job %.2f), gaps 0 %.2f else median %.0f s\n",
			sessionclass.Class(c), j.Jobs.A, j.Jobs.Max, j.Repeat, len(j.Sizes), math.Exp(j.Runtime.Mu), j.Runtime.Session, j.Runtime.Sequence, j.Runtime.Job, j.Gap.Zero, math.Exp(j.Gap.Mu))
	}
	if in, g := p.StartupUsers.Inactivity, p.StartupUsers.Sessions; in != nil && g != nil {
		rule := "fitted, selected"
		if !p.StartupFitted() {
			rule = "fitted, not selected: the thesis' Eqs. 16-17"
		}
		fmt.Fprintf(tw, "start-up activity	%s:", rule)
		for c := range talby.NumUserClasses {
			fmt.Fprintf(tw, "  %s inactivity %.3f·ln x%+.3f, sessions k %.3f sigma %.2f", userclass.Class(c), in[c].A, in[c].B, g[c].KIntercept, g[c].SigmaIntercept)
		}
		fmt.Fprintln(tw)
	}
	redraw := p.Placement.Redraw
	if redraw == "" {
		redraw = talby.PlacementSessions
	}
	fmt.Fprintf(tw, "placement	on a collision redraw %s\n", redraw)
	for _, n := range p.Notes {
		fmt.Fprintf(tw, "note\t%s\n", n)
	}
	return tw.Flush()
}
