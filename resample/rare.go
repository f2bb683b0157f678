package resample

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// RarePeriod is a rare behaviour (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 3, section 6): every job of User
// submitted in [Begin, End] (relative seconds) leaves the user's regular
// sub-trace and forms a pseudo-user of the rare pool.
type RarePeriod struct {
	User       int32
	Begin, End int64
}

// String returns "USER:BEGIN-END", the form ParseRarePeriod reads.
func (r RarePeriod) String() string { return fmt.Sprintf("%d:%d-%d", r.User, r.Begin, r.End) }

// ParseRarePeriod parses "USER:BEGIN-END" with times in seconds relative to
// the log's start, or "USER" alone for all of the user's activity.
func ParseRarePeriod(s string) (RarePeriod, error) {
	bad := fmt.Errorf("rare behaviour %q: want USER:BEGIN-END (seconds from the log's start) or USER", s)
	us, span, hasSpan := strings.Cut(s, ":")
	u, err := strconv.ParseInt(us, 10, 32)
	if err != nil || u < 0 {
		return RarePeriod{}, bad
	}
	r := RarePeriod{User: int32(u), Begin: 0, End: 1<<62 - 1}
	if !hasSpan {
		return r, nil
	}
	bs, es, ok := strings.Cut(span, "-")
	if !ok {
		return RarePeriod{}, bad
	}
	if r.Begin, err = strconv.ParseInt(bs, 10, 64); err != nil {
		return RarePeriod{}, bad
	}
	if r.End, err = strconv.ParseInt(es, 10, 64); err != nil || r.End < r.Begin {
		return RarePeriod{}, bad
	}
	return r, nil
}

// RareDetector flags rare behaviours (our choice where the thesis leaves it open): a user-week
// is flagged when it holds more than Factor times the user's median number
// of jobs per active week and more than MinJobs jobs; adjacent flagged weeks
// of a user merge into one period.
type RareDetector struct {
	// Factor is the multiple of the median weekly count; 0 means 10.
	Factor float64
	// MinJobs is the least number of jobs of a flagged week; 0 means 500.
	MinJobs int
}

// rarePeriods returns the given rare periods plus the detected ones.
func (p *Pools) rarePeriods(opt ClassifyOptions) ([]RarePeriod, error) {
	out := slices.Clone(opt.Rare)
	for _, r := range out {
		if r.End < r.Begin {
			return nil, fmt.Errorf("resample: rare behaviour %v ends before it begins", r)
		}
	}
	if opt.Detect != nil {
		out = append(out, p.detect(*opt.Detect)...)
	}
	slices.SortFunc(out, func(a, b RarePeriod) int {
		if a.User != b.User {
			return int(a.User) - int(b.User)
		}
		return compare(a.Begin, b.Begin)
	})
	return out, nil
}

func compare(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// detect applies the detector to every user.
func (p *Pools) detect(d RareDetector) []RarePeriod {
	if d.Factor == 0 {
		d.Factor = 10
	}
	if d.MinJobs == 0 {
		d.MinJobs = 500
	}
	var out []RarePeriod
	for _, tu := range p.Trace.Users() {
		if tu.ID < 0 {
			continue
		}
		counts := map[int32]int{}
		var weeks []int32
		for _, i := range tu.Jobs {
			if !usable(&p.Trace.Jobs[i]) {
				continue
			}
			w := p.week[i]
			if counts[w] == 0 {
				weeks = append(weeks, w)
			}
			counts[w]++
		}
		if len(weeks) == 0 {
			continue
		}
		cs := make([]int, len(weeks))
		for k, w := range weeks {
			cs[k] = counts[w]
		}
		slices.Sort(cs)
		med := float64(cs[(len(cs)-1)/2]+cs[len(cs)/2]) / 2
		cur := -1
		prev := int32(-1 << 30)
		for _, w := range weeks {
			c := counts[w]
			if float64(c) <= d.Factor*med || c <= d.MinJobs {
				continue
			}
			begin := p.cal.weekStart(int(w))
			end := p.cal.weekStart(int(w)+1) - 1
			if cur >= 0 && w == prev+1 {
				out[cur].End = end
			} else {
				out = append(out, RarePeriod{User: tu.ID, Begin: begin, End: end})
				cur = len(out) - 1
			}
			prev = w
		}
	}
	return out
}
