package resample

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// Oversize says what mixing does with a job wider than the mixed machine.
type Oversize uint8

const (
	// OversizeDrop leaves the job out (counted in Mixed.Dropped). The
	// default: a simulator would refuse the job anyway.
	OversizeDrop Oversize = iota
	// OversizeClamp gives the job the whole machine: allocated and
	// requested processors become the machine size, the runtime is kept.
	OversizeClamp
)

// String returns "drop" or "clamp".
func (o Oversize) String() string {
	if o == OversizeClamp {
		return "clamp"
	}
	return "drop"
}

// MixOptions control [Mix].
type MixOptions struct {
	// Options are the generator's options. LoadFactor is the load factor
	// of the mix: log i is resampled with load factor LoadFactor *
	// Weights[i], RBNPW likewise; Duration is in the first log's time and
	// defaults to the first log's length.
	Options
	// Weights are the logs' shares of the users, one per log, each > 0;
	// they are normalized to sum to 1. Empty means equal shares.
	Weights []float64
	// Procs is the mixed machine's size. 0 requires every log to have the
	// same machine size, which is then used; MaxProcs asks for the largest.
	Procs int
	// Oversize handles jobs wider than Procs.
	Oversize Oversize
}

// MaxProcs as MixOptions.Procs picks the largest machine of the logs.
const MaxProcs = -1

// MachineSizeError reports logs of different machine sizes mixed without
// a rule saying which machine the mix runs on.
type MachineSizeError struct {
	Names []string
	Procs []int
}

func (e *MachineSizeError) Error() string {
	var parts []string
	for i := range e.Names {
		parts = append(parts, fmt.Sprintf("%s: %d processors", e.Names[i], e.Procs[i]))
	}
	return "resample: the logs' machine sizes differ (" + strings.Join(parts, ", ") +
		"); choose the mixed machine: the largest (--machine max) or a size N (--machine N), jobs wider than it dropped or clamped (--oversize drop|clamp)"
}

// Mixed is a workload mixed from several logs' users (see [Mix]).
type Mixed struct {
	// Parts are the logs' resampled workloads, in the logs' order, each in
	// its own log's relative time.
	Parts []*Workload
	// Weights are the normalized shares of the users.
	Weights []float64
	// Procs is the mixed machine's size; Oversize the rule applied.
	Procs    int
	Oversize Oversize
	// Jobs are the mixed jobs by submit time (in the first log's relative
	// time), numbered 1, 2, ...; field 12 numbers the copies over all logs
	// and field 16 (partition) is the source log's number, 1, 2, ...
	Jobs []trace.Job
	// Log and Source give, for each job, the index of its log and the
	// index of the original job in that log's trace.
	Log, Source []int32
	// Copies are the copies that contribute jobs, Copies[i].ID == i+1;
	// CopyLog[i] is the index of copy i's log.
	Copies  []Copy
	CopyLog []int32
	// Dropped counts jobs left out as wider than the machine, Clamped the
	// jobs given the whole machine, BeforeStart the jobs that fell before
	// time 0 (copies started in the middle of week 0, and jobs early in
	// a log's week 0 that the move to the first log's week 0 puts before
	// its time 0).
	Dropped, Clamped, BeforeStart int
	// Duration is the mixed workload's length, s.
	Duration int64
	// Seed and Stream are the options' (each log's stream is derived
	// from them).
	Seed, Stream uint64
}

