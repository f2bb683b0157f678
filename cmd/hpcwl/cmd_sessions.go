package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/spf13/cobra"
)

func init() { register(newSessionsCommand) }

// sessionsOptions are the options of `hpcwl sessions`.
type sessionsOptions struct {
	trace     traceFlags
	method    string
	threshold string
	cut       string
	reduction string
	perUser   bool
	swfOut    string
	graphOut  string
	graphUser []int
	graphOf   string
	json      bool
}

func newSessionsCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts sessionsOptions
	cmd := &cobra.Command{
		Use:   "sessions TRACE",
		Short: "Identify user sessions, batches and their dependencies",
		Long: `Sessions cuts each user's jobs into sessions (periods of continuous work) and
batches (overlapping jobs inside a session) and prints counts, jobs per session
and batch, session lengths, think times, inter-arrival times, and the statistics
of the dependency graphs that feedback simulation replays.

Methods (Zakay's thesis, ch. 2; Madon et al. 2024):
  arrival       same session while a user's jobs arrive at most THRESHOLD apart
                (default 60m); batches by overlap inside the session
  last, max     think time from the previous job's end (last) or from the
                latest end of all earlier jobs (max): negative joins the batch,
                up to THRESHOLD (default 20m) opens a batch, beyond it a session
  last+cut, max+cut
                the same with every end cut at arrival + CUT (default 1h)
  interarrival  Madon's partitioning: a new session when jobs arrive at least
                THRESHOLD apart; --threshold 0 is his a0 (every job alone),
                60m his a60

The session graph (Madon) links a session to every earlier session of the user
that had finished when it started, with a fictive root for the others; the
batch graph (Zakay, Definition 12) links batches. Both keep the edges of the
transitive reduction by default (--reduction full keeps all).

--swf writes the log with SWF fields 17 and 18 filled in from the batch graph:
the first job of a batch that depends on earlier work names the job whose end
released it and the think time from that end.

--graph writes the session graph (or, with --graph-of batches, the batch
graph) as JSON (FILE.json: nodes with user, job count, first and last submit
and end; edges with think times, -1 for the root) or in Graphviz's DOT
(FILE.dot or FILE.gv: a cluster per user, edges labelled with think times;
render with dot -Tsvg). --graph-user keeps one user's graph (repeatable);
by default the whole log's.

Durations take a unit: 90s, 20m, 1h, 1h30m, 2d.` + exitStatusHelp,
		Example: `  hpcwl sessions builtin:KTH-SP2
  hpcwl sessions builtin:KTH-SP2 --method arrival --threshold 60m --json
  hpcwl sessions builtin:KTH-SP2 --method interarrival --threshold 0
  hpcwl sessions SDSC-BLUE-2000-4.2-cln.swf.gz --method max+cut --threshold 20m --cut 2h
  hpcwl sessions builtin:KTH-SP2 --swf kth-deps.swf
  hpcwl sessions builtin:KTH-SP2 --method interarrival --graph kth-user3.dot --graph-user 3
  hpcwl sessions builtin:KTH-SP2 --method interarrival --graph kth-sessions.json`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runSessions(cmd.Context(), opts, args[0], stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.method, "method", "arrival", "arrival, last, max, last+cut, max+cut, interarrival")
	f.StringVar(&opts.threshold, "threshold", "", "session threshold (default: 60m for arrival and interarrival, 20m otherwise)")
	f.StringVar(&opts.cut, "cut", "", "cut of last+cut and max+cut (default 1h)")
	f.StringVar(&opts.reduction, "reduction", "transitive", "dependency edges kept: transitive, full, recent")
	f.BoolVar(&opts.perUser, "per-user", false, "also list every user's sessions, longest path and arity")
	f.StringVar(&opts.swfOut, "swf", "", "write the log with fields 17-18 (preceding job, think time) to `FILE` (Parquet if it ends in .parquet)")
	f.StringVar(&opts.graphOut, "graph", "", "write the dependency graph to `FILE`: JSON (.json) or Graphviz DOT (.dot, .gv)")
	f.IntSliceVar(&opts.graphUser, "graph-user", nil, "--graph: only this user's graph (repeatable; default every user)")
	f.StringVar(&opts.graphOf, "graph-of", "sessions", "--graph: the graph of sessions (Madon) or batches (Zakay)")
	f.BoolVar(&opts.json, "json", false, "print the statistics as JSON")
	return cmd
}

