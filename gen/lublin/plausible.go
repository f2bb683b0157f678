package lublin

import "fmt"

// Bounds of the plausibility check of fitted parameters
// ([TypeParams.Implausible]). They are wide (ten times or more beyond the
// values published with lublin99.c, the reference program of Lublin and
// Feitelson, The workload on parallel supercomputers, JPDC 63(11), 2003) and
// meant to catch fits that ran away, not to judge a log.
const (
	// MaxLogShape bounds the shape of the Gammas of ln(runtime) and of
	// ln(interarrival) (published: at most 639).
	MaxLogShape = 1e4
	// MaxLogMean bounds their mean, shape x scale: ln of 20 is about 5
	// centuries in seconds.
	MaxLogMean = 20
	// MaxDailyShape bounds the shape of the daily-cycle Gamma (published:
	// at most 8.9); above it the cycle is a spike (coefficient of variation
	// below 10%) rather than a day's rhythm.
	MaxDailyShape = 100
	// MaxDailyMean bounds the daily cycle's mean slot, shape x scale; the
	// day has 48 half-hour slots.
	MaxDailyMean = 48
	// MaxARAR bounds the rush-to-all ratio (published: about 1).
	MaxARAR = 10
)

// Implausible lists the parameters of p that lie outside any plausible
// range (see the bounds above), keyed by their JSON name, each with the
// reason; it is empty for a sensible fit.
func (p TypeParams) Implausible() map[string]string {
	out := map[string]string{}
	gamma := func(what, a, b string, av, bv, maxShape, maxMean float64) {
		switch {
		case !(av > 0) || av > maxShape:
			out[a] = fmt.Sprintf("%s shape %.3g outside (0, %g]", what, av, maxShape)
		case !(bv > 0) || av*bv > maxMean:
			out[b] = fmt.Sprintf("%s mean %.3g (shape x scale) outside (0, %g]", what, av*bv, maxMean)
		}
	}
	gamma("short-runtime Gamma", "a1", "b1", p.A1, p.B1, MaxLogShape, MaxLogMean)
	gamma("long-runtime Gamma", "a2", "b2", p.A2, p.B2, MaxLogShape, MaxLogMean)
	gamma("peak interarrival Gamma", "a_arr", "b_arr", p.AArr, p.BArr, MaxLogShape, MaxLogMean)
	gamma("daily-cycle Gamma", "a_num", "b_num", p.ANum, p.BNum, MaxDailyShape, MaxDailyMean)
	if !(p.ARAR > 0) || p.ARAR > MaxARAR {
		out["arar"] = fmt.Sprintf("rush-to-all ratio %.3g outside (0, %g]", p.ARAR, float64(MaxARAR))
	}
	return out
}
