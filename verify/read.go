package verify

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/sim"
)

// ReadJobsCSV reads a schedule in the columns of Batsim's jobs.csv, as
// written by Batsim or by hpcwl simulate --jobs: the columns are found by
// name in the header (any order; others are ignored), and job_id,
// submission_time, requested_number_of_resources, starting_time and
// finish_time are required. A job id may have Batsim's "workload!id" form.
// Times may be decimal (Batsim writes seconds as floating point); they are
// rounded to whole seconds. An empty or negative starting_time marks a job
// that never started. Errors name the file, line and column.
func ReadJobsCSV(r io.Reader, name string) ([]Entry, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = 0
	head, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file, expected a jobs.csv header", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	cols := map[string]int{}
	for i, h := range head {
		cols[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	required := []string{"job_id", "submission_time", "requested_number_of_resources", "starting_time", "finish_time"}
	idx := make([]int, len(required))
	var missing []string
	for k, c := range required {
		i, ok := cols[c]
		if !ok {
			missing = append(missing, c)
		}
		idx[k] = i
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s: line 1: header lacks column(s) %s; a jobs.csv needs %s", name,
			strings.Join(missing, ", "), strings.Join(required, ", "))
	}
	alloc, hasAlloc := cols["allocated_resources"]
	var out []Entry
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		field := func(k int) string {
			if idx[k] >= len(rec) {
				return ""
			}
			return strings.TrimSpace(rec[idx[k]])
		}
		bad := func(k int, what string) error {
			return fmt.Errorf("%s: line %d: column %s=%q: %s", name, line, required[k], field(k), what)
		}
		e := Entry{Line: line}
		id := field(0)
		if i := strings.LastIndexByte(id, '!'); i >= 0 {
			id = id[i+1:]
		}
		if e.ID, err = strconv.ParseInt(id, 10, 64); err != nil {
			return nil, bad(0, "expected an integer job id")
		}
		times := []*sim.Time{nil, &e.Submit, nil, &e.Start, &e.End}
		for k := 1; k < len(required); k++ {
			s := field(k)
			if s == "" && k >= 3 {
				*times[k] = -1
				continue
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e15 {
				return nil, bad(k, "expected a number")
			}
			if k == 2 {
				if f != math.Trunc(f) || f < 1 {
					return nil, bad(k, "expected a positive whole number of processors")
				}
				e.Procs = int(f)
				continue
			}
			*times[k] = sim.Time(math.Round(f))
		}
		if e.Start < 0 {
			e.Start, e.End = -1, -1
		} else if e.End < e.Start {
			return nil, bad(4, fmt.Sprintf("finishes before its start %d", e.Start))
		}
		if hasAlloc && alloc < len(rec) && strings.TrimSpace(rec[alloc]) != "" {
			if e.Alloc, err = ParseIntervals(rec[alloc]); err != nil {
				return nil, fmt.Errorf("%s: line %d: column allocated_resources=%q: %v", name, line, rec[alloc], err)
			}
		}
		out = append(out, e)
	}
}

// ParseIntervals reads a Batsim interval set: processor numbers and
// ranges "a-b", separated by spaces ("0-3 8 10-11").
func ParseIntervals(s string) ([]Interval, error) {
	var out []Interval
	for _, f := range strings.Fields(s) {
		lo, hi, isRange := strings.Cut(f, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("expected processor numbers or ranges a-b separated by spaces")
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("expected processor numbers or ranges a-b (a <= b) separated by spaces")
			}
		}
		out = append(out, Interval{a, b})
	}
	return out, nil
}
