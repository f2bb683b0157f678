package talby

import (
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/trace"
)

// maxSizes bounds the sizes a fitted job class keeps: the most frequent
// ones, the rest dropped.
const maxSizes = 128

// FitJobClass fits the job layer of one session class to its sessions
// ss (all of log t, machine size procs), our reading of Talby's "fitting
// the empirical distribution of each attribute per session class"
// (Talby (2006), section 13.2), whose fits the thesis does not publish:
//   - Days and HalfHours: the empirical day of week and half-hour of the
//     sessions' first submits, in the log's local time;
//   - Jobs: the Zipf exponent on 1..the largest whose mean is the mean
//     jobs per session (the maximum-likelihood one, fitZipf, matches the
//     mean of ln n instead; on KTH-SP2 its heavier tail gives 50 % more
//     jobs than the log);
//   - sequences are runs of consecutive jobs of a session with the same
//     size; Sizes is the empirical distribution of the jobs' sizes
//     (normalized to 128 processors; counted per job, not per sequence,
//     because the generator repeats small and large sizes alike, so that
//     the jobs' sizes come back as the log's); Repeat = (s − q)/(1 − q), s the share of
//     consecutive jobs of the same size and q the chance that two sizes
//     drawn from Sizes agree;
//   - Runtime: the nested variance components of ln(runtime) (jobs in a
//     sequence, sequences in a session, sessions), by the method of
//     moments; Mu the median ln runtime of the class's jobs, and
//     Quantiles the jobs' runtimes at 201 evenly spaced probabilities, so
//     that the generated jobs' runtimes follow the log's (Runtime);
//   - Gap: the share of zero submit gaps within sessions and the mean and
//     standard deviation of ln of the others.
func FitJobClass(t *trace.Trace, ss []*sessionclass.Session, procs int) JobClass {
	clock := t.Clock()
	var j JobClass
	var jobs []int
	var maxRun int64 = 1
	sizes := map[float64]float64{}
	var same, pairs float64
	var zero, gaps, lg, lg2 float64
	// Variance components of ln runtime.
	var jobSS, jobDF float64 // within sequences
	var seqSS, seqDF float64 // sequence means within sessions
	var sessMeans, invK []float64
	var invN []float64
	var logRun []float64 // ln runtime of every job
	for _, s := range ss {
		st := clock.Time(s.First)
		j.Days[clock.DayOfWeek(s.First)]++
		j.HalfHours[st.Hour()*2+st.Minute()/30]++
		jobs = append(jobs, len(s.Jobs))
		var seqMeans []float64
		var cur []float64
		curP := -1
		flush := func() {
			if len(cur) == 0 {
				return
			}
			m := mean(cur)
			for _, x := range cur {
				jobSS += (x - m) * (x - m)
			}
			jobDF += float64(len(cur) - 1)
			invN = append(invN, 1/float64(len(cur)))
			seqMeans = append(seqMeans, m)
			cur = cur[:0]
		}
		var prevSub int64
		for i, k := range s.Jobs {
			job := &t.Jobs[k]
			p := max(job.Processors(), 1)
			x := math.Log(float64(max(job.Runtime, 1)))
			logRun = append(logRun, x)
			maxRun = max(maxRun, job.Runtime)
			if i > 0 {
				pairs++
				if p == curP {
					same++
				}
				g := job.Submit - prevSub
				gaps++
				if g <= 0 {
					zero++
				} else {
					lx := math.Log(float64(g))
					lg += lx
					lg2 += lx * lx
				}
			}
			prevSub = job.Submit
			// Every job counts: the generator repeats a sequence's size
			// whatever it is, so the jobs' sizes follow Sizes.
			sizes[math.Round(float64(p)*128/float64(procs)*1000)/1000]++
			if p != curP {
				flush()
				curP = p
			}
			cur = append(cur, x)
		}
		flush()
		m := mean(seqMeans)
		for _, x := range seqMeans {
			seqSS += (x - m) * (x - m)
		}
		seqDF += float64(len(seqMeans) - 1)
		sessMeans = append(sessMeans, m)
		invK = append(invK, 1/float64(len(seqMeans)))
	}
	normalize(j.Days[:])
	normalize(j.HalfHours[:])
	maxJobs := slices.Max(jobs)
	var mj float64
	for _, n := range jobs {
		mj += float64(n)
	}
	j.Jobs = Zipf{A: zipfExponent(mj/float64(len(jobs)), maxJobs), Max: maxJobs}

	type kv struct{ norm, n float64 }
	var all []kv
	for k, v := range sizes {
		all = append(all, kv{k, v})
	}
	slices.SortFunc(all, func(a, b kv) int {
		if a.n != b.n {
			if a.n > b.n {
				return -1
			}
			return 1
		}
		if a.norm < b.norm {
			return -1
		}
		return 1
	})
	if len(all) > maxSizes {
		all = all[:maxSizes]
	}
	slices.SortFunc(all, func(a, b kv) int {
		if a.norm < b.norm {
			return -1
		}
		return 1
	})
	var tot, q float64
	for _, e := range all {
		tot += e.n
	}
	for _, e := range all {
		pr := e.n / tot
		q += pr * pr
		j.Sizes = append(j.Sizes, Size{Norm: e.norm, P: pr})
	}
	if pairs > 0 && q < 1 {
		j.Repeat = math.Min(1, math.Max(0, (same/pairs-q)/(1-q)))
	}

	jobVar := 0.0
	if jobDF > 0 {
		jobVar = jobSS / jobDF
	}
	seqVar := 0.0
	if seqDF > 0 {
		seqVar = math.Max(0, seqSS/seqDF-jobVar*mean(invN))
	}
	sm := mean(sessMeans)
	var sv float64
	for _, x := range sessMeans {
		sv += (x - sm) * (x - sm)
	}
	if len(sessMeans) > 1 {
		sv /= float64(len(sessMeans) - 1)
	}
	sessVar := math.Max(0, sv-(seqVar+jobVar*mean(invN))*mean(invK))
	slices.Sort(logRun)
	j.Runtime.Quantiles = make([]float64, runtimeQuantiles)
	for i := range j.Runtime.Quantiles {
		// The empirical quantile at i/(n−1), interpolated between order
		// statistics (in ln runtime, as the generator interpolates).
		h := float64(i) / float64(runtimeQuantiles-1) * float64(len(logRun)-1)
		k := int(h)
		v := logRun[k]
		if k+1 < len(logRun) {
			v += (h - float64(k)) * (logRun[k+1] - logRun[k])
		}
		j.Runtime.Quantiles[i] = math.Round(math.Exp(v))
	}
	j.Runtime = Runtime{Mu: logRun[(len(logRun)-1)/2], Session: math.Sqrt(sessVar), Sequence: math.Sqrt(seqVar), Job: math.Sqrt(jobVar), Max: maxRun, Quantiles: j.Runtime.Quantiles}

	if gaps > 0 {
		j.Gap.Zero = zero / gaps
		if pos := gaps - zero; pos > 0 {
			m := lg / pos
			j.Gap.Mu = m
			if pos > 1 {
				j.Gap.Sigma = math.Sqrt(math.Max(0, (lg2-pos*m*m)/(pos-1)))
			}
		}
	}
	return j
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return sum(xs) / float64(len(xs))
}

// fitZipf returns the maximum-likelihood exponent a in [0, 20] of
// P(n) ∝ n^−a on 1..max: the score Σ ln n / N = E_a[ln n] is solved by
// bisection, E_a[ln n] falling as a grows.
func fitZipf(xs []int, max int) float64 {
	var target float64
	for _, x := range xs {
		target += math.Log(float64(x))
	}
	target /= float64(len(xs))
	eln := func(a float64) float64 {
		var s, m float64
		for n := 1; n <= max; n++ {
			w := math.Pow(float64(n), -a)
			s += w
			m += w * math.Log(float64(n))
		}
		return m / s
	}
	lo, hi := 0.0, 20.0
	if eln(lo) <= target {
		return lo
	}
	for range 50 {
		mid := (lo + hi) / 2
		if eln(mid) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
