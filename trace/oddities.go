package trace

import (
	"fmt"
	"math"
	"strings"

	"github.com/hpcwl/hpcwl/swf"
)

// ReqTimeLimit is the smallest requested time read as "unlimited": 2^31-1 s
// (68 years), the largest signed 32-bit integer, which some logs (and the
// 2^32-1 and 2^63-1 of others) use for jobs without a limit. [Read] turns
// requested times at or above it into -1 (unknown) and counts them in
// [Oddities.ReqTimeAtLimit], so that they do not dominate means.
const ReqTimeLimit = math.MaxInt32

// Oddities counts the values [Read] replaced by -1 (unknown) while reading.
type Oddities struct {
	// OutOfRange counts, per SWF field name, the values outside the field's
	// documented range replaced in lenient mode ([Options.Lenient]).
	OutOfRange map[string]int `json:"out_of_range,omitempty"`
	// ReqTimeAtLimit counts requested times at an integer limit
	// ([ReqTimeLimit]), read as unknown in both modes.
	ReqTimeAtLimit int `json:"requested_time_at_limit,omitempty"`
}

// Any reports whether some value was replaced.
func (o *Oddities) Any() bool { return len(o.OutOfRange) > 0 || o.ReqTimeAtLimit > 0 }

// String describes the replacements in one sentence, "" when there were none.
func (o *Oddities) String() string {
	var parts []string
	if n := o.outOfRange(); n > 0 {
		var fields []string
		for i := range swf.FieldNames {
			if c := o.OutOfRange[swf.FieldNames[i]]; c > 0 {
				fields = append(fields, fmt.Sprintf("%s %d", swf.FieldNames[i], c))
			}
		}
		parts = append(parts, fmt.Sprintf("%d value(s) out of range read as unknown (-1): %s",
			n, strings.Join(fields, ", ")))
	}
	if o.ReqTimeAtLimit > 0 {
		parts = append(parts, fmt.Sprintf("%d requested time(s) at an integer limit (>= %d s, \"unlimited\") read as unknown (-1)",
			o.ReqTimeAtLimit, ReqTimeLimit))
	}
	return strings.Join(parts, "; ")
}

func (o *Oddities) outOfRange() int {
	n := 0
	for _, c := range o.OutOfRange {
		n += c
	}
	return n
}

func (o *Oddities) addOutOfRange(field, n int) {
	if n == 0 {
		return
	}
	if o.OutOfRange == nil {
		o.OutOfRange = map[string]int{}
	}
	o.OutOfRange[swf.FieldNames[field-1]] += n
}
