package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/similarity"
	"github.com/spf13/cobra"
)

func init() { register(newSimilarityCommand) }

// similarityOptions are the options of `hpcwl similarity`.
type similarityOptions struct {
	trace     traceFlags
	sessions  string
	maxDist   int
	shuffles  int
	seed      uint64
	json      bool
	distances string
	shuffled  string
}

func newSimilarityCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts similarityOptions
	cmd := &cobra.Command{
		Use:   "similarity TRACE",
		Short: "How alike a user's jobs are by the number of sessions between them (Zakay)",
		Long: `Similarity measures how alike a user's jobs are as a function of their session
distance, the analysis by which Zakay and Feitelson resample whole users
(Zakay's thesis, chapter 3, section 3).

The similarity of two jobs in an attribute (processors, the runtime estimate,
the runtime) is min/max of their values (1 when both are 0; unknown values are
skipped). Pairs of jobs of one user are grouped by session distance: 0 for two
jobs of one session, 1 for consecutive sessions, and so on up to
--max-distance. Sessions are Zakay's (--sessions arrival:60m by default; any
specification of hpcwl sessions --method works, e.g. last:20m).

Reported: per distance, the pairs compared and the mean, median and fraction
of identical pairs of each attribute (Fig. 1); per attribute, the fraction of
users whose mean similarity is larger at distance 0 than 1 (and 1 than 2),
equal, or smaller (Tables II-IV). --shuffles N shuffles each user's jobs among
his sessions N times (keeping the sessions' sizes) and compares the
same-session similarity with the original (section 3, Fig. 2; the thesis uses
1000).

--distances FILE writes the per-distance table and --shuffled FILE the
shuffled values, as CSV with a provenance sidecar FILE.json.` + exitStatusHelp,
		Example: `  hpcwl similarity builtin:KTH-SP2
  hpcwl similarity --shuffles 1000 --json builtin:KTH-SP2
  hpcwl similarity --sessions last:20m --distances dist.csv builtin:KTH-SP2`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runSimilarity(cmd.Context(), opts, args[0], stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.sessions, "sessions", "arrival:60m", "session specification (METHOD:THRESHOLD, as hpcwl sessions)")
	f.IntVar(&opts.maxDist, "max-distance", 10, "largest session distance (>= 2)")
	f.IntVar(&opts.shuffles, "shuffles", 0, "run the randomization check with this many shuffles (0: not)")
	f.Uint64Var(&opts.seed, "seed", 1, "seed of the shuffles")
	f.BoolVar(&opts.json, "json", false, "print the report as JSON")
	f.StringVar(&opts.distances, "distances", "", "write the per-distance similarities as CSV to this file")
	f.StringVar(&opts.shuffled, "shuffled", "", "write the shuffled same-session similarities as CSV to this file")
	return cmd
}

// similarityReport is the JSON form of `hpcwl similarity`.
type similarityReport struct {
	Version       string                    `json:"hpcwl_version"`
	Log           string                    `json:"log"`
	SHA256        string                    `json:"sha256,omitempty"`
	Seed          uint64                    `json:"seed,omitempty"`
	Report        *similarity.Report        `json:"similarity"`
	Randomization *similarity.Randomization `json:"randomization,omitempty"`
}

