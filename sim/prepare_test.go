package sim

import (
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/trace"
)

// TestPrepareSpeedRange checks that a node speed so small that simulated
// times could overflow is refused with a clear error, and that 1e-9 is
// still accepted on a whole log.
func TestPrepareSpeedRange(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		speed float64
		ok    bool
	}{{1, true}, {1e-9, true}, {1e-13, false}, {1e-15, false}} {
		_, err := Prepare(tr, PrepareOptions{Machine: Machine{Speed: c.speed}})
		if c.ok && err != nil {
			t.Errorf("speed %v: %v", c.speed, err)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "time range")) {
			t.Errorf("speed %v: error %v, want one about the time range", c.speed, err)
		}
	}
}
