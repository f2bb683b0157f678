package lublin

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Constants of the reference program lublin99.c of Lublin and Feitelson, The
// workload on parallel supercomputers, JPDC 63(11), 2003 (its arrival and
// runtime code).
const (
	buckets         = 48   // half-hour slots per day
	secondsInBucket = 1800 // seconds per slot
	cyclicDayStart  = 11   // 1-based slot index where the shifted day starts
	// maxLogInterarrival is TOO_MUCH_ARRIVE_TIME: ln(interarrival) is
	// resampled until <= 13 (e^13 s ≈ 5.1 days).
	maxLogInterarrival = 13
	// maxLogRuntime is TOO_MUCH_TIME: ln(runtime) is resampled until <= 12
	// (e^12 s ≈ 1.9 days).
	maxLogRuntime = 12
)

// DailyWeights returns the 48 slot weights of the program's daily cycle
// (lublin99.c's arrive_init): for 1-based shifted slot i = 11..58, bucket
// (i−1) mod 48 gets F(i + ½) − F(i − ½), F the Gamma(anum, bnum) CDF (scale
// bnum); the weights are then normalised to mean 1. Bucket 0 is 00:00-00:30.
func DailyWeights(anum, bnum float64) [buckets]float64 {
	var w [buckets]float64
	g := distuv.Gamma{Alpha: anum, Beta: 1 / bnum}
	sum := 0.0
	for i := cyclicDayStart; i < cyclicDayStart+buckets; i++ {
		idx := (i - 1) % buckets
		w[idx] = g.CDF(float64(i)+0.5) - g.CDF(float64(i)-0.5)
		sum += w[idx]
	}
	for i := range w {
		w[i] /= sum / buckets
	}
	return w
}

// stream is one arrival process (calc_next_arrive of lublin99.c):
// interarrivals e^G, G ~ Gamma(AArr·ARAR, BArr) truncated at 13, counted in
// virtual seconds that pass faster in slots of larger weight.
type stream struct {
	weights [buckets]float64
	gamma   distuv.Gamma
	// betas, when set, are the per-slot Gamma scales of arrival method 1:
	// the interarrival after an arrival in slot t is e^x in real
	// seconds, x ~ Gamma(α, betas[t]); start is the slot of time 0.
	betas    *[buckets]float64
	start    int
	current  int     // bucket of the last arrival
	points   float64 // weight consumed in the current bucket
	reminder float64 // fraction of the current bucket consumed
	next     float64 // time of the next arrival, seconds (not truncated)
}

func newStream(t TypeParams, startBucket int, r *rand.Rand, betas *[buckets]float64) *stream {
	s := &stream{
		weights: DailyWeights(t.ANum, t.BNum),
		gamma:   distuv.Gamma{Alpha: t.AArr * t.ARAR, Beta: 1 / t.BArr, Src: r},
		current: startBucket,
		betas:   betas,
		start:   startBucket,
	}
	s.advance() // the first arrival is one interarrival after time 0
	return s
}

// advance moves next to the following arrival.
func (s *stream) advance() {
	if s.betas != nil {
		slot := (s.start + int(s.next/secondsInBucket)) % buckets
		g := distuv.Gamma{Alpha: s.gamma.Alpha, Beta: 1 / s.betas[slot], Src: s.gamma.Src}
		x := g.Rand()
		for x > maxLogInterarrival {
			x = g.Rand()
		}
		s.next += math.Exp(x)
		return
	}
	gam := s.gamma.Rand()
	for gam > maxLogInterarrival {
		gam = s.gamma.Rand()
	}
	s.points += math.Exp(gam) / secondsInBucket
	next := 0.0
	b := s.current
	for s.points > s.weights[b] {
		s.points -= s.weights[b]
		b = (b + 1) % buckets
		next += secondsInBucket
	}
	rem := s.points / s.weights[b]
	next += secondsInBucket * (rem - s.reminder)
	s.reminder = rem
	s.current = b
	// The program keeps time_from_begin in an unsigned long, truncating the
	// sum at every step. That loses half a second per arrival on average and
	// makes the arrival times drift against the slot index (by about seven
	// hours over 50,000 jobs), flattening the daily cycle that the program's
	// hourly arrival fractions show (docs/validation.md). We keep the exact
	// time and truncate only the submit times written out (our choice).
	s.next += next
}
