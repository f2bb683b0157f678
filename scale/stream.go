package scale

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// Stream scales a log job by job, for a log read twice instead of held:
// give every job of the log to [Stream.Measure], call [Stream.Start], give
// every job again, in the same order, to [Stream.Scale] (which changes it
// in place, for writing out at once), then call [Stream.Finish]. The jobs
// and the result are [Apply]'s. Besides counters it holds one number per
// job for the medians its warning quotes: the submit times with
// Interarrival, the runtimes with Runtime (none with Size).
type Stream struct {
	name    string
	procs   int
	o       Options
	in, out figures
	before  float64
	first   int64 // earliest known submit time
	machine int
	r       Result
	over    *OversizeError
	err     error
	started bool
}

// NewStream begins scaling the log name (for error messages) whose header
// is h (its time zone and start time place the jobs in local time), on a
// machine of procs processors (0 when unknown), by o; o.Factor may be left
// 0 until [Stream.Start].
func NewStream(name string, h *swf.Header, procs int, o Options) *Stream {
	t := trace.Trace{Header: *h}
	clk := t.Clock()
	return &Stream{name: name, procs: procs, o: o,
		in: newFigures(o.Method, clk), out: newFigures(o.Method, clk)}
}

// FactorFor returns the factor that takes the jobs measured to the offered
// load target, as [FactorFor] does for a whole log.
func (s *Stream) FactorFor(target float64) (float64, error) {
	if !(target > 0) || math.IsInf(target, 0) {
		return 0, fmt.Errorf("target load %v: %w", target, ErrFactor)
	}
	l, err := s.LoadBefore()
	if err != nil {
		return 0, err
	}
	if l == 0 {
		return 0, fmt.Errorf("%s: %w", s.name, ErrNoWork)
	}
	return target / l, nil
}

// Measure adds a job of the first pass.
func (s *Stream) Measure(j *trace.Job) { s.in.add(j) }

// LoadBefore returns the offered load of the jobs measured ([OfferedLoad]).
func (s *Stream) LoadBefore() (float64, error) { return s.in.load(s.name, s.procs) }

// Start ends the first pass and sets the factor (Options.Factor when
// factor is 0). It fails as [Apply] does before changing any job.
func (s *Stream) Start(factor float64) error {
	if factor != 0 {
		s.o.Factor = factor
	}
	c := s.o.Factor
	if !(c > 0) || math.IsInf(c, 0) {
		return fmt.Errorf("factor %v: %w", c, ErrFactor)
	}
	before, err := s.LoadBefore()
	if err != nil {
		return err
	}
	if before == 0 {
		return fmt.Errorf("%s: %w", s.name, ErrNoWork)
	}
	s.before = before
	s.first = s.in.minKnown
	switch s.o.Method {
	case Interarrival, Runtime, Size:
	default:
		return fmt.Errorf("unknown method %v", s.o.Method)
	}
	if s.o.Method == Size {
		t := trace.Trace{Name: s.name, Procs: s.procs}
		if s.machine, err = t.MachineSize(); err != nil {
			return err
		}
	}
	s.r = Result{Method: s.o.Method.String(), Factor: c, LoadBefore: before}
	s.started = true
	return nil
}

// Scale scales j, the next job of the second pass, in place. An error
// ([*RangeError]) ends the scaling. A job wider than the machine without
// Options.Cap is counted and the scaling goes on to count them all: Finish
// then returns the [*OversizeError], and no job scaled should be kept.
func (s *Stream) Scale(j *trace.Job) error {
	if s.err != nil {
		return s.err
	}
	if !s.started {
		return fmt.Errorf("scale: Scale before Start")
	}
	c := s.o.Factor
	switch s.o.Method {
	case Interarrival:
		if j.Submit >= 0 {
			j.Submit = s.first + int64(math.Round(float64(j.Submit-s.first)/c))
		}
	case Runtime:
		mul := func(field string, v int64) (int64, error) {
			if v <= 0 {
				return v, nil
			}
			x := math.Round(float64(v) * c)
			if x > maxField {
				return 0, &RangeError{JobID: j.ID, Field: field, Value: x}
			}
			return int64(x), nil
		}
		var err error
		if j.Runtime, err = mul("runtime", j.Runtime); err != nil {
			s.err = err
			return err
		}
		if j.ReqTime, err = mul("requested time", j.ReqTime); err != nil {
			s.err = err
			return err
		}
		if j.AvgCPU > 0 {
			j.AvgCPU *= c
		}
	case Size:
		hit := false
		for _, p := range []*int32{&j.Procs, &j.ReqProcs} {
			if *p <= 0 {
				continue
			}
			n := Size1(int(*p), c, s.o.PowerOfTwo, s.machine)
			if n > s.machine {
				hit = true
				if !s.o.Cap {
					if s.over == nil {
						s.over = &OversizeError{JobID: j.ID, Procs: n, Machine: s.machine}
					}
					continue
				}
				n = s.machine
			}
			*p = int32(n)
		}
		if hit {
			s.r.Capped++
		}
	}
	j.Wait = -1
	if s.o.Method != Size {
		j.ThinkTime = -1
	}
	s.out.add(j)
	return nil
}

