package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/coplot"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/summary"
	"github.com/spf13/cobra"
)

func init() { register(newCoplotCommand) }

// coplotOptions are the options of `hpcwl coplot`.
type coplotOptions struct {
	trace    traceFlags
	vars     string
	seed     uint64
	restarts int
	json     bool
	points   string
	arrows   string
}

// coplotVariables are the workload variables Co-Plot uses by default:
// Talby's Tables 2 and 3 without EJ, which many logs lack.
var coplotVariables = []string{"TN", "JD", "RL", "CL", "UJ", "Rm", "Ri", "Pm", "Pi", "Nm", "Ni", "Cm", "Ci", "Am", "Ai"}

func newCoplotCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts coplotOptions
	cmd := &cobra.Command{
		Use:   "coplot TRACE TRACE TRACE...",
		Short: "Map logs and their workload variables together (Co-Plot, as Talby compares workloads)",
		Long: `Coplot places logs on a plane by their workload variables and draws each variable
as an arrow, Raveh's Co-Plot as Talby uses it (User Modeling of Parallel
Workloads, 2006, appendix B and section 4.1).

Each log is an observation described by the variables of Talby's Tables 2 and
3 (hpcwl info): TN machine size, JD jobs per day, RL and CL runtime and CPU
load, UJ users per 1000 jobs, and the medians (m) and 90% intervals (i) of
runtime R, processors P, normalized processors N, CPU work C and inter-arrival
time A. --vars chooses them (EJ, executables per 1000 jobs, can be added when
every log records executables).

The variables are standardized, the logs compared by city-block distance and
mapped by non-metric multidimensional scaling (classical scaling and --restarts
seeded random starts, the map of least alienation kept). The coefficient of
alienation measures the map (below 0.15 is good); each arrow points where the
logs' projections correlate best with its variable, and that correlation is
reported (arrows of correlated variables point alike).

--points FILE and --arrows FILE write the map's coordinates and the arrows as
CSV, with a provenance sidecar FILE.json. At least three logs are needed.` + exitStatusHelp,
		Example: `  hpcwl coplot NASA-iPSC-1993-3.1-cln.swf.gz KTH-SP2-1996-2.1-cln.swf.gz CTC-SP2-1996-3.1-cln.swf.gz SDSC-SP2-1998-4.2-cln.swf.gz
  hpcwl coplot --vars JD,Am,Ai,Rm,Ri,Pm,Pi --json NASA-iPSC-1993-3.1-cln.swf.gz KTH-SP2-1996-2.1-cln.swf.gz CTC-SP2-1996-3.1-cln.swf.gz
  hpcwl coplot --points map.csv --arrows arrows.csv NASA-iPSC-1993-3.1-cln.swf.gz KTH-SP2-1996-2.1-cln.swf.gz CTC-SP2-1996-3.1-cln.swf.gz`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 3 {
				return usagef("coplot needs at least three TRACEs, got %d", len(args))
			}
			return nil
		},
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runCoplot(cmd.Context(), opts, args, stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.vars, "vars", strings.Join(coplotVariables, ","), "comma-separated workload variables")
	f.Uint64Var(&opts.seed, "seed", 1, "seed of the random starts of the scaling")
	f.IntVar(&opts.restarts, "restarts", 20, "random starts of the scaling besides the classical one")
	f.BoolVar(&opts.json, "json", false, "print the map as JSON")
	f.StringVar(&opts.points, "points", "", "write the logs' coordinates as CSV to this file")
	f.StringVar(&opts.arrows, "arrows", "", "write the variables' arrows as CSV to this file")
	return cmd
}

// coplotReport is the JSON form of `hpcwl coplot`.
type coplotReport struct {
	Version   string               `json:"hpcwl_version"`
	Inputs    []inputRecord        `json:"inputs"`
	Seed      uint64               `json:"seed"`
	Restarts  int                  `json:"restarts"`
	Variables map[string][]float64 `json:"variables"`
	Map       *coplot.Result       `json:"map"`
}

// talbyValue returns the named variable of v.
func talbyValue(v summary.Variables, name string) (float64, bool) {
	switch name {
	case "TN":
		return float64(v.TN), true
	case "JD":
		return v.JD, true
	case "RL":
		return float64(v.RL), true
	case "CL":
		return float64(v.CL), true
	case "UJ":
		return v.UJ, true
	case "EJ":
		return float64(v.EJ), true
	case "Rm":
		return v.Rm, true
	case "Ri":
		return v.Ri, true
	case "Pm":
		return v.Pm, true
	case "Pi":
		return v.Pi, true
	case "Nm":
		return float64(v.Nm), true
	case "Ni":
		return float64(v.Ni), true
	case "Cm":
		return v.Cm, true
	case "Ci":
		return v.Ci, true
	case "Am":
		return v.Am, true
	case "Ai":
		return v.Ai, true
	}
	return 0, false
}

