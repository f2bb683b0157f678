package trace

import (
	"fmt"
	"strings"
	"time"
)

// GapThreshold is the longest stretch, in seconds, between the header's
// start and the first job, or between the last job and the header's end,
// that [Gaps] accepts as part of the log: 4 weeks. Cleaned archive logs
// start up to a few days before their first job (SDSC-DS: 25 days); a
// longer stretch without jobs dilutes figures computed over the header's
// period (offered load, arrival rates) and is reported.
const GapThreshold = 28 * 86400

// HeaderEnd returns the header's EndTime as a relative time (seconds since
// the UnixStartTime), or false when the header has none or it cannot be
// read (the archive writes it as "Fri Aug 29 10:55:01 CEST 1997").
func (t *Trace) HeaderEnd() (int64, bool) {
	v, ok := t.Header.Get("EndTime")
	if !ok {
		return 0, false
	}
	clk := t.Clock()
	tm, err := time.ParseInLocation("Mon Jan 2 15:04:05 MST 2006", strings.Join(strings.Fields(v), " "), clk.Loc)
	if err != nil {
		return 0, false
	}
	return tm.Unix() - clk.Start, true
}

// Gaps are the stretches without jobs at the ends of the header's period
// that exceed [GapThreshold]; a zero field means no such gap.
type Gaps struct {
	// Lead is the time from the header's start (relative time 0) to the
	// first submit, in seconds, when longer than GapThreshold.
	Lead int64 `json:"lead_s,omitempty"`
	// Tail is the time from the last submit to the header's EndTime, in
	// seconds, when longer than GapThreshold.
	Tail int64 `json:"tail_s,omitempty"`
}

// DetectGaps returns the gaps of a log whose jobs are submitted from first
// to last (relative times) and whose header ends at headerEnd (ignored
// unless hasEnd).
func DetectGaps(first, last, headerEnd int64, hasEnd bool) Gaps {
	var g Gaps
	if first > GapThreshold {
		g.Lead = first
	}
	if hasEnd && headerEnd-last > GapThreshold {
		g.Tail = headerEnd - last
	}
	return g
}

// HeaderGaps returns the gaps between the header's period and t's submit
// times (all jobs).
func (t *Trace) HeaderGaps() Gaps {
	if len(t.Jobs) == 0 {
		return Gaps{}
	}
	first, last := t.Span()
	end, ok := t.HeaderEnd()
	return DetectGaps(first, last, end, ok)
}

// Any reports whether there is a gap.
func (g Gaps) Any() bool { return g.Lead > 0 || g.Tail > 0 }

// String describes the gaps in a sentence, "" when there are none.
func (g Gaps) String() string {
	var parts []string
	if g.Lead > 0 {
		parts = append(parts, fmt.Sprintf("the header's period starts %.1f days before the first job", float64(g.Lead)/86400))
	}
	if g.Tail > 0 {
		parts = append(parts, fmt.Sprintf("ends %.1f days after the last job", float64(g.Tail)/86400))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, " and ") + fmt.Sprintf(" (more than %d days without jobs)", GapThreshold/86400)
}