// Finish returns the result (without its Trace) and the scaled log's
// header: the log's header h, with what the method changes (EndTime
// dropped, MaxRuntime scaled) and notes on the scaling and its warnings.
func (s *Stream) Finish(h0 *swf.Header) (*Result, swf.Header, error) {
	if s.err != nil {
		return nil, swf.Header{}, s.err
	}
	if s.over != nil {
		s.over.Count = s.r.Capped
		return nil, swf.Header{}, s.over
	}
	h := h0.Clone()
	c := s.o.Factor
	switch s.o.Method {
	case Interarrival:
		h.Delete("EndTime")
	case Runtime:
		if m, ok := h.MaxRuntime(); ok && m > 0 {
			h.Set("MaxRuntime", strconv.FormatInt(int64(math.Round(float64(m)*c)), 10))
		}
		h.Delete("EndTime")
	}
	r := s.r
	var err error
	if r.LoadAfter, err = s.out.load(s.name, s.procs); err != nil {
		return nil, swf.Header{}, err
	}
	r.Achieved = r.LoadAfter / s.before
	r.Warnings = warnings(&s.in, &s.out, &r, s.o, s.procs)
	h.AddNote(fmt.Sprintf("load scaled by %s x%s: offered load %.4f -> %.4f (submit span, runnable jobs); recorded wait times set to -1",
		r.Method, strconv.FormatFloat(c, 'g', 6, 64), s.before, r.LoadAfter))
	for _, w := range r.Warnings {
		h.AddNote("load scaling warning (" + w.Property + "): " + w.Text)
	}
	return &r, h, nil
}

// figures are what scaling quotes of a log, gathered job by job.
type figures struct {
	method Method
	clk    *trace.Clock
	n      int
	// Offered load: the work and submit span of the runnable jobs.
	area        float64
	first, last int64
	// Span of every job's submit time, and the earliest known one.
	spanFirst, spanLast, minKnown int64
	// Submissions on weekdays, 8-18h local time, of the known ones.
	day, known int
	// Sizes of the runnable jobs.
	sized, par, pow2, sum int
	// Values for the medians.
	runtimes []float64
	submits  []int64
}

func newFigures(m Method, clk *trace.Clock) figures {
	return figures{method: m, clk: clk, first: math.MaxInt64, last: math.MinInt64, minKnown: math.MaxInt64}
}

func (f *figures) add(j *trace.Job) {
	if f.n == 0 {
		f.spanFirst, f.spanLast = j.Submit, j.Submit
	}
	f.n++
	f.spanFirst, f.spanLast = min(f.spanFirst, j.Submit), max(f.spanLast, j.Submit)
	if j.Submit >= 0 {
		f.minKnown = min(f.minKnown, j.Submit)
		if f.method == Interarrival {
			f.known++
			if h := f.clk.HourOfWeek(j.Submit); h < 5*24 && h%24 >= 8 && h%24 < 18 {
				f.day++
			}
			f.submits = append(f.submits, j.Submit)
		}
	}
	if !j.Runnable() {
		return
	}
	f.area += j.Area()
	f.first, f.last = min(f.first, j.Submit), max(f.last, j.Submit)
	switch f.method {
	case Runtime:
		f.runtimes = append(f.runtimes, float64(j.Runtime))
	case Size:
		p := j.Processors()
		f.sized++
		f.sum += p
		if p > 1 {
			f.par++
			if p&(p-1) == 0 {
				f.pow2++
			}
		}
	}
}

// load is [OfferedLoad] of the jobs added.
func (f *figures) load(name string, procs int) (float64, error) {
	t := trace.Trace{Name: name, Procs: procs}
	p, err := t.MachineSize()
	if err != nil {
		return 0, err
	}
	if f.last <= f.first {
		return 0, fmt.Errorf("%s: %w", name, ErrNoPeriod)
	}
	return f.area / (float64(p) * float64(f.last-f.first)), nil
}

// span is [trace.Trace.Span] of the jobs added.
func (f *figures) span() (first, last int64) {
	if f.n == 0 {
		return 0, 0
	}
	return f.spanFirst, f.spanLast
}

// dayShare is the share of known submit times on weekdays, 8-18h.
func (f *figures) dayShare() float64 {
	if f.known == 0 {
		return 0
	}
	return float64(f.day) / float64(f.known)
}

// medianRuntime is the lower median runtime of the runnable jobs.
func (f *figures) medianRuntime() float64 { return lowerMedian(f.runtimes) }

// medianInterarrival is the lower median of the intervals between
// consecutive known submit times.
func (f *figures) medianInterarrival() float64 {
	sub := f.submits
	slices.Sort(sub)
	d := make([]float64, 0, max(0, len(sub)-1))
	for i := 1; i < len(sub); i++ {
		d = append(d, float64(sub[i]-sub[i-1]))
	}
	return lowerMedian(d)
}

// sizes returns the mean size of the runnable jobs, the share of powers of
// two among the parallel ones and the share of serial jobs.
func (f *figures) sizes() (mean, pow2, serial float64) {
	if f.sized == 0 {
		return 0, 0, 0
	}
	if f.par > 0 {
		pow2 = float64(f.pow2) / float64(f.par)
	}
	return float64(f.sum) / float64(f.sized), pow2, float64(f.sized-f.par) / float64(f.sized)
}
