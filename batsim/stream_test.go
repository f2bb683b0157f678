package batsim

import (
	"bytes"
	"encoding/csv"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// writeRows is WriteJobs as it was: every row built first ([Rows]), then
// written.
func writeRows(res *sim.Result, workload string) []byte {
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.Write(JobsColumns)
	itoa := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, r := range Rows(res, workload) {
		cw.Write([]string{itoa(r.JobID), r.WorkloadName, r.Profile, itoa(r.SubmissionTime), itoa(r.RequestedResources),
			itoa(r.RequestedTime), itoa(int64(r.Success)), r.FinalState, itoa(r.StartingTime), itoa(r.ExecutionTime), itoa(r.FinishTime),
			itoa(r.WaitingTime), itoa(r.TurnaroundTime), strconv.FormatFloat(r.Stretch, 'g', 10, 64), r.AllocatedResources,
			strconv.FormatFloat(r.ConsumedEnergy, 'g', -1, 64), r.Metadata})
	}
	cw.Flush()
	return b.Bytes()
}

// TestWriteJobsMatchesRows checks the streamed jobs.csv against the rows
// built whole, on random schedules with simultaneous events, zero-length
// jobs, jobs started long after later ones (backfilling), jobs never
// started, and job numbers out of order (written the old way).
func TestWriteJobsMatchesRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := range 400 {
		const procs = 16
		n := rng.IntN(60)
		res := &sim.Result{Procs: procs}
		var sub sim.Time
		for i := range n {
			sub += sim.Time(rng.IntN(3))
			start := sub + sim.Time(rng.IntN(4)*rng.IntN(30))
			o := sim.Outcome{Job: sim.Job{ID: int64(i + 1), Submit: sub, Estimate: 10, Procs: int32(1 + rng.IntN(6))},
				Start: start, End: start + sim.Time(rng.IntN(3)*rng.IntN(20)), Killed: rng.IntN(9) == 0}
			if rng.IntN(25) == 0 {
				o.Start, o.End = -1, -1
			}
			res.Jobs = append(res.Jobs, o)
		}
		if trial%5 == 0 && n > 1 {
			a, b := rng.IntN(n), rng.IntN(n)
			res.Jobs[a].ID, res.Jobs[b].ID = res.Jobs[b].ID, res.Jobs[a].ID
		}
		if trial%7 == 0 && n > 1 {
			res.Jobs[1].ID = res.Jobs[0].ID // a repeated number, still in order
		}
		var got bytes.Buffer
		if err := WriteJobs(&got, res, "w,1"); err != nil {
			t.Fatal(err)
		}
		if want := writeRows(res, "w,1"); !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("trial %d:\n%s\nwant\n%s", trial, got.Bytes(), want)
		}
	}
}
