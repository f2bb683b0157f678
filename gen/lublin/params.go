package lublin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/hpcwl/hpcwl/internal/inputlimit"
	"gonum.org/v1/gonum/stat/distuv"
)

// TypeParams are the parameters of the model for one class of jobs, with the
// names and semantics of lublin99.c, the reference program of Lublin and
// Feitelson, The workload on parallel supercomputers, JPDC 63(11), 2003.
type TypeParams struct {
	// SerialProb is the fraction of serial (one-processor) jobs, in [0, 1].
	SerialProb float64 `json:"serial_prob"`
	// Pow2Prob is the fraction of ALL jobs that are parallel with a
	// power-of-two size, in [0, 1 − SerialProb]; the paper's p2 (a fraction of
	// the parallel jobs) is Pow2Prob / (1 − SerialProb) (Lublin and Feitelson
	// (2003), section 4.3).
	Pow2Prob float64 `json:"pow2_prob"`
	// ULow, UMed, UHi and UProb are the two-stage uniform on log2(size) of
	// parallel jobs: 0 <= ULow < UMed < UHi, UHi = log2 of the machine size,
	// UProb in [0, 1]. For the paper's logs the program advises UMed in
	// [UHi − 3.5, UHi − 1.5] and UProb in [0.7, 0.95]; a log with other sizes
	// may need values outside those ranges, which are accepted.
	ULow  float64 `json:"u_low"`
	UMed  float64 `json:"u_med"`
	UHi   float64 `json:"u_hi"`
	UProb float64 `json:"u_prob"`
	// A1, B1, A2, B2 are shape and scale of the two Gammas of ln(runtime [s]),
	// all > 0; the first is the lower ("short jobs") one.
	A1 float64 `json:"a1"`
	B1 float64 `json:"b1"`
	A2 float64 `json:"a2"`
	B2 float64 `json:"b2"`
	// PA and PB give the weight of the first Gamma for a job of s processors,
	// p = PA·s + PB clipped to [0, 1] (Lublin and Feitelson (2003), section
	// 6.3); PA is normally negative.
	PA float64 `json:"pa"`
	PB float64 `json:"pb"`
	// AArr and BArr are shape and scale of the Gamma of ln(interarrival [s])
	// at peak hours, both > 0; the shape is multiplied by ARAR before use.
	AArr float64 `json:"a_arr"`
	BArr float64 `json:"b_arr"`
	// ANum and BNum are shape and scale of the Gamma over the (shifted,
	// 1-based) half-hour slot index that gives the daily cycle, both > 0.
	ANum float64 `json:"a_num"`
	BNum float64 `json:"b_num"`
	// ARAR (arrive rush-to-all ratio) multiplies AArr, > 0 (Lublin and
	// Feitelson (2003), section 7.3).
	ARAR float64 `json:"arar"`
}

// Mode selects whole-sample or typed (batch + interactive) generation.
type Mode string

const (
	// Whole generates one stream with the whole-sample parameters; every job
	// is "interactive" (queue 0), as in the program with INCLUDE_JOBS_TYPE 0.
	Whole Mode = "whole"
	// Typed merges a batch (queue 1) and an interactive (queue 0) stream, each
	// with its own parameters and daily cycle (Lublin and Feitelson (2003),
	// section 8.1; the streams merge as in lublin99.c).
	Typed Mode = "typed"
)

// Params is a complete parameter set: the mode and the parameters of the
// three job classes (only Whole is used in whole mode, only Batch and
// Interactive in typed mode). It is the JSON file users edit.
type Params struct {
	Mode        Mode       `json:"mode"`
	Whole       TypeParams `json:"whole"`
	Batch       TypeParams `json:"batch"`
	Interactive TypeParams `json:"interactive"`
	// Target, when set (by fitting a log), holds the log's arrival rate and
	// offered load, which generation reproduces by default (see
	// [Config.Load]).
	Target *Target `json:"target,omitempty"`
	// Source, when set (by fitting a log), records where the parameters
	// come from; generation ignores it.
	Source *Source `json:"source,omitempty"`
}

// Source records the log a parameter set was fitted to and the run that
// fitted it.
type Source struct {
	// Log names the fitted log and SHA256 gives the hex SHA-256 of its
	// bytes as read.
	Log    string `json:"log"`
	SHA256 string `json:"sha256"`
	// MachineProcs is the machine size the log was read with.
	MachineProcs int `json:"machine_procs"`
	// Version is the version of the fitting program and Command its
	// command line.
	Version string `json:"version"`
	Command string `json:"command,omitempty"`
}

// Target is what a fitted log offered: its arrival rate and load. The
// fitted arrival parameters describe peak-hour interarrivals, and their
// long-run rate can be far from the log's (a fifth of it on KTH-SP2), so
// the generator calibrates the arrival rate to JobsPerDay unless another
// load is asked for.
type Target struct {
	// Jobs counts the log's jobs with a runtime and a size.
	Jobs int `json:"jobs"`
	// JobsPerDay is (Jobs - 1) over the span from first to last submit, per
	// day.
	JobsPerDay float64 `json:"jobs_per_day"`
	// OfferedLoad is the jobs' processor-time (runtime x size) over
	// MachineProcs x the same span.
	OfferedLoad float64 `json:"offered_load"`
	// MachineProcs is the log's machine size.
	MachineProcs int `json:"machine_procs"`
}

