package summary_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/summary"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func TestSummaryHandWorked(t *testing.T) {
	// A 10-processor machine observed for 1000 s (time 0 to the last submit).
	// Job 1 runs 4 procs x 500 s = 2000; job 2 runs 1 proc x 2000 s, of which
	// 300 s fall inside the period; job 3 asks 2 procs x 100 s.
	log := `; MaxProcs: 10
; UnixStartTime: 0
1    0   0  500 4 -1 -1 4  600 -1 1 1 1 -1 -1 -1 -1 -1
2  600 100 2000 1 -1 -1 1 1000 -1 0 2 1 -1 -1 -1 -1 -1
3 1000   0  100 -1 -1 -1 2 100 -1 5 1 1 -1 -1 -1 -1 -1
`
	tr, err := trace.Read(swf.NewReader(strings.NewReader(log)), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := summary.Of(tr)
	checks := []struct {
		name      string
		got, want float64
	}{
		{"jobs", float64(s.Jobs), 3},
		{"users", float64(s.Users), 2},
		{"days", s.Days, 1000.0 / 86400},
		{"offered load", float64(s.OfferedLoad), (2000 + 2000 + 200) / (10 * 1000.0)},
		{"utilization", float64(s.Utilization), (2000 + 300) / (10 * 1000.0)},
		{"serial", s.Serial, 1.0 / 3},
		{"power of two", s.PowerOfTwo, 1},
		{"median runtime", s.Runtime.Median, 500},
		{"inter-arrival mean", s.InterArrival.Mean, 500},
		{"accuracy max", s.Accuracy.Max, 2},
		{"estimates killed", s.Estimates.Killed, 2.0 / 3},
		{"UJ", s.Talby.UJ, 1000 * 2.0 / 3},
		{"Nm", float64(s.Talby.Nm), 2 * 12.8},
	}
	for _, c := range checks {
		if !(math.Abs(c.got-c.want) <= 1e-9) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if s.Status["completed"] != 1 || s.Status["failed"] != 1 || s.Status["cancelled"] != 1 {
		t.Errorf("status = %v", s.Status)
	}
	if !math.IsNaN(float64(s.Talby.EJ)) {
		t.Errorf("EJ = %v, want NaN without executable numbers", s.Talby.EJ)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if !strings.Contains(string(b), `"EJ":null`) {
		t.Errorf("EJ is not null in JSON: %s", b)
	}
}