// sessionsReport is the JSON form of `hpcwl sessions`.
type sessionsReport struct {
	Version      string              `json:"hpcwl_version"`
	Trace        string              `json:"trace"`
	SHA256       string              `json:"sha256,omitempty"`
	Reduction    string              `json:"reduction"`
	Stats        *session.Stats      `json:"sessions"`
	SessionGraph *session.GraphStats `json:"session_graph"`
	BatchGraph   *session.GraphStats `json:"batch_graph"`
	// Unrunnable counts the jobs without runtime or processors; they are
	// kept (a job without runtime ends at its submit time).
	Unrunnable int `json:"unrunnable"`
}

// sessionOptionsFromFlags parses --method, --threshold and --cut.
func sessionOptionsFromFlags(method, threshold, cut string) (session.Options, error) {
	m, err := session.ParseMethod(method)
	if err != nil {
		return session.Options{}, usageError{err}
	}
	o := session.Default(m)
	if threshold != "" {
		if o.Threshold, err = session.ParseDuration(threshold); err != nil {
			return o, usagef("--threshold: %v", err)
		}
	}
	if cut != "" {
		if m != session.LastCut && m != session.MaxCut {
			return o, usagef("--cut applies only to last+cut and max+cut, not %s", m)
		}
		if o.Cut, err = session.ParseDuration(cut); err != nil {
			return o, usagef("--cut: %v", err)
		}
	}
	if err := o.Validate(); err != nil {
		return o, usageError{err}
	}
	return o, nil
}

func runSessions(_ context.Context, opts sessionsOptions, name string, stdout, stderr io.Writer) error {
	outs := []output{{"--swf", opts.swfOut}, {"--graph", opts.graphOut}}
	if err := checkOutputs([]string{name}, outs...); err != nil {
		return err
	}
	dot, err := graphFormat(opts)
	if err != nil {
		return err
	}
	so, err := sessionOptionsFromFlags(opts.method, opts.threshold, opts.cut)
	if err != nil {
		return err
	}
	red, err := session.ParseReduction(opts.reduction)
	if err != nil {
		return usageError{err}
	}
	t, err := opts.trace.load(name)
	if err != nil {
		return err
	}
	if t.Len() == 0 {
		return fmt.Errorf("%s: the log holds no jobs", name)
	}
	p, err := session.Identify(t, so)
	if err != nil {
		return err
	}
	sg, bg := session.SessionGraph(p, red), session.BatchGraph(p, red)
	rep := sessionsReport{Version: version.String(), Trace: name, SHA256: t.SHA256, Reduction: red.String(),
		Stats: p.Stats(), SessionGraph: sg.Stats(opts.perUser), BatchGraph: bg.Stats(false), Unrunnable: t.Unrunnable()}
	if opts.swfOut != "" {
		out := annotated(t, bg, so, red)
		write := stamped(out).WriteSWF
		if isParquetName(opts.swfOut) {
			write = func(w io.Writer) error { return stamped(out).WriteParquet(w, provenance(t.Name, t.SHA256, nil)) }
		}
		if err := writeOutput(opts.swfOut, stdout, write); err != nil {
			return err
		}
	}
	if opts.graphOut != "" {
		if err := writeGraph(opts, dot, sg, bg, t.Name, t.SHA256, stdout); err != nil {
			return err
		}
	}
	sw := summaryWriter(stdout, stderr, outs...)
	if opts.json {
		return writeJSON(sw, rep)
	}
	return printSessions(sw, &rep)
}

// graphFormat checks the --graph options and says whether the graph goes
// out as DOT (else JSON).
func graphFormat(opts sessionsOptions) (dot bool, err error) {
	if opts.graphOut == "" {
		if len(opts.graphUser) > 0 || opts.graphOf != "sessions" {
			return false, usagef("--graph-user and --graph-of need --graph FILE")
		}
		return false, nil
	}
	if opts.graphOf != "sessions" && opts.graphOf != "batches" {
		return false, usagef("unknown --graph-of %q; valid: sessions, batches", opts.graphOf)
	}
	lower := strings.ToLower(opts.graphOut)
	switch {
	case strings.HasSuffix(lower, ".json"):
		return false, nil
	case strings.HasSuffix(lower, ".dot"), strings.HasSuffix(lower, ".gv"):
		return true, nil
	}
	return false, usagef("--graph %s: name a .json or .dot (.gv) file", opts.graphOut)
}

