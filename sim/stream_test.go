package sim_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// scanner returns a scanner over t written as SWF.
func scanner(t *testing.T, tr *trace.Trace) *trace.Scanner {
	t.Helper()
	var b bytes.Buffer
	if err := tr.WriteSWF(&b); err != nil {
		t.Fatal(err)
	}
	sc, err := trace.NewScanner(swf.NewReader(&b), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// randomLog returns a log in submit order with ties (job numbers going
// down within a tie), records to leave out (anywhere, even out of order)
// and jobs wider than its 8 processors.
func randomLog(rng *rand.Rand, n int) *trace.Trace {
	var h swf.Header
	h.Set("MaxProcs", "8")
	var jobs []trace.Job
	var sub int64
	for i := range n {
		sub += int64(rng.IntN(4))
		j := trace.Job{ID: int64(1000 - i), Submit: sub, Wait: -1, Runtime: int64(rng.IntN(50)), ReqTime: max(-1, int64(rng.IntN(60))-5),
			Procs: int32(1 + rng.IntN(10)), ReqProcs: -1, User: int32(rng.IntN(3)), Group: -1, App: -1, Queue: -1, Partition: -1,
			Preceding: -1, ThinkTime: -1, AvgCPU: -1, UsedMem: -1, ReqMem: -1, Status: 1}
		if rng.IntN(2) == 0 {
			j.ID = int64(i + 1)
		}
		if rng.IntN(8) == 0 {
			j.Runtime, j.Submit = -1, max(0, sub-int64(rng.IntN(20))) // left out, out of order
		}
		jobs = append(jobs, j)
	}
	return trace.New(h, jobs, trace.Options{})
}

// TestStreamMatchesSimulate checks that replaying a log as it is read
// gives the schedule, prediction log and counts of Simulate, under every
// oversize policy, with and without a speed and with pyss's rules.
func TestStreamMatchesSimulate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	opts := []sim.PrepareOptions{
		{Oversize: sim.OversizeDrop},
		{Oversize: sim.OversizeClamp, Machine: sim.Machine{Speed: 0.5}},
		{Oversize: sim.OversizeDrop, MissingEstimate: sim.EstimateFallback{Kind: "fixed", Seconds: 30}, Machine: sim.Machine{ProcsFactor: 2}},
		{Semantics: sim.SemanticsPyss},
	}
	unordered := 0
	for trial := range 60 {
		tr := randomLog(rng, rng.IntN(200))
		for k, po := range opts {
			name := strconv.Itoa(trial) + "/" + strconv.Itoa(k)
			want, ww, err := sim.Simulate(context.Background(), tr, &fifo{}, sim.Options{PrepareOptions: po, RecordPredictions: true})
			if err != nil {
				t.Fatal(name, err)
			}
			st, err := sim.NewStream(scanner(t, tr), po)
			if err != nil {
				t.Fatal(name, err)
			}
			got, err := sim.Run(context.Background(), st, &fifo{}, sim.Config{Procs: st.Workload().Procs, RecordPredictions: true})
			if len(ww.Jobs) == 0 {
				if err != nil || len(got.Jobs) != 0 {
					t.Fatalf("%s: no jobs: %v %v", name, got, err)
				}
				continue
			}
			if errors.Is(st.Err(), sim.ErrUnordered) {
				// Only where the kept jobs are out of order (pyss keeps every
				// record).
				if slices.IsSortedFunc(ww.Jobs, func(a, b sim.Job) int { return cmp.Compare(a.Submit, b.Submit) }) {
					t.Fatalf("%s: %v on a log in order", name, st.Err())
				}
				unordered++
				continue
			}
			if err != nil || st.Err() != nil {
				t.Fatal(name, err, st.Err())
			}
			gw := *st.Workload()
			ww.Jobs = nil
			if !reflect.DeepEqual(got.Jobs, want.Jobs) || !reflect.DeepEqual(got.Predictions, want.Predictions) || !reflect.DeepEqual(gw, *ww) {
				t.Fatalf("%s: stream differs from Simulate:\n%+v\n%+v\nworkload %+v, want %+v", name, got.Jobs, want.Jobs, gw, *ww)
			}
			if st.Records() != len(tr.Jobs) {
				t.Errorf("%s: %d records read of %d", name, st.Records(), len(tr.Jobs))
			}
		}
	}
	if unordered == 0 || unordered > 60 {
		t.Errorf("%d of 60 pyss runs out of order", unordered)
	}
	// A kept job before the one above it stops the stream.
	tr := randomLog(rng, 2)
	for k := range tr.Jobs {
		tr.Jobs[k].Runtime, tr.Jobs[k].Procs, tr.Jobs[k].Submit = 5, 1, int64(10-7*k)
	}
	st, err := sim.NewStream(scanner(t, tr), sim.PrepareOptions{Oversize: sim.OversizeDrop})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sim.Run(context.Background(), st, &fifo{}, sim.Config{Procs: 8}); err != nil || !errors.Is(st.Err(), sim.ErrUnordered) {
		t.Errorf("unordered log: run error %v, stream error %v", err, st.Err())
	}
}