var logVersion = regexp.MustCompile(`-\d+(\.\d+)+(-cln)?$`)

// shortLogName names a log on the map: its file name without directory,
// extensions and archive version ("SDSC-BLUE-2000-4.2-cln.swf.gz" is
// "SDSC-BLUE-2000").
func shortLogName(name string) string {
	base := strings.TrimPrefix(filepath.Base(name), "builtin:")
	for _, ext := range []string{".gz", ".swf", ".csv", ".json", ".parquet"} {
		base = strings.TrimSuffix(base, ext)
	}
	return logVersion.ReplaceAllString(base, "")
}

func runCoplot(_ context.Context, opts coplotOptions, names []string, stdout, stderr io.Writer) error {
	vars := strings.Split(opts.vars, ",")
	for i, v := range vars {
		vars[i] = strings.TrimSpace(v)
		if _, ok := talbyValue(summary.Variables{}, vars[i]); !ok {
			return usagef("--vars: unknown variable %q; valid: %s, EJ", vars[i], strings.Join(coplotVariables, ", "))
		}
	}
	if opts.restarts < 0 {
		return usagef("--restarts must be >= 0, got %d", opts.restarts)
	}
	outs := []output{{flag: "--points", name: opts.points}, {flag: "--arrows", name: opts.arrows}}
	if err := checkOutputs(names, outs...); err != nil {
		return err
	}
	if len(names) == 3 {
		// Three points keep any order of their three distances in a plane,
		// and any three values are a linear function of their coordinates.
		fmt.Fprintln(stderr, "warning: three logs fit a plane exactly whatever their variables: the alienation is 0 and every arrow's correlation 1, which says nothing about the logs; Co-Plot needs more logs to test a map")
	}
	var y [][]float64
	var obs []string
	var inputs []inputRecord
	values := map[string][]float64{}
	for _, name := range names {
		t, err := opts.trace.load(name)
		if err != nil {
			return err
		}
		tv := summary.Of(t).Talby
		row := make([]float64, len(vars))
		for j, v := range vars {
			row[j], _ = talbyValue(tv, v)
			if math.IsNaN(row[j]) {
				return fmt.Errorf("%s: variable %s is unknown for this log (no machine size or no executables); leave it out with --vars", name, v)
			}
		}
		o := shortLogName(t.Name)
		values[o] = row
		y = append(y, row)
		obs = append(obs, o)
		inputs = append(inputs, inputRecord{Name: t.Name, SHA256: t.SHA256})
	}
	r, err := coplot.Map(y, obs, vars, coplot.Options{Seed: opts.seed, Restarts: max(opts.restarts, 0)})
	if err != nil {
		return err
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }
	if opts.points != "" {
		if err := writeTableOutput(opts.points, "hpcwl coplot points", stdout, func(w io.Writer) error {
			cw := csv.NewWriter(w)
			_ = cw.Write([]string{"log", "x", "y"})
			for _, p := range r.Points {
				_ = cw.Write([]string{p.Name, g(p.X), g(p.Y)})
			}
			cw.Flush()
			return cw.Error()
		}); err != nil {
			return err
		}
	}
	if opts.arrows != "" {
		if err := writeTableOutput(opts.arrows, "hpcwl coplot arrows", stdout, func(w io.Writer) error {
			cw := csv.NewWriter(w)
			_ = cw.Write([]string{"variable", "dx", "dy", "correlation"})
			for _, a := range r.Arrows {
				_ = cw.Write([]string{a.Variable, g(a.DX), g(a.DY), g(a.Correlation)})
			}
			cw.Flush()
			return cw.Error()
		}); err != nil {
			return err
		}
	}
	out := summaryWriter(stdout, stderr, outs...)
	if opts.json {
		return writeJSON(out, coplotReport{Version: version.String(), Inputs: inputs, Seed: opts.seed,
			Restarts: opts.restarts, Variables: values, Map: r})
	}
	fmt.Fprintf(out, "Co-Plot of %d logs on %d variables: coefficient of alienation %.3f, mean arrow correlation %.2f\n\n",
		len(obs), len(vars), r.Alienation, r.MeanCorrelation)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "log\tx\ty")
	for _, p := range r.Points {
		fmt.Fprintf(tw, "%s\t%6.2f\t%6.2f\n", p.Name, p.X, p.Y)
	}
	fmt.Fprintln(tw, "\nvariable\tangle (deg)\tcorrelation")
	for _, a := range r.Arrows {
		fmt.Fprintf(tw, "%s\t%6.0f\t%6.2f\n", a.Variable, math.Atan2(a.DY, a.DX)*180/math.Pi, a.Correlation)
	}
	return tw.Flush()
}
