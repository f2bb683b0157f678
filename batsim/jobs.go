package batsim

import (
	"cmp"
	"container/heap"
	"encoding/csv"
	"io"
	"slices"
	"strconv"

	"github.com/hpcwl/hpcwl/sim"
)

// JobsColumns are the columns of Batsim's jobs.csv (the output of a
// Batsim run), in order.
var JobsColumns = []string{"job_id", "workload_name", "profile", "submission_time", "requested_number_of_resources",
	"requested_time", "success", "final_state", "starting_time", "execution_time", "finish_time", "waiting_time",
	"turnaround_time", "stretch", "allocated_resources", "consumed_energy", "metadata"}

// JobRow is one line of Batsim's jobs.csv (the output of a Batsim run):
// one job's schedule. The struct tags name the columns for Parquet.
type JobRow struct {
	JobID              int64   `parquet:"job_id"`
	WorkloadName       string  `parquet:"workload_name,dict"`
	Profile            string  `parquet:"profile,dict"`
	SubmissionTime     int64   `parquet:"submission_time"`
	RequestedResources int64   `parquet:"requested_number_of_resources"`
	RequestedTime      int64   `parquet:"requested_time"`
	Success            int32   `parquet:"success"`
	FinalState         string  `parquet:"final_state,dict"`
	StartingTime       int64   `parquet:"starting_time"`
	ExecutionTime      int64   `parquet:"execution_time"`
	FinishTime         int64   `parquet:"finish_time"`
	WaitingTime        int64   `parquet:"waiting_time"`
	TurnaroundTime     int64   `parquet:"turnaround_time"`
	Stretch            float64 `parquet:"stretch"`
	AllocatedResources string  `parquet:"allocated_resources"`
	ConsumedEnergy     float64 `parquet:"consumed_energy"`
	Metadata           string  `parquet:"metadata"`
}

// Rows returns the schedule res as the lines of Batsim's jobs.csv, in job
// ID order, workload naming the workload_name column. Processors are
// numbered 0..P-1 and allocated lowest numbers first, so that
// allocated_resources is a valid Batsim interval set; energy is not
// modelled (-1); the stretch follows the metrics package's rule,
// max(1, turnaround / max(runtime, 1 s)).
func Rows(res *sim.Result, workload string) []JobRow {
	alloc := Allocate(res)
	order := make([]int, len(res.Jobs))
	for i := range order {
		order[i] = i
	}
	sortByID(order, res)
	rows := make([]JobRow, len(order))
	for k, i := range order {
		o := &res.Jobs[i]
		exec := o.Ran()
		turn := o.End - o.Submit
		var success int32 = 1
		state := "COMPLETED_SUCCESSFULLY"
		if o.Killed {
			success, state = 0, "COMPLETED_WALLTIME_REACHED"
		}
		rows[k] = JobRow{JobID: o.ID, WorkloadName: workload, Profile: "rigid", SubmissionTime: int64(o.Submit),
			RequestedResources: int64(o.Procs), RequestedTime: int64(o.Estimate), Success: success, FinalState: state,
			StartingTime: int64(o.Start), ExecutionTime: int64(exec), FinishTime: int64(o.End), WaitingTime: int64(o.Wait()),
			TurnaroundTime: int64(turn), AllocatedResources: alloc[i], ConsumedEnergy: -1,
			Stretch: max(1, float64(turn)/float64(max(exec, 1)))}
	}
	return rows
}

