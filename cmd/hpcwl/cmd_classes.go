package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/extswf"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/pca"
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/hpcwl/hpcwl/userclass"
	"github.com/spf13/cobra"
)

func init() { register(newClassesCommand) }

// classesOptions are the options of `hpcwl classes`.
type classesOptions struct {
	trace       traceFlags
	threshold   string
	seed        uint64
	restarts    int
	log         bool
	clip        float64
	sessionClip float64
	json        bool
	sessions    string
	users       string
	extJobs     string
	extSessions string
	extUsers    string
	components  int
}

func newClassesCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts classesOptions
	cmd := &cobra.Command{
		Use:   "classes TRACE...",
		Short: "Sessions and users as observations: their variables, principal components and classes (Talby)",
		Long: `Classes analyses sessions and users as Talby does (User Modeling of Parallel
Workloads, 2006, chapter 9). With several logs, their sessions and users are
pooled, as the thesis pools seven logs so that no class belongs to one site.

Sessions: a user's job starts a new session when its think time (submit minus
the end of the user's previous job) is --threshold (20 minutes) or more. Each
session gets the 16 variables of Table 19: J jobs, D duration (first submit to
last end), Rm/Ri runtime median and 90% interval (P95-P5), Tm/Ti think time,
Im/Ii inter-arrival, ?D/%D start in and fraction of time in daytime
(07:30-17:30), ?W/%W the same for workdays, UP/UR unique processor counts and
runtimes (within 5%), Pm/Pi processors normalized to a 128-processor machine.
Principal components of their correlation matrix (Table 20), then k-means
(k-means++, --restarts starts, --seed) on D, Ti, %D, %W, UP, Pm and Rm gives
five classes named by the thesis' rules (Table 21): BHP (largest Pm), BHD
(longest D), IW (weekend), IWN (night) and IWD (daytime). Each session is also
classified online from its first job (section 9.6: BHD if it requests more
than half the log's largest requested time, BHP more than half the machine,
else by its arrival time) and the agreement is reported per log.

Users: J jobs, S sessions, Rm/Ri, Pm/Pi, Im/Ii, Tm/Ti over all their jobs, %D
and %W of jobs submitted in daytime and on workdays, the fraction of their
sessions in each class, JW jobs per week and D days active. Components of 16
of them (Table 22) and k-means on %D, Pm, Rm, J, %W, Im, JW and %BHD gives four
classes (Table 23): STWE (least %W), STWD (least %D), LTHU (most %BHD) and LTLU.

--clip SD (users) and --session-clip SD (sessions) limit the z-scores to SD
standard deviations before k-means, so that a few observations far out do not
take a class of their own (with six archive logs pooled and no limit, two
users with two jobs months apart form a class; the thesis does not say how it
avoided that). Neither is the thesis' method; the default is no limit.

--sessions FILE and --users FILE write every session and user with its
variables and class as CSV (with a provenance sidecar FILE.json).
--ext-jobs, --ext-sessions and --ext-users FILE write the jobs, sessions and
users in the extended formats of the thesis' data set (appendix D, Table 41):
SWF-like text, 24 numeric columns, the columns and codes named in the header,
provenance in its comments (docs/formats.md). --log
clusters on log(1+v) of the heavy-tailed variables, which the thesis does not.` + exitStatusHelp,
		Example: `  hpcwl classes builtin:KTH-SP2
  hpcwl classes --json --seed 7 builtin:KTH-SP2
  hpcwl classes --sessions sessions.csv --users users.csv builtin:KTH-SP2
  hpcwl classes --ext-jobs kth.jobs --ext-sessions kth.sessions --ext-users kth.users builtin:KTH-SP2`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("classes needs at least one TRACE")
			}
			return nil
		},
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runClasses(cmd.Context(), opts, args, stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.threshold, "threshold", "20m", "think time that starts a new session")
	f.Uint64Var(&opts.seed, "seed", 1, "seed of k-means")
	f.IntVar(&opts.restarts, "restarts", 20, "k-means++ starts; the best is kept")
	f.BoolVar(&opts.log, "log", false, "cluster on log(1+v) of the heavy-tailed variables")
	f.Float64Var(&opts.clip, "clip", 0, "limit the users' z-scores to this many standard deviations before k-means (0: no limit)")
	f.Float64Var(&opts.sessionClip, "session-clip", 0, "limit the sessions' z-scores to this many standard deviations before k-means (0: no limit)")
	f.BoolVar(&opts.json, "json", false, "print the report as JSON")
	f.StringVar(&opts.sessions, "sessions", "", "write the sessions with their variables and classes as CSV to this file")
	f.StringVar(&opts.users, "users", "", "write the users with their variables and classes as CSV to this file")
	f.StringVar(&opts.extJobs, "ext-jobs", "", "write the jobs in Talby's extended job format (appendix D) to this file")
	f.StringVar(&opts.extSessions, "ext-sessions", "", "write the sessions in Talby's extended session format (appendix D) to this file")
	f.StringVar(&opts.extUsers, "ext-users", "", "write the users in Talby's extended user format (appendix D) to this file")
	f.IntVar(&opts.components, "components", 9, "principal components shown in the table")
	return cmd
}

