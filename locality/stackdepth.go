package locality

import (
	"math"

	"github.com/hpcwl/hpcwl/trace"
)

// Attr is a job attribute analysed for locality.
type Attr struct {
	// Name is "runtime", "estimate" or "procs".
	Name string
	// Value returns the attribute, or a negative number when unknown.
	Value func(*trace.Job) float64
	// Tol is the relative tolerance of a match in the stack-depth
	// algorithm: 5% for times, exact (0) for processors (section 8.2).
	Tol float64
}

// Attrs are the three attributes of Table VI of the thesis.
var Attrs = []Attr{
	{"runtime", func(j *trace.Job) float64 { return float64(j.Runtime) }, 0.05},
	{"estimate", func(j *trace.Job) float64 { return float64(j.ReqTime) }, 0.05},
	{"procs", func(j *trace.Job) float64 { return float64(j.Processors()) }, 0},
}

// Depth is the result of the stack-depth algorithm.
type Depth struct {
	// Mean is the average depth, counted from 1 at the top (0 with
	// StackOptions.FromZero), of the values found on the stack; Found how many were found and Missed how many
	// were new (not counted; spec section 18.3 #15).
	Mean   float64 `json:"mean"`
	Found  int     `json:"found"`
	Missed int     `json:"missed"`
	// MeanStack is the average stack size at a search.
	MeanStack float64 `json:"mean_stack"`
}

// StackOptions choose the conventions of the stack-depth algorithm that
// section 8.2 leaves open (section 18.3 #15). The zero value is the
// default: depth 1 at the top, a found entry moves to the top holding the
// new value.
type StackOptions struct {
	// FromZero counts depth from 0 at the top.
	FromZero bool
	// KeepStored moves a found entry to the top with the value it held,
	// so a run of values each within the tolerance of the next does not
	// drag the entry along.
	KeepStored bool
}

// ThesisDepth are the conventions that reproduce the original columns of
// Table VI of the thesis on the logs we share with it (docs/validation.md).
var ThesisDepth = StackOptions{FromZero: true, KeepStored: true}

// StackDepth runs the stack-depth algorithm (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 3, section 5) on the
// jobs in submit order: each job's value is searched from the top of a
// stack of the values seen so far; when found, within relative tolerance
// tol (|a-b| <= tol max(a, b)), its depth is counted and the entry moves to
// the top holding the new value; otherwise the value is pushed. Small means
// high locality. Jobs whose value is unknown are skipped. t's jobs must be
// in submit order.
func StackDepth(t *trace.Trace, a Attr) Depth { return StackDepthWith(t, a, StackOptions{}) }

// StackDepthWith is [StackDepth] with the given conventions.
func StackDepthWith(t *trace.Trace, a Attr, opt StackOptions) Depth {
	var stack []float64 // stack[len-1] is the top
	var d Depth
	var sum, sizes float64
	for i := range t.Jobs {
		v := a.Value(&t.Jobs[i])
		if v < 0 {
			continue
		}
		sizes += float64(len(stack))
		k := -1
		for s := len(stack) - 1; s >= 0; s-- {
			if match(stack[s], v, a.Tol) {
				k = s
				break
			}
		}
		if k < 0 {
			stack = append(stack, v)
			d.Missed++
			continue
		}
		sum += float64(len(stack) - k)
		if opt.FromZero {
			sum--
		}
		d.Found++
		if opt.KeepStored {
			v = stack[k]
		}
		copy(stack[k:], stack[k+1:])
		stack[len(stack)-1] = v
	}
	if d.Found > 0 {
		d.Mean = sum / float64(d.Found)
	}
	if n := d.Found + d.Missed; n > 0 {
		d.MeanStack = sizes / float64(n)
	}
	return d
}

func match(s, v, tol float64) bool {
	if tol == 0 {
		return s == v
	}
	return math.Abs(s-v) <= tol*math.Max(s, v)
}
