package talby

import (
	"math"

	"github.com/hpcwl/hpcwl/sessionclass"
)

// table21 holds the numbers of Talby's Table 21 (D. Talby, User Modeling of
// Parallel Workloads, PhD thesis, Hebrew University, 2006) that the default
// job layer is derived from, per session class in the order IWD, IWN, IW,
// BHP, BHD.
var table21 = [NumSessionClasses]struct {
	workday, daytime float64 // ?W and ?D means
	jobs             float64 // J mean
	unique           float64 // UR mean (unique runtimes)
	rmMed, rmInt     float64 // Rm median and 90% interval, s
	riMed            float64 // Ri median, s
	pmMed, pmInt     float64 // Pm median and 90% interval (normalized to 128)
	imMed, imInt     float64 // Im median and 90% interval, s
}{
	{1.00, 0.95, 3.4, 2.49, 383, 12006, 9, 3.56, 15.94, 32, 1966},           // IWD
	{0.95, 0.37, 5.0, 2.75, 2008, 53114, 18, 2.56, 21.27, 17, 5751},         // IWN
	{0.02, 0.72, 4.2, 2.63, 485, 29682, 14, 1.78, 15.94, 28, 2921},          // IW
	{0.78, 0.67, 2.5, 1.93, 2774, 34182, 0, 64.00, 60.62, 0, 10984},         // BHP
	{0.73, 0.66, 22.4, 6.55, 10828, 92299, 18104, 6.00, 31.38, 420, 102109}, // BHD
}

// logSD is the log-sd of a lognormal of median m whose 90% interval
// (P95 − P5) is about i: asinh(i/(2m))/1.645, which is exact for the
// interval's ratio P95/P5 = e^(2·1.645·sd) when i is small against m and
// close for larger i.
func logSD(m, i float64) float64 {
	if m <= 0 || i <= 0 {
		return 0
	}
	return math.Asinh(i/(2*m)) / 1.645
}

// DefaultJobs returns the default job layer, derived from Talby's Table 21
// because the thesis fits but does not publish the per-class job
// distributions (section 13.2). The rules are ours:
//   - start day: workdays with probability ?W (the mean), spread evenly
//     over Monday-Friday, the rest over the weekend; start time: daytime
//     (07:30-17:30) with probability ?D, evenly over its half-hours;
//   - jobs per session: Zipf-like on 1..max with the exponent whose mean
//     is Table 21's mean J;
//   - repeats: a job starts a new sequence with probability
//     (UR − 1)/(J − 1), from the means, so that a session holds about UR
//     sequences;
//   - runtime: session centre lognormal of median Rm and log-sd from the
//     Rm interval; sequences spread about it by the log-sd that turns the
//     Ri median into an interval, jobs by half of that;
//   - sizes: a lognormal of median Pm and log-sd from the Pm interval,
//     as probabilities of the powers of two 1..128 (normalized sizes);
//   - gaps: lognormal of median Im (at least 1 s) and log-sd from the
//     Im interval.
func DefaultJobs() [NumSessionClasses]JobClass {
	var out [NumSessionClasses]JobClass
	for c, t := range table21 {
		var j JobClass
		for d := range 7 {
			if d < 5 {
				j.Days[d] = t.workday / 5
			} else {
				j.Days[d] = (1 - t.workday) / 2
			}
		}
		lo, hi := sessionclass.DayStart/1800, sessionclass.DayEnd/1800
		for h := range 48 {
			if h >= lo && h < hi {
				j.HalfHours[h] = t.daytime / float64(hi-lo)
			} else {
				j.HalfHours[h] = (1 - t.daytime) / float64(48-(hi-lo))
			}
		}
		maxJobs := 1000
		j.Jobs = Zipf{A: zipfExponent(t.jobs, maxJobs), Max: maxJobs}
		j.Repeat = 1 - (t.unique-1)/(t.jobs-1)
		sd := logSD(t.rmMed, t.rmInt)
		seq := math.Max(logSD(t.rmMed, t.riMed), 0.01)
		j.Runtime = Runtime{Mu: math.Log(t.rmMed), Session: sd, Sequence: seq, Job: seq / 2, Max: 7 * 86400}
		psd := logSD(t.pmMed, t.pmInt)
		var tot float64
		for k := 0; k <= 7; k++ {
			v := math.Exp2(float64(k))
			a, b := math.Inf(-1), math.Inf(1)
			if k > 0 {
				a = (math.Log(v) - math.Ln2/2 - math.Log(t.pmMed)) / psd
			}
			if k < 7 {
				b = (math.Log(v) + math.Ln2/2 - math.Log(t.pmMed)) / psd
			}
			pr := normCDF(b) - normCDF(a)
			if pr > 1e-6 {
				j.Sizes = append(j.Sizes, Size{Norm: v, P: pr})
				tot += pr
			}
		}
		for i := range j.Sizes {
			j.Sizes[i].P /= tot
		}
		j.Gap = Gap{Mu: math.Log(math.Max(t.imMed, 1)), Sigma: logSD(math.Max(t.imMed, 1), t.imInt)}
		out[c] = j
	}
	return out
}

func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// zipfMean is the mean of P(n) ∝ n^−a on 1..max.
func zipfMean(a float64, max int) float64 {
	var s, m float64
	for n := 1; n <= max; n++ {
		w := math.Pow(float64(n), -a)
		s += w
		m += w * float64(n)
	}
	return m / s
}

// zipfExponent returns the exponent a in [0, 20] whose Zipf-like
// distribution on 1..max has the given mean, by bisection (the mean falls
// as a grows).
func zipfExponent(mean float64, max int) float64 {
	lo, hi := 0.0, 20.0
	for range 60 {
		mid := (lo + hi) / 2
		if zipfMean(mid, max) > mean {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