// classesReport is the JSON form of `hpcwl classes`.
type classesReport struct {
	Version   string            `json:"hpcwl_version"`
	Inputs    []inputRecord     `json:"inputs"`
	Threshold int64             `json:"threshold_s"`
	Seed      uint64            `json:"seed"`
	Restarts  int               `json:"restarts"`
	Log       bool              `json:"log_transform"`
	Clip      float64           `json:"user_clip_sd,omitempty"`
	SessClip  float64           `json:"session_clip_sd,omitempty"`
	Report    *userclass.Report `json:"report"`
}

func runClasses(_ context.Context, opts classesOptions, names []string, stdout, stderr io.Writer) error {
	th, err := session.ParseDuration(opts.threshold)
	if err != nil {
		return usagef("--threshold: %v", err)
	}
	if th <= 0 {
		return usagef("--threshold must be positive, got %q", opts.threshold)
	}
	if opts.restarts < 1 {
		return usagef("--restarts must be at least 1, got %d", opts.restarts)
	}
	if opts.clip < 0 || opts.sessionClip < 0 {
		return usagef("--clip and --session-clip must be >= 0 (0: no limit), got %v and %v", opts.clip, opts.sessionClip)
	}
	if opts.components < 1 {
		return usagef("--components must be at least 1, got %d", opts.components)
	}
	outs := []output{{flag: "--sessions", name: opts.sessions}, {flag: "--users", name: opts.users},
		{flag: "--ext-jobs", name: opts.extJobs}, {flag: "--ext-sessions", name: opts.extSessions}, {flag: "--ext-users", name: opts.extUsers}}
	if err := checkOutputs(names, outs...); err != nil {
		return err
	}
	var traces []*trace.Trace
	var inputs []inputRecord
	for _, name := range names {
		t, err := opts.trace.load(name)
		if err != nil {
			return err
		}
		if _, err := t.MachineSize(); err != nil {
			return usageError{fmt.Errorf("%s: %w; give --procs N", name, err)}
		}
		traces = append(traces, t)
		inputs = append(inputs, inputRecord{Name: t.Name, SHA256: t.SHA256})
	}
	r, err := userclass.Analyze(traces, userclass.Options{Threshold: th,
		Classify:    sessionclass.ClassifyOptions{Seed: opts.seed, Restarts: opts.restarts, Log: opts.log, Clip: opts.clip},
		SessionClip: opts.sessionClip})
	if err != nil {
		return err
	}
	if opts.sessions != "" {
		if err := writeTableOutput(opts.sessions, "hpcwl classes sessions", stdout, func(w io.Writer) error {
			return writeClassSessions(w, traces, r)
		}); err != nil {
			return err
		}
	}
	if opts.users != "" {
		if err := writeTableOutput(opts.users, "hpcwl classes users", stdout, func(w io.Writer) error {
			return writeClassUsers(w, traces, r)
		}); err != nil {
			return err
		}
	}
	var h swf.Header
	stampHeader(&h)
	ext := &extswf.Input{Traces: traces, Report: r, Header: h}
	for _, o := range []struct {
		name  string
		write func(io.Writer, *extswf.Input) error
	}{{opts.extJobs, extswf.WriteJobs}, {opts.extSessions, extswf.WriteSessions}, {opts.extUsers, extswf.WriteUsers}} {
		if o.name == "" {
			continue
		}
		if err := writeOutput(o.name, stdout, func(w io.Writer) error { return o.write(w, ext) }); err != nil {
			return err
		}
	}
	out := summaryWriter(stdout, stderr, outs...)
	if opts.json {
		return writeJSON(out, classesReport{Version: version.String(), Inputs: inputs, Threshold: th, Seed: opts.seed,
			Restarts: opts.restarts, Log: opts.log, Clip: opts.clip, SessClip: opts.sessionClip, Report: r})
	}
	return printClasses(out, r, opts.components)
}

