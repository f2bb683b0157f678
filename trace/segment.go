package trace

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Segments cuts t (sorted by submit time) into the complete segments
// [k L, (k+1) L) of its period, which ends at the later of its last submit
// and its header's EndTime. Each segment is a log of its own: its submit
// times count from the segment's start and its UnixStartTime moves with
// them, so local times are unchanged. These are the segments of an
// extended resampled log that N. Zakay compares one by one with the
// original log (Zakay, Improved Realism and Representativeness of Workloads
// to Improve Reliability of Performance Evaluations, PhD thesis, Hebrew
// University of Jerusalem, section 7.2).
func (t *Trace) Segments(length int64) []*Trace {
	if len(t.Jobs) == 0 {
		return nil
	}
	end := t.Jobs[len(t.Jobs)-1].Submit + 1
	clk := t.Clock()
	if v, ok := t.Header.Get("EndTime"); ok {
		if tm, err := time.ParseInLocation("Mon Jan 2 15:04:05 MST 2006", strings.Join(strings.Fields(v), " "), clk.Loc); err == nil {
			end = max(end, tm.Unix()-clk.Start)
		}
	}
	var out []*Trace
	lo := 0
	for k := int64(0); (k+1)*length <= end; k++ {
		a, b := k*length, (k+1)*length
		for lo < len(t.Jobs) && t.Jobs[lo].Submit < a {
			lo++
		}
		hi := lo
		for hi < len(t.Jobs) && t.Jobs[hi].Submit < b {
			hi++
		}
		jobs := append([]Job(nil), t.Jobs[lo:hi]...)
		for i := range jobs {
			jobs[i].Submit -= a
		}
		h := t.Header.Clone()
		h.Set("UnixStartTime", strconv.FormatInt(clk.Start+a, 10))
		h.Set("StartTime", clk.Time(a).Format("Mon Jan 02 15:04:05 MST 2006"))
		h.Set("EndTime", clk.Time(b).Format("Mon Jan 02 15:04:05 MST 2006"))
		s := New(h, jobs, Options{Procs: t.Procs})
		s.Name = fmt.Sprintf("%s [%d, %d)", t.Name, a, b)
		out = append(out, s)
		lo = hi
	}
	return out
}
