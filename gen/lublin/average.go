package lublin

import (
	"fmt"
	"math"
)

// LogFit is one log's fitted parameters, an input of [Average].
type LogFit struct {
	// Name identifies the log in error messages.
	Name string
	// Params are the parameters fitted to the log.
	Params TypeParams
	// NoSizeFractions leaves the log's SerialProb and Pow2Prob out of the
	// average, as the paper does for LANL, whose machine only ran
	// power-of-two partitions of 32 nodes and more (Table 1).
	NoSizeFractions bool
}

// Average combines the parameters fitted to several logs into one
// representative set the way the paper builds its "Model" rows (Lublin and
// Feitelson, The workload on parallel supercomputers, JPDC 63(11), 2003,
// section 5.2; Tables 1, 2, 5, 6 and 7): the geometric mean of every Gamma
// shape and scale (A1, B1, A2, B2, AArr, BArr, ANum, BNum), because the
// features of a Gamma depend on products of its parameters; the arithmetic
// mean of the probabilities (SerialProb, the paper's p2 =
// Pow2Prob/(1−SerialProb), UProb), of the linear weight's PA and PB and of
// ARAR. The size range follows the paper's rule for a machine of procs
// processors (Lublin and Feitelson (2003), section 4.3): ULow = log2 2 − 0.2 =
// 0.8, UHi = log2 procs, UMed = UHi − 2.5 (UHi − 1.5 for machines under 16
// processors, the program's advice for small systems). The result is
// validated.
func Average(fits []LogFit, procs int) (TypeParams, error) {
	if len(fits) == 0 {
		return TypeParams{}, fmt.Errorf("%w: averaging needs at least one fitted log", ErrInvalidParams)
	}
	if procs < 2 {
		return TypeParams{}, fmt.Errorf("%w: machine size %d: must be at least 2 processors", ErrInvalidParams, procs)
	}
	geo := func(get func(TypeParams) float64) float64 {
		s := 0.0
		for _, f := range fits {
			s += math.Log(get(f.Params))
		}
		return math.Exp(s / float64(len(fits)))
	}
	mean := func(get func(TypeParams) float64) float64 {
		s := 0.0
		for _, f := range fits {
			s += get(f.Params)
		}
		return s / float64(len(fits))
	}
	var p1, p2 float64
	n := 0
	for _, f := range fits {
		if f.NoSizeFractions {
			continue
		}
		t := f.Params
		if t.SerialProb >= 1 {
			return TypeParams{}, fmt.Errorf("%w: log %s: serial_prob = 1 leaves no parallel jobs for p2", ErrInvalidParams, f.Name)
		}
		p1 += t.SerialProb
		p2 += t.Pow2Prob / (1 - t.SerialProb)
		n++
	}
	if n == 0 {
		return TypeParams{}, fmt.Errorf("%w: averaging needs at least one log with size fractions (NoSizeFractions false)", ErrInvalidParams)
	}
	p1, p2 = p1/float64(n), p2/float64(n)
	t := TypeParams{
		SerialProb: p1, Pow2Prob: p2 * (1 - p1),
		ULow: 0.8, UHi: math.Log2(float64(procs)),
		UProb: mean(func(t TypeParams) float64 { return t.UProb }),
		A1:    geo(func(t TypeParams) float64 { return t.A1 }),
		B1:    geo(func(t TypeParams) float64 { return t.B1 }),
		A2:    geo(func(t TypeParams) float64 { return t.A2 }),
		B2:    geo(func(t TypeParams) float64 { return t.B2 }),
		PA:    mean(func(t TypeParams) float64 { return t.PA }),
		PB:    mean(func(t TypeParams) float64 { return t.PB }),
		AArr:  geo(func(t TypeParams) float64 { return t.AArr }),
		BArr:  geo(func(t TypeParams) float64 { return t.BArr }),
		ANum:  geo(func(t TypeParams) float64 { return t.ANum }),
		BNum:  geo(func(t TypeParams) float64 { return t.BNum }),
		ARAR:  mean(func(t TypeParams) float64 { return t.ARAR }),
	}
	t.UMed = t.UHi - 2.5
	if procs < 16 {
		t.UMed = t.UHi - 1.5
	}
	return t, t.validate("average")
}