func writeClassSessions(w io.Writer, traces []*trace.Trace, r *userclass.Report) error {
	cw := csv.NewWriter(w)
	head := []string{"log", "user", "first_submit", "jobs_first_id", "class", "online_class"}
	head = append(head, sessionclass.Names[:]...)
	_ = cw.Write(head)
	ss, online := r.SessionRows()
	for i := range ss {
		s := &ss[i]
		t := traces[s.Log]
		row := []string{t.Name, strconv.Itoa(int(s.User)), strconv.FormatInt(s.First, 10),
			strconv.FormatInt(t.Jobs[s.Jobs[0]].ID, 10), s.Class.String(), online[i].String()}
		for _, v := range s.X {
			row = append(row, csvFloat(v))
		}
		_ = cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

func writeClassUsers(w io.Writer, traces []*trace.Trace, r *userclass.Report) error {
	cw := csv.NewWriter(w)
	head := []string{"log", "user", "class"}
	head = append(head, userclass.Names[:]...)
	_ = cw.Write(head)
	for _, u := range r.UserRows() {
		row := []string{traces[u.Log].Name, strconv.Itoa(int(u.ID)), u.Class.String()}
		for _, v := range u.X {
			row = append(row, csvFloat(v))
		}
		_ = cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

func printPCA(w io.Writer, title string, p *pca.Result, k int) error {
	k = min(k, len(p.Share))
	fmt.Fprintf(w, "\n%s: first %d components of %d explain %.0f%%\n", title, k, len(p.Share), 100*p.Cumulative[k-1])
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "variable\t")
	for c := range k {
		fmt.Fprintf(tw, "#%d\t", c+1)
	}
	fmt.Fprintln(tw)
	for v, name := range p.Variables {
		fmt.Fprintf(tw, "%s\t", name)
		for c := range k {
			fmt.Fprintf(tw, "%.2f\t", p.Loadings[v][c])
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "% var\t")
	for c := range k {
		fmt.Fprintf(tw, "%.0f\t", 100*p.Share[c])
	}
	fmt.Fprint(tw, "\ncum %\t")
	for c := range k {
		fmt.Fprintf(tw, "%.0f\t", 100*p.Cumulative[c])
	}
	fmt.Fprintln(tw)
	return tw.Flush()
}

// printClassTable prints, for every variable, the mean and median of each
// class.
func printClassTable(w io.Writer, classes []string, sizes []string, vars []string, get func(c int, v string) sessionclass.Stats) error {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "variable\t")
	for _, c := range classes {
		fmt.Fprintf(tw, "%s mean\tmedian\t", c)
	}
	fmt.Fprint(tw, "\nshare\t")
	for _, s := range sizes {
		fmt.Fprintf(tw, "%s\t\t", s)
	}
	fmt.Fprintln(tw)
	for _, v := range vars {
		fmt.Fprintf(tw, "%s\t", v)
		for c := range classes {
			s := get(c, v)
			fmt.Fprintf(tw, "%s\t%s\t", compact(s.Mean), compact(s.Median))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// compact prints a statistic with two decimals below 100, none above.
func compact(v float64) string {
	if v >= 100 || v <= -100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func printClasses(w io.Writer, r *userclass.Report, k int) error {
	var logs []string
	for _, l := range r.Logs {
		logs = append(logs, fmt.Sprintf("%s (%d processors, %d sessions, %d users; online classes agree on %.1f%%)",
			l.Name, l.Procs, l.Sessions, l.Users, 100*l.Online.Fraction))
	}
	fmt.Fprintf(w, "%d sessions and %d users of %d log(s):\n  %s\n", r.Sessions, r.Users, len(r.Logs), strings.Join(logs, "\n  "))
	if err := printPCA(w, "session PCA (Talby, Table 20)", r.SessionPCA, k); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nsession classes (Table 21), k-means on D, Ti, %%D, %%W, UP, Pm, Rm\n")
	var names, sizes []string
	for _, c := range r.SessionClasses.Classes {
		names = append(names, c.Class)
		sizes = append(sizes, fmt.Sprintf("%.1f%% (%d)", 100*c.Share, c.Sessions))
	}
	if err := printClassTable(w, names, sizes, sessionclass.Names[:], func(c int, v string) sessionclass.Stats {
		return r.SessionClasses.Classes[c].Variables[v]
	}); err != nil {
		return err
	}
	if err := printPCA(w, "user PCA (Table 22)", r.UserPCA, k); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nuser classes (Table 23), k-means on %%D, Pm, Rm, J, %%W, Im, JW, %%BHD\n")
	names, sizes = nil, nil
	for _, c := range r.UserClasses.Classes {
		names = append(names, c.Class)
		sizes = append(sizes, fmt.Sprintf("%.1f%% (%d)", 100*c.Share, c.Users))
	}
	return printClassTable(w, names, sizes, userclass.Names[:], func(c int, v string) sessionclass.Stats {
		return r.UserClasses.Classes[c].Variables[v]
	})
}
