package sched_test

import (
	"testing"

	"github.com/hpcwl/hpcwl/sched"
)

// TestEASYNames: EASY's name tells a planning factor above 1, written in
// its shortest form; 0 and 1 mean no factor.
func TestEASYNames(t *testing.T) {
	for _, c := range []struct {
		factor float64
		easy   string
	}{{0, "easy"}, {1, "easy"}, {2, "easy-x2"}, {2.25, "easy-x2.25"}, {1.5, "easy-x1.5"}} {
		if got := sched.NewEASY(c.factor).Name(); got != c.easy {
			t.Errorf("NewEASY(%v).Name() = %q, want %q", c.factor, got, c.easy)
		}
		if got := sched.NewSJBF(c.factor).Name(); got != "sjbf" {
			t.Errorf("NewSJBF(%v).Name() = %q, want sjbf", c.factor, got)
		}
	}
}
