package resample

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// Header keys of a generated log.
const (
	// KeyCopy lines map a copy's user ID to the original user:
	// "; UserCopy: ID USER CLASS SLOT SHIFT_WEEKS".
	KeyCopy = "UserCopy"
	// KeySource, KeySHA256, KeyVersion, KeySeed, KeyParams and KeyCommand
	// record how the log was made.
	KeySource  = "ResampledFrom"
	KeySHA256  = "ResampledFromSHA256"
	KeyVersion = "ResampledBy"
	KeySeed    = "ResampleSeed"
	KeyParams  = "ResampleParams"
	KeyCommand = "ResampleCommand"
)

// Trace returns the workload as a log: the original header with the job
// counts and end time updated, notes saying how the log was made, the
// parameters and seed, the hpcwl version, the source's name and SHA-256,
// command (when not empty) and one UserCopy line per copy. Wait times are
// -1 (unknown): the source's waits describe another schedule.
func (w *Workload) Trace(command string) *trace.Trace {
	src := w.Pools.Trace
	h := header(w.Pools, w.Params, len(w.Jobs), w.Copies, command)
	// The waits of the source describe its schedule, in which these jobs
	// did not run together: they are unknown here (simulate the workload to
	// get waits).
	jobs := make([]trace.Job, len(w.Jobs))
	for i := range w.Jobs {
		jobs[i] = w.Jobs[i]
		jobs[i].Wait = -1
	}
	return trace.New(h, jobs, trace.Options{Procs: src.Procs})
}

// header returns the header of a workload of n jobs drawn from p: see
// [Workload.Trace].
func header(p *Pools, pr Params, n int, copies []Copy, command string) swf.Header {
	src := p.Trace
	h := src.Header.Clone()
	count := strconv.Itoa(n)
	h.Set("MaxJobs", count)
	h.Set("MaxRecords", count)
	clk := src.Clock()
	if _, ok := h.Get("EndTime"); ok {
		h.Set("EndTime", clk.Time(pr.Duration).Format("Mon Jan 02 15:04:05 MST 2006"))
	}
	h.AddNote("resampled at the user level (Zakay & Feitelson): every job is a job of the original log, shifted by whole weeks in local time with the rest of its user's sub-trace; " +
		"field 12 numbers the user copies (UserCopy lines give the original user), field 3 (wait time) is -1: the original waits belong to the original schedule, not to this workload; field 17 is -1")
	h.Add(KeyVersion, "hpcwl "+version.String())
	h.Add(KeySource, src.Name)
	if src.SHA256 != "" {
		h.Add(KeySHA256, src.SHA256)
	}
	h.Add(KeySeed, fmt.Sprintf("%d stream %d", pr.Seed, pr.Stream))
	h.Add(KeyParams, paramsText(p, pr))
	if command != "" {
		h.Add(KeyCommand, command)
	}
	for i := range copies {
		c := &copies[i]
		h.Add(KeyCopy, fmt.Sprintf("%d %d %s %d %d", c.ID, c.User, c.Class, c.Slot, c.Shift))
	}
	return h
}

func paramsText(p *Pools, pr Params) string {
	o := p.Options
	var b strings.Builder
	fmt.Fprintf(&b, "duration=%d load=%s n_lt=%d n_t0=%.4g r_t=%.4g rb_npw=%s log_weeks=%d cycle_weeks=%d",
		pr.Duration, fmtFloat(pr.LoadFactor), pr.LongTerm, pr.InitialTemporary, pr.WeeklyRate, fmtFloat(pr.RBNPW), pr.LogWeeks, pr.CycleWeeks)
	fmt.Fprintf(&b, " long_term_span=%d boundary=%d discard=%s weeks_active=%s period=%s week0_arrivals=%v inner_rate=%v",
		o.LongTermSpan, o.Boundary, discardRule(o), map[bool]string{false: "distinct", true: "span"}[o.WeeksBySpan],
		periodKey(p), pr.WeekZeroArrivals, pr.InnerRate)
	if pr.AlignLongTerm {
		b.WriteString(" align_long_term=true")
	}
	if pr.CyclePhase {
		b.WriteString(" cycle_phase=true")
	}
	if pr.Prefer != "" {
		fmt.Fprintf(&b, " prefer=%s preferred_long_term=%d preferred_temporary=%d", pr.Prefer, pr.PreferredLongTerm, pr.PreferredTemporary)
	}
	for _, r := range p.Rare {
		fmt.Fprintf(&b, " rare=%v", *r.Period)
	}
	return b.String()
}

func discardRule(o ClassifyOptions) string {
	switch {
	case o.NoDiscard:
		return "none"
	case o.Touch:
		return "touch"
	}
	return "inside"
}

// CopyInfo is one UserCopy line of a generated log's header.
type CopyInfo struct {
	ID, User   int32
	Class      Class
	Slot       int32
	ShiftWeeks int
	// Log is the copy's log number in a mixed log (the sixth field), 0
	// in a log resampled from one log.
	Log int
}

// Copies reads the UserCopy lines of a generated or mixed log's header, by
// copy ID.
// A header without them gives an empty map.
func Copies(h *swf.Header) (map[int32]CopyInfo, error) {
	m := map[int32]CopyInfo{}
	for _, v := range h.GetAll(KeyCopy) {
		f := strings.Fields(v)
		if len(f) != 5 && len(f) != 6 {
			return nil, fmt.Errorf("resample: header line %q: want %s: ID USER CLASS SLOT SHIFT [LOG]", v, KeyCopy)
		}
		lg := 0
		if len(f) == 6 {
			x, err := strconv.Atoi(f[5])
			if err != nil || x < 1 {
				return nil, fmt.Errorf("resample: header line %q: log number %q: want a number from 1", v, f[5])
			}
			lg = x
		}
		var nums [4]int64
		for i, s := range []string{f[0], f[1], f[3], f[4]} {
			x, err := strconv.ParseInt(s, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("resample: header line %q: %v", v, err)
			}
			nums[i] = x
		}
		c, err := ParseClass(f[2])
		if err != nil {
			return nil, fmt.Errorf("resample: header line %q: %v", v, err)
		}
		m[int32(nums[0])] = CopyInfo{ID: int32(nums[0]), User: int32(nums[1]), Class: c, Slot: int32(nums[2]), ShiftWeeks: int(nums[3]), Log: lg}
	}
	return m, nil
}

// periodKey names the period for the header's parameter line: the choice,
// and for PeriodAuto the bounds it took, without spaces.
func periodKey(p *Pools) string {
	if p.Options.Period != PeriodAuto {
		return p.Options.Period.String()
	}
	return "auto:" + strings.ReplaceAll(p.PeriodText(), " ", "_")
}
