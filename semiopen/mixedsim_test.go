package semiopen

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"testing"
)

// TestMixedWorkloadShape checks the log of the mixed model: closed users
// submit one job at a time, each a think time after the recorded end of the
// previous; open users submit one job each; one processor; sorted, numbered.
func TestMixedWorkloadShape(t *testing.T) {
	m := Mixed{Lambda: 0.3, Think: 5, Service: 1}
	tr, err := MixedWorkload(m, 3, WorkloadOptions{Unit: 60, Horizon: 500}, rand.New(rand.NewPCG(7, 0)))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Procs != 1 {
		t.Fatalf("machine of %d processors", tr.Procs)
	}
	lastEnd := map[int32]int64{}
	perUser := map[int32]int{}
	var open int
	for i, j := range tr.Jobs {
		if j.ID != int64(i+1) || i > 0 && j.Submit < tr.Jobs[i-1].Submit {
			t.Fatalf("job %d: not sorted and numbered", i)
		}
		if j.Procs != 1 || j.Runtime < 1 || j.Wait != 0 || j.Submit > 500*60 {
			t.Fatalf("job %+v", j)
		}
		perUser[j.User]++
		if j.User > 3 {
			open++
			continue
		}
		if e, ok := lastEnd[j.User]; ok && j.Submit < e {
			t.Fatalf("closed user %d submits at %d before his previous job ends at %d", j.User, j.Submit, e)
		}
		lastEnd[j.User] = j.Submit + j.Runtime
	}
	for u, n := range perUser {
		if u > 3 && n != 1 {
			t.Fatalf("open user %d has %d jobs", u, n)
		}
	}
	// About λ × horizon = 150 open jobs, and about 500/(Z+S) = 83 jobs per
	// closed user.
	if open < 110 || open > 190 || perUser[1] < 60 || perUser[1] > 110 {
		t.Errorf("%d open jobs, %d jobs of closed user 1", open, perUser[1])
	}
	var a, b bytes.Buffer
	tr2, _ := MixedWorkload(m, 3, WorkloadOptions{Unit: 60, Horizon: 500}, rand.New(rand.NewPCG(7, 0)))
	if err := tr.WriteSWF(&a); err != nil {
		t.Fatal(err)
	}
	_ = tr2.WriteSWF(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the same seed gave two logs")
	}
	for _, o := range []WorkloadOptions{{Unit: -1}, {Horizon: 5}, {Unit: 100000}} {
		if _, err := MixedWorkload(m, 3, o, rand.New(rand.NewPCG(7, 0))); !errors.Is(err, ErrParameter) {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

// TestSimulateMixedAgainstMVA replays the mixed model with Adjusted
// feedback under FCFS on one processor and compares with exact MVA, which
// is exact for this network (exponential service at a FCFS server, product
// form): throughput within 1.5% and response times within 6% (one run of
// 20,000 time units, seed 1; the measured differences are listed in
// docs/validation.md).
func TestSimulateMixedAgainstMVA(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 70,000 jobs")
	}
	for _, tc := range []struct {
		lambda float64
		n      int
	}{{0, 5}, {0.3, 2}, {0.3, 5}, {0.3, 20}} {
		m := Mixed{Lambda: tc.lambda, Think: 5, Service: 1}
		pts, _ := m.MVA(tc.n)
		p := pts[tc.n-1]
		got, _, err := SimulateMixed(context.Background(), m, tc.n, WorkloadOptions{}, rand.New(rand.NewPCG(1, 0)))
		if err != nil {
			t.Fatal(err)
		}
		near(t, "X", got.Throughput, p.Throughput, 0.015*p.Throughput)
		near(t, "X_c", got.ClosedThroughput, p.ClosedThroughput, 0.025*p.ClosedThroughput)
		near(t, "R_c", got.ClosedResponse, p.ClosedResponse, 0.06*p.ClosedResponse)
		if tc.lambda > 0 {
			near(t, "R_o", got.OpenResponse, p.OpenResponse, 0.06*p.OpenResponse)
			near(t, "X_o", got.OpenThroughput, tc.lambda, 0.03*tc.lambda)
		}
	}
}