func runSimilarity(_ context.Context, opts similarityOptions, name string, stdout, stderr io.Writer) error {
	so, err := session.ParseSpec(opts.sessions)
	if err != nil {
		return usagef("--sessions: %v", err)
	}
	if opts.maxDist < 2 {
		return usagef("--max-distance must be at least 2, got %d", opts.maxDist)
	}
	if opts.shuffles < 0 {
		return usagef("--shuffles must be >= 0, got %d", opts.shuffles)
	}
	if opts.shuffled != "" && opts.shuffles == 0 {
		return usagef("--shuffled needs --shuffles N")
	}
	outs := []output{{flag: "--distances", name: opts.distances}, {flag: "--shuffled", name: opts.shuffled}}
	if err := checkOutputs([]string{name}, outs...); err != nil {
		return err
	}
	t, err := opts.trace.load(name)
	if err != nil {
		return err
	}
	o := similarity.Options{Sessions: &so, MaxDistance: opts.maxDist}
	r, err := similarity.Analyze(t, o)
	if errors.Is(err, similarity.ErrOption) {
		return usageError{fmt.Errorf("%s: %w", name, err)}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var rz *similarity.Randomization
	if opts.shuffles > 0 {
		if rz, err = similarity.Randomize(t, o, opts.shuffles, opts.seed, 0); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	g := func(v float64) string { return csvFloat(v) }
	if opts.distances != "" {
		if err := writeTableOutput(opts.distances, "hpcwl similarity distances", stdout, func(w io.Writer) error {
			cw := csv.NewWriter(w)
			_ = cw.Write([]string{"distance", "attribute", "pairs", "mean", "median", "identical"})
			for _, d := range r.Distances {
				for a := range similarity.NumAttributes {
					_ = cw.Write([]string{strconv.Itoa(d.Distance), a.String(), strconv.FormatInt(d.Pairs[a], 10),
						g(d.Mean[a]), g(d.Median[a]), g(d.Identical[a])})
				}
			}
			cw.Flush()
			return cw.Error()
		}); err != nil {
			return err
		}
	}
	if opts.shuffled != "" {
		if err := writeTableOutput(opts.shuffled, "hpcwl similarity shuffled", stdout, func(w io.Writer) error {
			cw := csv.NewWriter(w)
			_ = cw.Write([]string{"shuffle", "procs", "estimate", "runtime"})
			for k := range rz.Shuffles {
				_ = cw.Write([]string{strconv.Itoa(k), g(rz.Shuffled[0][k]), g(rz.Shuffled[1][k]), g(rz.Shuffled[2][k])})
			}
			cw.Flush()
			return cw.Error()
		}); err != nil {
			return err
		}
	}
	out := summaryWriter(stdout, stderr, outs...)
	if opts.json {
		rep := similarityReport{Version: version.String(), Log: t.Name, SHA256: t.SHA256, Report: r, Randomization: rz}
		if rz != nil {
			rep.Seed = opts.seed
		}
		return writeJSON(out, rep)
	}
	fmt.Fprintf(out, "%s: sessions %s, %d users\n\nsimilarity by session distance (Zakay, ch. 3, Fig. 1): mean / median / identical\n", t.Name, r.Sessions, r.Users)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "distance\tpairs\tprocs\testimate\truntime")
	for _, d := range r.Distances {
		fmt.Fprintf(tw, "%d\t%d", d.Distance, d.Pairs[similarity.Procs])
		for a := range similarity.NumAttributes {
			fmt.Fprintf(tw, "\t%.3f / %.3f / %.3f", d.Mean[a], d.Median[a], d.Identical[a])
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "\nusers by mean similarity at two distances (Tables II-IV)\n")
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "attribute\tdistances\tusers\tshorter larger\tequal\tlonger larger")
	for _, d := range r.Dominance {
		fmt.Fprintf(tw, "%s\t%d vs %d\t%d\t%.3f\t%.4f\t%.3f\n", d.Attribute, d.Near, d.Far, d.Users, d.Shorter, d.Equal, d.Longer)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if rz != nil {
		fmt.Fprintf(out, "\nsame-session similarity against %d shuffles of each user's jobs among his sessions (seed %d)\n", rz.Shuffles, opts.seed)
		tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "attribute\toriginal\tshuffled min\tshuffled max\tshuffles >= original")
		for a := range similarity.NumAttributes {
			lo, hi := rz.Shuffled[a][0], rz.Shuffled[a][0]
			for _, v := range rz.Shuffled[a] {
				lo, hi = min(lo, v), max(hi, v)
			}
			fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%.4f\t%d\n", a, rz.Original[a], lo, hi, rz.Above[a])
		}
		return tw.Flush()
	}
	return nil
}