// TargetOf returns the arrival rate and offered load of the jobs of l with
// a runtime (>= 0) and a size (> 0), on l.MachineProcs processors (the
// largest job when 0). It fails with fewer than two such jobs or a zero
// span.
func TargetOf(l Log) (*Target, error) {
	var n int
	var first, last int64
	var work float64
	var widest int64
	for i := range l.Submit {
		if l.Runtime[i] < 0 || l.Procs[i] <= 0 || l.Submit[i] < 0 {
			continue
		}
		if n == 0 || l.Submit[i] < first {
			first = l.Submit[i]
		}
		if n == 0 || l.Submit[i] > last {
			last = l.Submit[i]
		}
		n++
		work += float64(l.Runtime[i]) * float64(l.Procs[i])
		widest = max(widest, l.Procs[i])
	}
	if n < 2 || last <= first {
		return nil, fmt.Errorf("%w: %d jobs with a runtime and a size over %d s: no arrival rate", ErrInvalidParams, n, last-first)
	}
	procs := l.MachineProcs
	if procs <= 0 {
		procs = int(widest)
	}
	span := float64(last - first)
	return &Target{Jobs: n, JobsPerDay: float64(n-1) / span * 86400, OfferedLoad: work / (float64(procs) * span), MachineProcs: procs}, nil
}

// Published parameter sets of the reference program lublin99.c, for a 128-node
// machine (UHi = 7).
var (
	WholeParams = TypeParams{
		SerialProb: 0.244, Pow2Prob: 0.576, ULow: 0.8, UMed: 4.5, UHi: 7, UProb: 0.86,
		A1: 4.2, B1: 0.94, A2: 312, B2: 0.03, PA: -0.0054, PB: 0.78,
		AArr: 10.2303, BArr: 0.4871, ANum: 8.1737, BNum: 3.9631, ARAR: 1.0225,
	}
	BatchParams = TypeParams{
		SerialProb: 0.2927, Pow2Prob: 0.6686, ULow: 1.2, UMed: 5, UHi: 7, UProb: 0.875,
		A1: 6.57, B1: 0.823, A2: 639.1, B2: 0.0156, PA: -0.003, PB: 0.6986,
		AArr: 6.0415, BArr: 0.8531, ANum: 6.1271, BNum: 5.2740, ARAR: 1.0519,
	}
	InteractiveParams = TypeParams{
		SerialProb: 0.1541, Pow2Prob: 0.625, ULow: 1, UMed: 3, UHi: 5.5, UProb: 0.705,
		A1: 3.8351, B1: 0.6605, A2: 7.073, B2: 0.6856, PA: -0.0118, PB: 0.9156,
		AArr: 6.5510, BArr: 0.6621, ANum: 8.9186, BNum: 3.6680, ARAR: 0.9797,
	}
)

// DefaultMachineLog2 is log2 of the machine size the published parameters
// are for (UHi = 7, 128 nodes).
const DefaultMachineLog2 = 7

// DefaultParams returns the published parameters in the given mode.
func DefaultParams(m Mode) Params {
	return Params{Mode: m, Whole: WholeParams, Batch: BatchParams, Interactive: InteractiveParams}
}

// ErrInvalidParams is wrapped by every parameter validation error.
var ErrInvalidParams = errors.New("lublin: invalid parameters")

// Validate checks every parameter in use against the model's ranges and
// returns an error naming the first offending field and its valid range.
func (p Params) Validate() error {
	switch p.Mode {
	case Whole:
		return p.Whole.validate("whole")
	case Typed:
		if err := p.Batch.validate("batch"); err != nil {
			return err
		}
		return p.Interactive.validate("interactive")
	}
	return fmt.Errorf("%w: mode %q: must be %q or %q", ErrInvalidParams, p.Mode, Whole, Typed)
}