// WriteJobs writes the schedule res as Batsim's jobs.csv would record it
// (the lines of [Rows]); fields holding a comma or a quote are quoted.
func WriteJobs(w io.Writer, res *sim.Result, workload string) error {
	// encoding/csv quotes a field holding a comma, a quote or a line
	// break (a workload name may), as Batsim's readers expect.
	cw := csv.NewWriter(w)
	if err := cw.Write(JobsColumns); err != nil {
		return err
	}
	rec := make([]string, len(JobsColumns))
	itoa := func(v int64) string { return strconv.FormatInt(v, 10) }
	put := func(r *JobRow) error {
		rec = append(rec[:0], itoa(r.JobID), r.WorkloadName, r.Profile, itoa(r.SubmissionTime), itoa(r.RequestedResources),
			itoa(r.RequestedTime), itoa(int64(r.Success)), r.FinalState, itoa(r.StartingTime), itoa(r.ExecutionTime), itoa(r.FinishTime),
			itoa(r.WaitingTime), itoa(r.TurnaroundTime), strconv.FormatFloat(r.Stretch, 'g', 10, 64), r.AllocatedResources,
			strconv.FormatFloat(r.ConsumedEnergy, 'g', -1, 64), r.Metadata)
		return cw.Write(rec)
	}
	if idOrdered(res) {
		if err := streamRows(res, workload, put); err != nil {
			return err
		}
	} else {
		rows := Rows(res, workload)
		for i := range rows {
			if err := put(&rows[i]); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// row returns job i of res as a line of jobs.csv with the processors alloc.
func row(res *sim.Result, i int, workload, alloc string) JobRow {
	o := &res.Jobs[i]
	exec := o.Ran()
	turn := o.End - o.Submit
	var success int32 = 1
	state := "COMPLETED_SUCCESSFULLY"
	if o.Killed {
		success, state = 0, "COMPLETED_WALLTIME_REACHED"
	}
	return JobRow{JobID: o.ID, WorkloadName: workload, Profile: "rigid", SubmissionTime: int64(o.Submit),
		RequestedResources: int64(o.Procs), RequestedTime: int64(o.Estimate), Success: success, FinalState: state,
		StartingTime: int64(o.Start), ExecutionTime: int64(exec), FinishTime: int64(o.End), WaitingTime: int64(o.Wait()),
		TurnaroundTime: int64(turn), AllocatedResources: alloc, ConsumedEnergy: -1,
		Stretch: max(1, float64(turn)/float64(max(exec, 1)))}
}

// idOrdered reports whether res's jobs are in order of job number (as
// they are in arrival order when the log numbers its jobs as they come).
func idOrdered(res *sim.Result) bool {
	for k := 1; k < len(res.Jobs); k++ {
		if res.Jobs[k].ID < res.Jobs[k-1].ID {
			return false
		}
	}
	return true
}

// streamRows hands put the rows of [Rows] one at a time, for jobs already
// in order of job number, without building them all: the processors are
// allocated in the event order of [Allocate] (starts sorted, ends from a
// heap of the running jobs), and a row waits only until the jobs before it
// in the file have started. It keeps 4 bytes per job (the start order) and,
// for the jobs started ahead of the first one not yet written, their
// processor lists.
func streamRows(res *sim.Result, workload string, put func(*JobRow) error) error {
	jobs := res.Jobs
	starts := make([]int32, 0, len(jobs))
	for i := range jobs {
		if jobs[i].Start >= 0 {
			starts = append(starts, int32(i))
		}
	}
	kind := func(i int32) int8 { // as in Allocate: 1 zero-length job, 2 start
		if jobs[i].End == jobs[i].Start {
			return 1
		}
		return 2
	}
	slices.SortFunc(starts, func(a, b int32) int {
		return cmp.Or(cmp.Compare(jobs[a].Start, jobs[b].Start), cmp.Compare(kind(a), kind(b)), cmp.Compare(a, b))
	})
	var run endHeap
	free := []span{{0, int32(res.Procs)}}
	var buf []byte
	// Rows from next on wait in pend until their allocation is known:
	// pend[head+k] is job next+k (head saves moving the window at every
	// row; it is compacted once half of it is spent).
	next, head := 0, 0
	var pend []string
	var known []bool
	flush := func() error {
		for next < len(jobs) {
			a, ok := "", jobs[next].Start < 0
			if head < len(pend) {
				a, ok = pend[head], ok || known[head]
			}
			if !ok {
				break
			}
			r := row(res, next, workload, a)
			if err := put(&r); err != nil {
				return err
			}
			next++
			if head < len(pend) {
				pend[head] = ""
				head++
			}
		}
		if head >= len(pend) {
			pend, known, head = pend[:0], known[:0], 0
		} else if 2*head > len(pend) {
			n := copy(pend, pend[head:])
			copy(known, known[head:])
			pend, known, head = pend[:n], known[:n], 0
		}
		return nil
	}
	for _, i := range starts {
		o := &jobs[i]
		for len(run) > 0 && run[0].end <= o.Start {
			for _, sp := range run[0].held {
				free = release(free, sp)
			}
			heap.Pop(&run)
		}
		var got []span
		got, free = take(free, o.Procs)
		buf = buf[:0]
		for k, sp := range got {
			if k > 0 {
				buf = append(buf, ' ')
			}
			buf = strconv.AppendInt(buf, int64(sp.lo), 10)
			if sp.hi-sp.lo > 1 {
				buf = append(buf, '-')
				buf = strconv.AppendInt(buf, int64(sp.hi-1), 10)
			}
		}
		if kind(i) == 1 {
			for _, sp := range got {
				free = release(free, sp)
			}
		} else {
			heap.Push(&run, held{end: o.End, ref: i, held: got})
		}
		k := head + int(i) - next
		for len(pend) <= k {
			pend, known = append(pend, ""), append(known, false)
		}
		pend[k], known[k] = string(buf), true
		if int(i) == next || jobs[next].Start < 0 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// held is a running job's processors, in a heap by (end, ref).
type held struct {
	end  sim.Time
	ref  int32
	held []span
}

type endHeap []held

func (h endHeap) Len() int { return len(h) }
func (h endHeap) Less(a, b int) bool {
	return h[a].end < h[b].end || (h[a].end == h[b].end && h[a].ref < h[b].ref)
}
func (h endHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *endHeap) Push(x any)   { *h = append(*h, x.(held)) }
func (h *endHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func sortByID(order []int, res *sim.Result) {
	sortedAlready := true
	for k := 1; k < len(order); k++ {
		if res.Jobs[order[k]].ID < res.Jobs[order[k-1]].ID {
			sortedAlready = false
			break
		}
	}
	if sortedAlready {
		return
	}
	slices.SortFunc(order, func(a, b int) int {
		x, y := res.Jobs[a].ID, res.Jobs[b].ID
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
}

// span is a run of processors [lo, hi).
type span struct{ lo, hi int32 }

// Allocate gives every job of res concrete processors 0..P-1, lowest free
// numbers first, replaying starts and ends in time order (ends first at
// equal times, then zero-length jobs, then starts in arrival order), and
// returns each job's Batsim interval set ("0-3 8-9").
func Allocate(res *sim.Result) []string {
	type ev struct {
		t    sim.Time
		kind int8 // 0 end, 1 zero-length job, 2 start
		ref  int32
	}
	evs := make([]ev, 0, 2*len(res.Jobs))
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.Start < 0 {
			continue
		}
		if o.End == o.Start {
			evs = append(evs, ev{o.Start, 1, int32(i)})
			continue
		}
		evs = append(evs, ev{o.Start, 2, int32(i)}, ev{o.End, 0, int32(i)})
	}
	slices.SortFunc(evs, func(a, b ev) int {
		switch {
		case a.t != b.t:
			return cmpInt(int64(a.t), int64(b.t))
		case a.kind != b.kind:
			return int(a.kind) - int(b.kind)
		}
		return int(a.ref - b.ref)
	})
	free := []span{{0, int32(res.Procs)}}
	held := make([][]span, len(res.Jobs))
	out := make([]string, len(res.Jobs))
	var buf []byte
	for _, e := range evs {
		switch e.kind {
		case 0:
			for _, sp := range held[e.ref] {
				free = release(free, sp)
			}
			held[e.ref] = nil
		default:
			var got []span
			got, free = take(free, res.Jobs[e.ref].Procs)
			buf = buf[:0]
			for k, sp := range got {
				if k > 0 {
					buf = append(buf, ' ')
				}
				buf = strconv.AppendInt(buf, int64(sp.lo), 10)
				if sp.hi-sp.lo > 1 {
					buf = append(buf, '-')
					buf = strconv.AppendInt(buf, int64(sp.hi-1), 10)
				}
			}
			out[e.ref] = string(buf)
			if e.kind == 1 {
				for _, sp := range got {
					free = release(free, sp)
				}
			} else {
				held[e.ref] = got
			}
		}
	}
	return out
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// take removes n processors from the front of the free list.
func take(free []span, n int32) (got, rest []span) {
	i := 0
	for n > 0 && i < len(free) {
		sp := free[i]
		if sp.hi-sp.lo <= n {
			got = append(got, sp)
			n -= sp.hi - sp.lo
			i++
			continue
		}
		got = append(got, span{sp.lo, sp.lo + n})
		free[i].lo += n
		n = 0
	}
	return got, free[i:]
}

// release returns sp to the sorted free list, merging neighbours.
func release(free []span, sp span) []span {
	i, _ := slices.BinarySearchFunc(free, sp.lo, func(a span, lo int32) int { return int(a.lo - lo) })
	free = slices.Insert(free, i, sp)
	if i+1 < len(free) && free[i].hi == free[i+1].lo {
		free[i].hi = free[i+1].hi
		free = slices.Delete(free, i+1, i+2)
	}
	if i > 0 && free[i-1].hi == free[i].lo {
		free[i-1].hi = free[i].hi
		free = slices.Delete(free, i, i+1)
	}
	return free
}
