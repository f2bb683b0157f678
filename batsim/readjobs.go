package batsim

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// jobsRequired are the columns of a jobs.csv that [ReadJobs] needs.
var jobsRequired = []string{"job_id", "submission_time", "requested_number_of_resources", "requested_time",
	"starting_time", "execution_time", "waiting_time", "final_state"}

// ReadJobs reads the jobs.csv of a Batsim run (the schedule Batsim
// simulated, columns as [JobsColumns], in any order, extra columns
// ignored) as a trace in SWF terms: job number from job_id (the part after
// "!" when it names its workload), submit, wait and run times from
// submission_time, waiting_time and execution_time (rounded to seconds),
// processors requested and allocated from requested_number_of_resources,
// requested time from requested_time, status 1 for a job
// COMPLETED_SUCCESSFULLY, 0 for one killed or failed, and 5 (cancelled,
// wait and runtime -1) for one REJECTED. The machine size is
// opt.Procs, else one above the highest processor of allocated_resources.
// The jobs are ordered by submit time; the header records the source.
func ReadJobs(r io.Reader, name string, opt trace.Options) (*trace.Trace, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = false
	head, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty file, expected Batsim's jobs.csv", name)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	col := map[string]int{}
	for i, c := range head {
		col[strings.TrimSpace(c)] = i
	}
	var missing []string
	for _, c := range jobsRequired {
		if _, ok := col[c]; !ok {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s: not a Batsim jobs.csv: missing column(s) %s", name, strings.Join(missing, ", "))
	}
	alloc, hasAlloc := col["allocated_resources"]
	var jobs []trace.Job
	highest := int64(-1)
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		bad := func(c string, err error) error {
			v := rec[col[c]]
			if len(v) > 40 {
				v = v[:40] + "..."
			}
			return fmt.Errorf("%s: line %d: column %s: %q: %v", name, line, c, v, err)
		}
		num := func(c string) (float64, error) {
			v, err := strconv.ParseFloat(strings.TrimSpace(rec[col[c]]), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1<<53 {
				return 0, bad(c, errors.New("expected a number"))
			}
			return v, nil
		}
		id := rec[col["job_id"]]
		if k := strings.LastIndexByte(id, '!'); k >= 0 {
			id = id[k+1:]
		}
		j := trace.Job{AvgCPU: -1, UsedMem: -1, ReqMem: -1, User: -1, Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1}
		if j.ID, err = strconv.ParseInt(strings.TrimSpace(id), 10, 64); err != nil {
			return nil, bad("job_id", errors.New("expected an integer job number"))
		}
		vals := map[string]float64{}
		for _, c := range []string{"submission_time", "requested_number_of_resources", "requested_time", "starting_time", "execution_time", "waiting_time"} {
			if vals[c], err = num(c); err != nil {
				return nil, err
			}
		}
		j.Submit = int64(math.Round(vals["submission_time"]))
		procs := vals["requested_number_of_resources"]
		if procs < 1 || procs > math.MaxInt32 || procs != math.Trunc(procs) {
			return nil, bad("requested_number_of_resources", errors.New("expected a whole number of processors >= 1"))
		}
		j.Procs, j.ReqProcs = int32(procs), int32(procs)
		j.ReqTime = int64(math.Round(vals["requested_time"]))
		if j.ReqTime < 0 {
			j.ReqTime = -1
		}
		switch state := strings.TrimSpace(rec[col["final_state"]]); state {
		case "COMPLETED_SUCCESSFULLY":
			j.Status = 1
		case "REJECTED", "REJECTED_NOT_ENOUGH_RESOURCES", "REJECTED_NOT_ENOUGH_AVAILABLE_RESOURCES", "REJECTED_NO_WALLTIME":
			j.Status = 5
		default:
			j.Status = 0
		}
		if j.Status == 5 || vals["starting_time"] < 0 {
			j.Wait, j.Runtime = -1, -1
		} else {
			j.Wait = int64(math.Round(vals["waiting_time"]))
			j.Runtime = int64(math.Round(vals["execution_time"]))
		}
		if hasAlloc {
			for _, part := range strings.Fields(rec[alloc]) {
				hi := part
				if k := strings.IndexByte(part, '-'); k >= 0 {
					hi = part[k+1:]
				}
				if v, err := strconv.ParseInt(hi, 10, 64); err == nil && v > highest {
					highest = v
				}
			}
		}
		jobs = append(jobs, j)
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("%s: the jobs.csv holds no jobs", name)
	}
	sort.SliceStable(jobs, func(a, b int) bool {
		if jobs[a].Submit != jobs[b].Submit {
			return jobs[a].Submit < jobs[b].Submit
		}
		return jobs[a].ID < jobs[b].ID
	})
	var h swf.Header
	h.Set("Version", "2.2")
	h.AddNote("converted by hpcwl " + version.String() + " from the Batsim jobs.csv " + name +
		": the schedule Batsim simulated (field 3 is its waiting_time, field 4 its execution_time)")
	procs := opt.Procs
	if procs == 0 && highest >= 0 {
		procs = int(highest + 1)
	}
	if procs > 0 {
		h.Set("MaxProcs", strconv.Itoa(procs))
	}
	n := strconv.Itoa(len(jobs))
	h.Set("MaxJobs", n)
	h.Set("MaxRecords", n)
	t := trace.New(h, jobs, trace.Options{Procs: procs})
	t.Name = name
	return t, nil
}