// writeGraph writes the session or batch graph of the chosen users, with
// the provenance in the JSON's "source" or in DOT comments.
func writeGraph(opts sessionsOptions, dot bool, sg, bg *session.Graph, name, sha string, stdout io.Writer) error {
	g := sg
	if opts.graphOf == "batches" {
		g = bg
	}
	users := make([]int32, len(opts.graphUser))
	for i, u := range opts.graphUser {
		users[i] = int32(u)
	}
	if len(users) > 0 {
		if e := g.Export(users); len(e.Node) == 0 {
			return fmt.Errorf("%s: no user %v in the log; nothing written to %s", name, opts.graphUser, opts.graphOut)
		}
	}
	meta := map[string]string{"hpcwl_version": version.String(), "command": commandLine(), "trace": name, "sha256": sha}
	return writeOutput(opts.graphOut, stdout, func(w io.Writer) error {
		if dot {
			return g.WriteDOT(w, users, []string{"hpcwl " + version.String(), commandLine(), "input " + name + " " + sha})
		}
		return g.WriteJSON(w, users, meta)
	})
}

// annotated returns t with SWF fields 17 and 18 from the batch graph g.
func annotated(t *trace.Trace, g *session.Graph, so session.Options, red session.Reduction) *trace.Trace {
	prec, think := g.Preceding()
	jobs := make([]trace.Job, len(t.Jobs))
	copy(jobs, t.Jobs)
	for i := range jobs {
		jobs[i].Preceding, jobs[i].ThinkTime = int32(prec[i]), think[i]
	}
	h := t.Header.Clone()
	h.AddNote(fmt.Sprintf("fields 17-18 (preceding job, think time) from the batch dependency graph of hpcwl %s: sessions %s, %s reduction",
		version.String(), so, red))
	return trace.New(h, jobs, trace.Options{Procs: t.Procs})
}

func printSessions(w io.Writer, r *sessionsReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format+"\n", a...) }
	s := r.Stats
	p("trace\t%s", r.Trace)
	p("method\t%s", s.Method)
	p("users\t%d", s.Users)
	p("jobs\t%d", s.Jobs)
	p("batches\t%d (%.3f jobs per batch; %.1f%% hold one job)", s.Batches, s.JobsPerBatch, 100*s.SingleJobBatches)
	p("sessions\t%d (%.3f batches, %.3f jobs per session; %.1f%% hold one job)", s.Sessions, s.BatchesPerSession, s.JobsPerSession, 100*s.SingleJobSessions)
	if s.EstimatedEnds > 0 {
		p("estimated ends\t%d jobs without a wait or runtime: end = submit + runtime (submit when the runtime is unknown)", s.EstimatedEnds)
	}
	if r.Unrunnable > 0 {
		p("unrunnable\t%s without runtime or processors, kept", plural(r.Unrunnable, "job", "jobs"))
	}
	p("")
	p("\tmedian\tp90\tp99\tmax")
	row := func(name string, d session.Dist, secs bool) {
		f := func(x float64) string {
			if secs {
				return durationText(x)
			}
			return fmt.Sprintf("%.0f", x)
		}
		p("%s\t%s\t%s\t%s\t%s", name, f(d.P50), f(d.P90), f(d.P99), f(d.Max))
	}
	row("jobs per session", s.SessionJobs, false)
	row("batches per session", s.SessionBatches, false)
	row("jobs per batch", s.BatchJobs, false)
	row("sessions per user", s.SessionsPerUser, false)
	row("session length", s.SessionLength, true)
	row("think time in session", s.ThinkTime, true)
	row("gap between sessions", s.SessionGap, true)
	row("inter-arrival (<= 1 day)", s.InterArrival, true)
	p("")
	p("sessions over 1000 min\t%.2f%%", 100*s.LongSessions)
	for _, g := range []struct {
		name string
		st   *session.GraphStats
	}{{"session graph", r.SessionGraph}, {"batch graph", r.BatchGraph}} {
		p("%s\t%d edges (%s reduction), %d from the root; longest path median %.0f, max %.0f; arity max %d",
			g.name, g.st.Edges, r.Reduction, g.st.RootEdges, g.st.LongestPath.P50, g.st.LongestPath.Max, g.st.MaxArity)
		p("\tthink times over edges: %.1f%% < 1 h, %.1f%% < 10 h, median %s",
			100*g.st.ThinkBelow1h, 100*g.st.ThinkBelow10h, durationText(g.st.Think.P50))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.SessionGraph.Users) == 0 {
		return nil
	}
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\nuser\tsessions\tlongest path\tmax in\tmax out\t\n")
	for _, u := range r.SessionGraph.Users {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t\n", u.User, u.Nodes, u.LongestPath, u.MaxIn, u.MaxOut)
	}
	return tw.Flush()
}
