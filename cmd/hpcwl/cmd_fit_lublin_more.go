package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/gen/lublin"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/spf13/cobra"
)

// parseSizeGroups reads --size-groups: "paper:NAME" for the groups of the
// paper's Table 4 (NAME one of SDSC95, SDSC96, KTH, LANL), or a
// comma-separated list of ranges "MIN-MAX" or single sizes.
func parseSizeGroups(spec string) ([]lublin.SizeRange, error) {
	if name, ok := strings.CutPrefix(spec, "paper:"); ok {
		g, ok := lublin.PaperSizeGroups[name]
		if !ok {
			names := make([]string, 0, len(lublin.PaperSizeGroups))
			for k := range lublin.PaperSizeGroups {
				names = append(names, k)
			}
			slices.Sort(names)
			return nil, usagef("--size-groups paper:%s: unknown log; valid: %s", name, strings.Join(names, ", "))
		}
		return g, nil
	}
	var out []lublin.SizeRange
	for _, part := range strings.Split(spec, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.ParseInt(lo, 10, 64)
		b, err2 := strconv.ParseInt(hi, 10, 64)
		if err1 != nil || err2 != nil || a < 1 || b < a {
			return nil, usagef("--size-groups: %q is not a size range MIN-MAX with 1 <= MIN <= MAX (e.g. 1-4,5-100 or paper:KTH)", part)
		}
		if n := len(out); n > 0 && a <= out[n-1].Max {
			return nil, usagef("--size-groups: range %q overlaps or precedes %d-%d; give ranges in increasing order", part, out[n-1].Min, out[n-1].Max)
		}
		out = append(out, lublin.SizeRange{Min: a, Max: b})
	}
	return out, nil
}

// printSizeGroups prints the per-size-group hyper-Gamma fits.
func printSizeGroups(w io.Writer, groups []lublin.GroupFit, work bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	v := "ln(runtime)"
	if work {
		v = "ln(processors x runtime)"
	}
	fmt.Fprintf(w, "hyper-Gamma of %s per size group\n", v)
	fmt.Fprintf(tw, "sizes\tjobs\ta1\tb1\ta2\tb2\tp\tmeans a1b1/a2b2\tKS D\n")
	for _, g := range groups {
		h := g.HG
		fmt.Fprintf(tw, "%d-%d\t%d\t%.4g\t%.4g\t%.4g\t%.4g\t%.3f\t%.2f/%.2f\t%.3f\n", g.Sizes.Min, g.Sizes.Max, g.Jobs,
			h.A1, h.B1, h.A2, h.B2, h.P, h.A1*h.B1, h.A2*h.B2, g.D)
	}
	return tw.Flush()
}

// fitAverageOptions are the options of `hpcwl fit lublin-average`.
type fitAverageOptions struct {
	procs   int
	out     string
	noSizes []string
	json    bool
}

func newFitAverageCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts fitAverageOptions
	cmd := &cobra.Command{
		Use:   "lublin-average PARAMS...",
		Short: "Average Lublin-Feitelson fits of several logs into one model",
		Long: `Lublin-average combines parameter files written by "hpcwl fit lublin -o"
into one representative model the way Lublin and Feitelson (2003, section 5.2)
build their "Model" rows: geometric means of every Gamma shape and scale,
arithmetic means of the probabilities, of the size-runtime weight (pa, pb) and
of ARAR, and the size range of the target machine (u_low 0.8, u_hi = log2
--procs, u_med = u_hi - 2.5). The whole-sample class of each file is used.

--no-size-fractions FILE leaves that file's serial and power-of-two fractions
out of the average, as the paper does for LANL, whose machine ran only
power-of-two partitions of 32 nodes and more. The result is written with -o,
ready for "hpcwl generate lublin --params".` + exitStatusHelp,
		Example: `  hpcwl fit lublin builtin:KTH-SP2 -o kth.json
  hpcwl fit lublin-average kth.json --procs 128 -o model.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("lublin-average needs at least one PARAMS file")
			}
			return nil
		},
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runFitAverage(opts, args, stdout, stderr)
		}),
	}
	f := cmd.Flags()
	f.IntVar(&opts.procs, "procs", 128, "machine size of the averaged model")
	f.StringVarP(&opts.out, "output", "o", "", "write the averaged parameters (JSON) to this file")
	f.StringSliceVar(&opts.noSizes, "no-size-fractions", nil, "parameter files whose serial and power-of-two fractions are left out")
	f.BoolVar(&opts.json, "json", false, "print the averaged parameters as JSON")
	positiveFlags(cmd, "procs")
	return cmd
}

func runFitAverage(opts fitAverageOptions, files []string, stdout, stderr io.Writer) error {
	if opts.procs < 2 {
		return usagef("--procs must be at least 2, got %d", opts.procs)
	}
	for _, n := range opts.noSizes {
		if !slices.Contains(files, n) {
			return usagef("--no-size-fractions %s: not one of the PARAMS files", n)
		}
	}
	outs := []output{{"-o", opts.out}}
	if err := checkOutputs(files, outs...); err != nil {
		return err
	}
	fits := make([]lublin.LogFit, len(files))
	var loads []string
	var loadSum float64
	for i, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		p, err := lublin.ReadParams(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		sum := sha256.Sum256(data)
		runInputs = append(runInputs, inputRecord{Name: name, SHA256: hex.EncodeToString(sum[:])})
		fits[i] = lublin.LogFit{Name: name, Params: p.Whole, NoSizeFractions: slices.Contains(opts.noSizes, name)}
		if p.Target != nil {
			loads = append(loads, fmt.Sprintf("%s %.3f", name, p.Target.OfferedLoad))
			loadSum += p.Target.OfferedLoad
		}
	}
	if len(loads) > 0 {
		// A fit's arrival Gammas describe peak-hour interarrivals, whose own
		// long-run rate is far below the log's; a single fit carries the
		// log's rate as its target, but no rate of one log fits the
		// averaged machine.
		fmt.Fprintf(stderr, "warning: the averaged parameters carry no arrival-rate target: generate lublin will draw at the model's own rate, "+
			"which for fitted logs is far below theirs (offered load of the fitted logs: %s); to offer their mean load, give generate --offered-load %.3f\n",
			strings.Join(loads, ", "), loadSum/float64(len(loads)))
	}
	t, err := lublin.Average(fits, opts.procs)
	if err != nil {
		return err
	}
	p := lublin.Params{Mode: lublin.Whole, Whole: t,
		Source: &lublin.Source{Log: "average of " + strings.Join(files, ", "), MachineProcs: opts.procs,
			Version: "hpcwl " + version.String(), Command: commandLine()}}
	if opts.out != "" {
		if err := writeOutput(opts.out, stdout, func(w io.Writer) error { return lublin.WriteParams(w, p) }); err != nil {
			return err
		}
	}
	sw := summaryWriter(stdout, stderr, outs...)
	if opts.json {
		return writeJSON(sw, p)
	}
	tw := tabwriter.NewWriter(sw, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "averaged\t%d fits, machine %d processors\n", len(files), opts.procs)
	fmt.Fprintf(tw, "sizes\tserial %.3f  power-of-two %.3f  two-stage uniform low %.2f med %.2f hi %.2f prob %.3f\n", t.SerialProb, t.Pow2Prob, t.ULow, t.UMed, t.UHi, t.UProb)
	fmt.Fprintf(tw, "runtimes\thyper-Gamma a1 %.3f b1 %.3f a2 %.3f b2 %.4f  weight pa %.4g pb %.3f\n", t.A1, t.B1, t.A2, t.B2, t.PA, t.PB)
	fmt.Fprintf(tw, "arrivals\tpeak Gamma a %.3f b %.3f  ARAR %.3f  daily cycle a %.3f b %.3f\n", t.AArr, t.BArr, t.ARAR, t.ANum, t.BNum)
	return tw.Flush()
}