// Mix resamples the users of several logs into one workload, the
// "mixing traces" application Zakay proposes (N. Zakay, Improved Realism
// and Representativeness of Workloads to Improve Reliability of
// Performance Evaluations, PhD thesis, Hebrew University, chapter 3,
// section 6, "proposed applications"): log i is resampled on its own
// ([Pools.Generate]) with load factor f*Weights[i], so it contributes that
// share of its users; then every job is moved to the same local week,
// weekday and time of day in the first log's calendar (each log keeps its
// own daily and weekly cycle in its own time zone), and the jobs are
// merged by time.
//
// The machine-size rule: logs of one machine size mix on that machine;
// otherwise Procs must say the size (or MaxProcs), else a
// [*MachineSizeError]. Jobs wider than the machine are dropped or clamped
// as opt.Oversize says; both change a user's sub-trace and are counted.
// Each log's random stream is derived from (Seed, Stream, log index), so
// the mix is deterministic per seed.
func Mix(pools []*Pools, opt MixOptions) (*Mixed, error) {
	if len(pools) < 2 {
		return nil, errors.New("resample: mixing needs at least two logs")
	}
	ws, err := mixWeights(opt.Weights, len(pools))
	if err != nil {
		return nil, err
	}
	procs, err := mixProcs(pools, opt.Procs)
	if err != nil {
		return nil, err
	}
	f := opt.LoadFactor
	if f == 0 {
		f = 1
	}
	if !(f > 0 && f <= MaxLoadFactor) {
		return nil, &RangeError{Name: "load factor", Value: fmtFloat(f), Min: "just above 0", Max: strconv.Itoa(MaxLoadFactor)}
	}
	d := opt.Duration
	if d == 0 {
		d = pools[0].End - pools[0].Start
	}
	if d < MinDuration || d > MaxDuration-Week {
		return nil, &RangeError{Name: "duration", Value: strconv.FormatInt(d, 10) + " s",
			Min: "1 week (604800 s)", Max: strconv.FormatInt(MaxDuration-Week, 10) + " s when mixing"}
	}
	m := &Mixed{Weights: ws, Procs: procs, Oversize: opt.Oversize, Duration: d, Seed: opt.Seed, Stream: opt.Stream}
	type ref struct {
		t          int64
		log, index int32
	}
	var refs []ref
	for i, p := range pools {
		o := opt.Options
		o.LoadFactor = f * ws[i]
		o.RBNPW = opt.RBNPW * ws[i]
		// One more week than asked: moving a log's weeks onto the first
		// log's shifts times by less than a week.
		o.Duration = d + Week
		o.Seed, o.Stream = mix(opt.Seed, opt.Stream, uint64(i)), uint64(i)
		w, err := p.Generate(o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.Trace.Name, err)
		}
		m.Parts = append(m.Parts, w)
		m.BeforeStart += w.BeforeStart
		for k := range w.Jobs {
			t := p.cal.toOther(w.Jobs[k].Submit, pools[0].cal)
			if t < 0 {
				m.BeforeStart++
			}
			if t < 0 || t >= d {
				continue
			}
			refs = append(refs, ref{t, int32(i), int32(k)})
		}
	}
	slices.SortStableFunc(refs, func(a, b ref) int {
		if a.t != b.t {
			return compare(a.t, b.t)
		}
		return int(a.log) - int(b.log)
	})
	ids := make([]map[int32]int32, len(pools)) // copy ID in its part -> mixed copy ID
	for i := range ids {
		ids[i] = map[int32]int32{}
	}
	for _, r := range refs {
		w := m.Parts[r.log]
		j := w.Jobs[r.index]
		if j.Processors() > procs {
			if opt.Oversize == OversizeDrop {
				m.Dropped++
				continue
			}
			m.Clamped++
			j.Procs, j.ReqProcs = int32(procs), int32(procs)
		}
		id, ok := ids[r.log][j.User]
		if !ok {
			c := w.Copies[j.User-1]
			m.Copies = append(m.Copies, c)
			m.CopyLog = append(m.CopyLog, r.log)
			id = int32(len(m.Copies))
			m.Copies[id-1].ID = id
			m.Copies[id-1].Jobs = 0
			ids[r.log][j.User] = id
		}
		m.Copies[id-1].Jobs++
		j.ID = int64(len(m.Jobs) + 1)
		j.Submit = r.t
		j.User = id
		j.Partition = r.log + 1
		m.Jobs = append(m.Jobs, j)
		m.Log = append(m.Log, r.log)
		m.Source = append(m.Source, w.Source[r.index])
	}
	return m, nil
}

// mixWeights checks and normalizes the shares.
func mixWeights(w []float64, n int) ([]float64, error) {
	if len(w) == 0 {
		w = make([]float64, n)
		for i := range w {
			w[i] = 1
		}
	}
	if len(w) != n {
		return nil, fmt.Errorf("resample: %d weights for %d logs; give one weight per log", len(w), n)
	}
	sum := 0.0
	for i, x := range w {
		if !(x > 0) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("resample: weight %d is %v; weights must be positive numbers", i+1, x)
		}
		sum += x
	}
	out := make([]float64, n)
	for i, x := range w {
		out[i] = x / sum
	}
	return out, nil
}

// mixProcs applies the machine-size rule.
func mixProcs(pools []*Pools, want int) (int, error) {
	e := &MachineSizeError{}
	hi := 0
	for _, p := range pools {
		n, err := p.Trace.MachineSize()
		if err != nil {
			n = 0
			if want <= 0 {
				return 0, fmt.Errorf("resample: %w; mixing needs every log's machine size, or a size for the mix (--machine N)", err)
			}
		}
		e.Names = append(e.Names, p.Trace.Name)
		e.Procs = append(e.Procs, n)
		hi = max(hi, n)
	}
	switch {
	case want > 0:
		return want, nil
	case want == MaxProcs:
		return hi, nil
	case want < 0:
		return 0, fmt.Errorf("resample: machine size %d: want a positive size or MaxProcs", want)
	}
	for _, n := range e.Procs[1:] {
		if n != e.Procs[0] {
			return 0, e
		}
	}
	return hi, nil
}