func (t TypeParams) validate(class string) error {
	bad := func(field string, v float64, rng string) error {
		return fmt.Errorf("%w: %s.%s = %v: must be %s", ErrInvalidParams, class, field, v, rng)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"serial_prob", t.SerialProb}, {"pow2_prob", t.Pow2Prob}, {"u_prob", t.UProb}} {
		if !(f.v >= 0 && f.v <= 1) {
			return bad(f.name, f.v, "in [0, 1]")
		}
	}
	if t.SerialProb+t.Pow2Prob > 1+1e-12 {
		return bad("pow2_prob", t.Pow2Prob, fmt.Sprintf("in [0, 1 − serial_prob] = [0, %g] (it is a fraction of all jobs)", 1-t.SerialProb))
	}
	if !(t.UHi > 0 && t.UHi <= 20) {
		return bad("u_hi", t.UHi, "in (0, 20] (log2 of the machine size)")
	}
	if !(t.ULow >= 0 && t.ULow < t.UHi) {
		return bad("u_low", t.ULow, fmt.Sprintf("in [0, u_hi) = [0, %g)", t.UHi))
	}
	if !(t.UMed > t.ULow && t.UMed < t.UHi) {
		return bad("u_med", t.UMed, fmt.Sprintf("in (u_low, u_hi) = (%g, %g)", t.ULow, t.UHi))
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"a1", t.A1}, {"b1", t.B1}, {"a2", t.A2}, {"b2", t.B2}, {"a_arr", t.AArr}, {"b_arr", t.BArr}, {"a_num", t.ANum}, {"b_num", t.BNum}, {"arar", t.ARAR}} {
		if !(f.v > 0) || math.IsInf(f.v, 1) {
			return bad(f.name, f.v, "a finite number > 0")
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"pa", t.PA}, {"pb", t.PB}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return bad(f.name, f.v, "a finite number")
		}
	}
	// The program resamples until ln(runtime) <= 12 and ln(interarrival) <= 13;
	// a distribution with (almost) no mass there would never finish.
	for _, c := range []struct {
		name   string
		a, b   float64
		cutoff float64
	}{{"a1/b1", t.A1, t.B1, maxLogRuntime}, {"a2/b2", t.A2, t.B2, maxLogRuntime}, {"a_arr/b_arr", t.AArr * t.ARAR, t.BArr, maxLogInterarrival}} {
		if f := (distuv.Gamma{Alpha: c.a, Beta: 1 / c.b}).CDF(c.cutoff); f < 1e-4 {
			return fmt.Errorf("%w: %s.%s: the Gamma puts only %.2g of its mass below the truncation point %g; use smaller values", ErrInvalidParams, class, c.name, f, c.cutoff)
		}
	}
	return nil
}

// ScaleToMachine returns p adapted to a machine of procs processors (Lublin
// and Feitelson (2003), section 4.3, which ties UHi and UMed to the machine):
// UHi and UMed of every class move by log2(procs) − 7, so UHi = log2 P and
// UMed = UHi − 2.5 for the whole-sample set while each typed set keeps its
// published offsets; the interactive UHi is capped at log2 P. When UMed would
// fall to within 0.2 of ULow (machines of about 8 processors) it is set to UHi
// − 1.5, the program's advice for small systems. The result is validated.
func (p Params) ScaleToMachine(procs int) (Params, error) {
	if procs < 2 {
		return p, fmt.Errorf("%w: machine size %d: must be at least 2 processors", ErrInvalidParams, procs)
	}
	l2 := math.Log2(float64(procs))
	shift := l2 - DefaultMachineLog2
	scale := func(t TypeParams) TypeParams {
		t.UHi = math.Min(t.UHi+shift, l2)
		t.UMed += shift
		if t.UMed < t.ULow+0.2 {
			t.UMed = t.UHi - 1.5
		}
		return t
	}
	p.Whole, p.Batch, p.Interactive = scale(p.Whole), scale(p.Batch), scale(p.Interactive)
	if err := p.Validate(); err != nil {
		return p, fmt.Errorf("scaling to %d processors: %w", procs, err)
	}
	return p, nil
}

// ReadParams decodes a JSON parameter file. Fields absent from the file
// keep the published defaults of the file's mode (whole when "mode" is
// absent), so a file may override only a few values. The result is
// validated; unknown fields are an error.
func ReadParams(r io.Reader) (Params, error) {
	p := DefaultParams(Whole)
	dec := json.NewDecoder(inputlimit.JSONValues(r, "", inputlimit.MaxToken))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		if errors.Is(err, inputlimit.ErrTooLong) {
			return p, fmt.Errorf("%w: %w", ErrInvalidParams, err)
		}
		return p, fmt.Errorf("%w: decoding parameters: %v", ErrInvalidParams, err)
	}
	return p, p.Validate()
}

// WriteParams encodes p as indented JSON.
func WriteParams(w io.Writer, p Params) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(p)
}

// HyperErlang returns t with the runtime hyper-Gamma turned into a
// hyper-Erlang, as Lublin and Feitelson (The workload on parallel
// supercomputers, JPDC 63(11), 2003, section 5.2) suggest for efficient
// computation: each shape (A1, A2) rounded to the nearest integer (at least
// 1) and its scale changed so that the component mean A·B is kept.
func (t TypeParams) HyperErlang() TypeParams {
	erl := func(a, b float64) (float64, float64) {
		k := math.Max(1, math.Round(a))
		return k, a * b / k
	}
	t.A1, t.B1 = erl(t.A1, t.B1)
	t.A2, t.B2 = erl(t.A2, t.B2)
	return t
}

// HyperErlang returns p with every class's runtimes turned into a
// hyper-Erlang ([TypeParams.HyperErlang]).
func (p Params) HyperErlang() Params {
	p.Whole, p.Batch, p.Interactive = p.Whole.HyperErlang(), p.Batch.HyperErlang(), p.Interactive.HyperErlang()
	return p
}
