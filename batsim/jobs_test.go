package batsim

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

func outcome(id int64, submit, start, end sim.Time, procs int32) sim.Outcome {
	return sim.Outcome{Job: sim.Job{ID: id, Submit: submit, Runtime: end - start, Estimate: end - start, Procs: procs}, Start: start, End: end}
}

// TestAllocate checks the processor numbers on a hand-worked schedule of a
// 4-processor machine: job 1 takes 0-1 over [0, 10); job 2 takes 2 over
// [0, 5); job 3 starts at 5, when 2-3 are free; job 4 (zero runtime) at 10
// gets the lowest free numbers, 0-1, released by job 1 at the same time
// (ends before starts); job 5 never started.
func TestAllocate(t *testing.T) {
	res := &sim.Result{Procs: 4, Jobs: []sim.Outcome{
		outcome(1, 0, 0, 10, 2),
		outcome(2, 0, 0, 5, 1),
		outcome(3, 1, 5, 20, 2),
		outcome(4, 2, 10, 10, 2),
		{Job: sim.Job{ID: 5, Submit: 3, Runtime: 4, Procs: 1}, Start: -1, End: -1},
	}}
	got := Allocate(res)
	want := []string{"0-1", "2", "2-3", "0-1", ""}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("job %d: %q, want %q", i+1, got[i], want[i])
		}
	}
}

// TestWriteJobs checks the columns and the derived times of one row, and
// the quoting of a workload name holding a comma.
func TestWriteJobs(t *testing.T) {
	res := &sim.Result{Procs: 4, Jobs: []sim.Outcome{outcome(7, 100, 130, 160, 3)}}
	var b bytes.Buffer
	if err := WriteJobs(&b, res, "a,b"); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || strings.Join(rows[0], ",") != strings.Join(JobsColumns, ",") {
		t.Fatalf("rows %q", rows)
	}
	r := map[string]string{}
	for i, c := range JobsColumns {
		r[c] = rows[1][i]
	}
	for k, v := range map[string]string{"job_id": "7", "workload_name": "a,b", "submission_time": "100", "starting_time": "130",
		"execution_time": "30", "finish_time": "160", "waiting_time": "30", "turnaround_time": "60", "stretch": "2",
		"allocated_resources": "0-2", "requested_number_of_resources": "3"} {
		if r[k] != v {
			t.Errorf("%s = %q, want %q", k, r[k], v)
		}
	}
}