// toOther moves relative time t of c's log to the same local week,
// weekday and time of day in the calendar o (week k of one log onto week
// k of the other, both counted from the Monday that begins week 0).
func (c *calendar) toOther(t int64, o *calendar) int64 {
	if c == o {
		return t
	}
	return o.fromLocal(o.origin + c.local(t) - c.origin)
}

// Header keys of a mixed log.
const (
	// KeyMixLog lines name the logs of a mix: "; MixLog: K WEIGHT NAME
	// SHA256", K being the number in field 16 (partition) of its jobs.
	KeyMixLog = "MixLog"
	// KeyMixParams records the mix's parameters.
	KeyMixParams = "MixParams"
)

// Trace returns the mix as a log. The header keeps the first log's start
// time and time zone (the time base of the mix), sets MaxProcs to the
// mixed machine, leaves out the logs' site lines and MaxNodes (they
// describe one machine), and records how the log was made: the hpcwl
// version, the seed, the parameters, one MixLog line per log (its number,
// weight, name and SHA-256) and one UserCopy line per copy, whose sixth
// field is the copy's log number. Every job's field 16 (partition) is its
// log number; wait times are -1.
func (m *Mixed) Trace(command string) *trace.Trace {
	first := m.Parts[0].Pools.Trace
	var h swf.Header
	h.Add("Version", "2.2")
	h.Add("Computer", "mix of "+strconv.Itoa(len(m.Parts))+" logs resampled at the user level")
	n := strconv.Itoa(len(m.Jobs))
	h.Add("MaxJobs", n)
	h.Add("MaxRecords", n)
	for _, k := range []string{"UnixStartTime", "TimeZone", "TimeZoneString", "StartTime"} {
		if v, ok := first.Header.Get(k); ok {
			h.Add(k, v)
		}
	}
	if _, ok := first.Header.Get("EndTime"); ok {
		h.Add("EndTime", first.Clock().Time(m.Duration).Format("Mon Jan 02 15:04:05 MST 2006"))
	}
	h.Add("MaxProcs", strconv.Itoa(m.Procs))
	h.Add("MaxPartitions", strconv.Itoa(len(m.Parts)))
	h.AddNote("mixed from several logs resampled at the user level (Zakay's mixing of traces): every job is a job of one of the logs, shifted by whole weeks " +
		"with the rest of its user's sub-trace and moved to the same week, weekday and time of day of the first log's calendar; " +
		"field 16 (partition) is the job's log number (MixLog lines), field 12 numbers the user copies (UserCopy lines: ID USER CLASS SLOT SHIFT_WEEKS LOG), " +
		"field 3 (wait time) and field 17 are -1")
	h.Add(KeyVersion, "hpcwl "+version.String())
	h.Add(KeySeed, fmt.Sprintf("%d stream %d", m.Seed, m.Stream))
	p0 := m.Parts[0].Params
	h.Add(KeyMixParams, fmt.Sprintf("duration=%d load=%s procs=%d oversize=%s dropped=%d clamped=%d before_start=%d",
		m.Duration, fmtFloat(p0.LoadFactor/m.Weights[0]), m.Procs, m.Oversize, m.Dropped, m.Clamped, m.BeforeStart))
	for i, w := range m.Parts {
		t := w.Pools.Trace
		h.Add(KeyMixLog, fmt.Sprintf("%d %s %s %s", i+1, fmtFloat(m.Weights[i]), strings.ReplaceAll(t.Name, " ", "_"), orDash(t.SHA256)))
		h.Add(KeyParams, fmt.Sprintf("log=%d %s", i+1, paramsText(w.Pools, w.Params)))
	}
	if command != "" {
		h.Add(KeyCommand, command)
	}
	for i := range m.Copies {
		c := &m.Copies[i]
		h.Add(KeyCopy, fmt.Sprintf("%d %d %s %d %d %d", c.ID, c.User, c.Class, c.Slot, c.Shift, m.CopyLog[i]+1))
	}
	jobs := make([]trace.Job, len(m.Jobs))
	for i := range m.Jobs {
		jobs[i] = m.Jobs[i]
		jobs[i].Wait = -1
	}
	t := trace.New(h, jobs, trace.Options{Procs: m.Procs})
	return t
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
