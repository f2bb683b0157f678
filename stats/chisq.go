package stats

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// ChiSquareResult is the outcome of a chi-square test.
type ChiSquareResult struct {
	// Stat is the chi-square statistic.
	Stat float64 `json:"stat"`
	// DF is the number of degrees of freedom used for the p-value.
	DF int `json:"df"`
	// PValue is P(χ²_DF >= Stat).
	PValue float64 `json:"p_value"`
}

// ChiSquare compares observed with expected counts,
// χ² = Σ (O_i − E_i)²/E_i over bins with E_i > 0, with DF = bins − 1 −
// estimated (the number of parameters estimated from the data). It panics
// if the slices differ in length.
func ChiSquare(observed, expected []float64, estimated int) ChiSquareResult {
	if len(observed) != len(expected) {
		panic("stats: len(observed) != len(expected)")
	}
	s, bins := 0.0, 0
	for i, o := range observed {
		e := expected[i]
		if e <= 0 {
			continue
		}
		s += (o - e) * (o - e) / e
		bins++
	}
	return chiResult(s, bins-1-estimated)
}

func chiResult(s float64, df int) ChiSquareResult {
	r := ChiSquareResult{Stat: s, DF: df, PValue: math.NaN()}
	if df > 0 {
		r.PValue = distuv.ChiSquared{K: float64(df)}.Survival(s)
	}
	return r
}

// ChiSquareSimulated is the chi-square test with simulated expected counts
// that Lublin and Feitelson use when the model CDF has no closed form (The
// workload on parallel supercomputers, JPDC 63(11), 2003, section 3.3.2): the
// model is represented by a generated sample sim, the range is cut into k bins
// at the quantiles of the pooled values, and O_i / E_i are the counts of data
// / sim in bin i, with E scaled to the size of data. Bins where both counts
// are zero are dropped; DF = bins − 1.
func ChiSquareSimulated(data, sim []float64, k int) ChiSquareResult {
	if k < 2 || len(data) == 0 || len(sim) == 0 {
		return ChiSquareResult{Stat: math.NaN(), PValue: math.NaN()}
	}
	pooled := append(append([]float64(nil), data...), sim...)
	sort.Float64s(pooled)
	edges := make([]float64, 0, k-1)
	for i := 1; i < k; i++ {
		e := pooled[i*len(pooled)/k]
		if len(edges) == 0 || e > edges[len(edges)-1] {
			edges = append(edges, e)
		}
	}
	o := binCounts(data, edges)
	e := binCounts(sim, edges)
	scale := float64(len(data)) / float64(len(sim))
	s, bins := 0.0, 0
	for i := range o {
		ei := e[i] * scale
		if o[i] == 0 && ei == 0 {
			continue
		}
		bins++
		if ei == 0 {
			ei = 0.5 * scale // avoid an infinite term for an empty model bin
		}
		s += (o[i] - ei) * (o[i] - ei) / ei
	}
	return chiResult(s, bins-1)
}

// binCounts counts values in the bins (−∞, e0), [e0, e1), …, [e_last, ∞).
func binCounts(x, edges []float64) []float64 {
	c := make([]float64, len(edges)+1)
	for _, v := range x {
		c[sort.Search(len(edges), func(i int) bool { return edges[i] > v })]++
	}
	return c
}

// DailyCycleChi2 returns the daily-cycle fit metric χ² = Σ_i (m_i − d_i)² /
// (m_i + d_i) over slots, with m_i and d_i the model and data arrival counts
// in half-hour slot i (48 slots; Lublin and Feitelson (2003), section 7.3).
// Slots where both are zero contribute nothing. It panics if the lengths
// differ.
func DailyCycleChi2(model, data []float64) float64 {
	if len(model) != len(data) {
		panic("stats: len(model) != len(data)")
	}
	s := 0.0
	for i, m := range model {
		if t := m + data[i]; t > 0 {
			s += (m - data[i]) * (m - data[i]) / t
		}
	}
	return s
}
