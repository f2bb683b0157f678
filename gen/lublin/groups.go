package lublin

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/hpcwl/hpcwl/fit"
	"github.com/hpcwl/hpcwl/stats"
)

// SizeRange is an inclusive range of job sizes (processors).
type SizeRange struct {
	Min int64 `json:"min"`
	Max int64 `json:"max"`
}

// PaperSizeGroups are the size groups of Table 4 of the paper for the logs it
// used (Lublin and Feitelson, The workload on parallel supercomputers, JPDC
// 63(11), 2003, section 6.2). SDSC96's last group is printed as 17-320; it is
// widened to the machine's 400 processors so that no job is left out.
var PaperSizeGroups = map[string][]SizeRange{
	"SDSC95": {{1, 4}, {5, 16}, {17, 400}},
	"SDSC96": {{1, 8}, {9, 16}, {17, 400}},
	"KTH":    {{1, 4}, {5, 100}},
	"LANL":   {{32, 32}, {64, 64}, {128, 128}, {256, 1024}},
}

// GroupFit is the free hyper-Gamma fit of ln(runtime) of the jobs of one
// size range (one row of Table 4).
type GroupFit struct {
	Sizes SizeRange        `json:"sizes"`
	Jobs  int              `json:"jobs"`
	HG    HyperGammaParams `json:"hyper_gamma"`
	// D is the KS distance of the fit from the group's ln runtimes.
	D float64 `json:"d"`
	// Status tells whether the EM converged.
	Status fit.Status `json:"status"`
	// Iterations is the number of EM iterations.
	Iterations int `json:"iterations"`
}

// GroupOptions tunes [FitSizeGroups]; nil means the defaults.
type GroupOptions struct {
	// Work fits ln(total work) = ln(processors × (runtime + ½)) instead of
	// ln(runtime + ½), the variable of the paper's Table 3.
	Work bool
	// Settings are passed to the EM fits.
	Settings *fit.Settings
}

// FitSizeGroups fits a hyper-Gamma (EM from the middle-minimum initialisation,
// all five parameters free) to the ln runtimes of the jobs of each size range,
// as the paper does before it ties the weight to the size (Lublin and
// Feitelson (2003), section 6.2, Table 4). Runtimes enter as in [FitLog]: ln(r
// + ½) for r >= 1 s, shorter or unknown runtimes and unknown sizes are
// dropped. The groups are fitted concurrently; the result is in the order of
// ranges. A range with fewer than [MinGroupJobs] jobs is an error that names
// it.
func FitSizeGroups(l Log, ranges []SizeRange, opt *GroupOptions) ([]GroupFit, error) {
	var o GroupOptions
	if opt != nil {
		o = *opt
	}
	if len(l.Runtime) != len(l.Procs) {
		panic("lublin: Log slices of different lengths")
	}
	xs := make([][]float64, len(ranges))
	for i, r := range l.Runtime {
		n := l.Procs[i]
		if r < 1 || n < 1 {
			continue
		}
		for g, sr := range ranges {
			if n >= sr.Min && n <= sr.Max {
				v := logUntrunc(r)
				if o.Work {
					v += math.Log(float64(n))
				}
				xs[g] = append(xs[g], v)
			}
		}
	}
	for g, sr := range ranges {
		if len(xs[g]) < MinGroupJobs {
			return nil, fmt.Errorf("%w: the runtime fit of sizes %d-%d needs at least %d jobs with a runtime of 1 s or more; the log has %d", ErrTooFewJobs, sr.Min, sr.Max, MinGroupJobs, len(xs[g]))
		}
	}
	out := make([]GroupFit, len(ranges))
	errs := make([]error, len(ranges))
	var wg sync.WaitGroup
	for g := range ranges {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := xs[g]
			hg, res, err := fit.HyperGamma(x, o.Settings)
			if err != nil && !errors.Is(err, fit.ErrIterationLimit) {
				errs[g] = fmt.Errorf("fitting the runtimes of sizes %d-%d: %w", ranges[g].Min, ranges[g].Max, err)
				return
			}
			sort.Float64s(x)
			out[g] = GroupFit{
				Sizes: ranges[g], Jobs: len(x),
				HG:     HyperGammaParams{hg.Shape1, hg.Scale1, hg.Shape2, hg.Scale2, hg.P},
				D:      stats.KSOneSampleSorted(x, hg.CDF).D,
				Status: res.Status, Iterations: res.Iterations,
			}
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}
