package batsim

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
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

// TestReadJobsRoundTrip writes a schedule as jobs.csv and reads it back as
// a trace: the waits and runtimes are the schedule's, the jobs in submit
// order, and the machine size comes from the allocated processors.
func TestReadJobsRoundTrip(t *testing.T) {
	res := &sim.Result{Procs: 4, Jobs: []sim.Outcome{
		outcome(2, 5, 12, 20, 2),
		outcome(1, 0, 0, 10, 2),
		outcome(3, 6, 20, 20, 4),
	}}
	var b bytes.Buffer
	if err := WriteJobs(&b, res, "w"); err != nil {
		t.Fatal(err)
	}
	tr, err := ReadJobs(&b, "jobs.csv", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Procs != 4 || tr.Len() != 3 {
		t.Fatalf("procs %d jobs %d, want 4 and 3", tr.Procs, tr.Len())
	}
	want := [][4]int64{{1, 0, 0, 10}, {2, 5, 7, 8}, {3, 6, 14, 0}} // id, submit, wait, runtime
	for i, w := range want {
		j := tr.Jobs[i]
		if got := [4]int64{j.ID, j.Submit, j.Wait, j.Runtime}; got != w {
			t.Errorf("job %d: id, submit, wait, run = %v, want %v", i, got, w)
		}
		if j.Status != 1 || j.Procs != int32(res.Jobs[[]int{1, 0, 2}[i]].Procs) {
			t.Errorf("job %d: status %d procs %d", i, j.Status, j.Procs)
		}
	}
}

func TestReadJobsErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "empty file"},
		{"missing column", "job_id,submission_time\n1,0\n", "missing column(s) requested_number_of_resources"},
		{"bad number", strings.Join(JobsColumns, ",") + "\n1,w,rigid,x,1,1,1,COMPLETED_SUCCESSFULLY,0,1,1,0,1,1,0,-1,\n", "submission_time"},
		{"no jobs", strings.Join(JobsColumns, ",") + "\n", "no jobs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadJobs(strings.NewReader(c.in), "j.csv", trace.Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}

// TestWriteVersion checks the profile type each Batsim version names and
// that a zero runtime gets a delay above 0 that reads back as 0 s.
func TestWriteVersion(t *testing.T) {
	var h swf.Header
	h.Set("MaxProcs", "4")
	tr := trace.New(h, []trace.Job{
		{ID: 1, Submit: 0, Wait: 0, Runtime: 0, Procs: 1, ReqProcs: 1, ReqTime: 10, Status: 1},
		{ID: 2, Submit: 1, Wait: 0, Runtime: 5, Procs: 1, ReqProcs: 1, ReqTime: 10, Status: 1},
	}, trace.Options{})
	for _, c := range []struct {
		version int
		typ     string
	}{{Version4, `"type": "delay"`}, {Version5, `"type": "DelayProfile"`}} {
		var b bytes.Buffer
		if err := WriteVersion(&b, tr, c.version); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		if strings.Count(s, c.typ) != 2 || !strings.Contains(s, `"delay": 0.001}`) || strings.Contains(s, `"delay": 0}`) {
			t.Errorf("Batsim %d: profiles\n%s", c.version, s[strings.Index(s, `"profiles"`):])
		}
		back, err := Read(&b, "w.json", trace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if back.Jobs[0].Runtime != 0 || back.Jobs[1].Runtime != 5 {
			t.Errorf("Batsim %d: runtimes read back %d, %d", c.version, back.Jobs[0].Runtime, back.Jobs[1].Runtime)
		}
	}
	if err := WriteVersion(&bytes.Buffer{}, tr, 3); err == nil || !strings.Contains(err.Error(), "valid: 4, 5") {
		t.Errorf("version 3: %v", err)
	}
}
