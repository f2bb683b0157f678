package feedback

import (
	"strings"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

func TestParseModel(t *testing.T) {
	for _, m := range []Model{Madon, Adjusted, Distribution, Fluid} {
		if got, err := ParseModel(strings.ToUpper(m.String())); err != nil || got != m {
			t.Errorf("ParseModel(%q) = %v, %v", m, got, err)
		}
	}
	for _, alias := range []string{"dist", "Distribution-Based"} {
		if got, err := ParseModel(alias); err != nil || got != Distribution {
			t.Errorf("ParseModel(%q) = %v, %v", alias, got, err)
		}
	}
	if s := Model(9).String(); s != "Model(9)" {
		t.Errorf("Model(9).String() = %q", s)
	}
	if _, err := ParseModel("markov"); err == nil || !strings.Contains(err.Error(), "madon, adjusted, distribution, fluid") {
		t.Errorf("ParseModel(markov): %v", err)
	}
}

// TestMedian: the lower median, the convention of every hpcwl table.
func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{{nil, 0}, {[]float64{4}, 4}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2}} {
		if got := median(c.xs); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}

// TestWeeklyCycle checks the hour-of-week histogram of submits, divided by
// the weeks between the first and the last (at least one); negative
// submits are left out. Time 0 is Monday 1 January 2001, 00:00 UTC.
func TestWeeklyCycle(t *testing.T) {
	clk := &trace.Clock{Start: time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC).Unix(), Loc: time.UTC}
	const h = 3600
	sub := []sim.Time{0, 25 * h, 25*h + 10, -5, 2*week + 167*h}
	cy := WeeklyCycle(clk, sub)
	weeks := float64(2*week+167*h) / week
	want := Cycle{}
	want[0], want[25], want[167] = 1/weeks, 2/weeks, 1/weeks
	if cy != want {
		t.Errorf("cycle differs: hour 0 %v, 25 %v, 167 %v; want %v, %v, %v", cy[0], cy[25], cy[167], want[0], want[25], want[167])
	}
	// Less than a week: counts per hour as they are.
	short := WeeklyCycle(clk, []sim.Time{3 * h, 3*h + 1, 50 * h})
	if short[3] != 2 || short[50] != 1 {
		t.Errorf("a short period: hour 3 %v, hour 50 %v; want 2 and 1", short[3], short[50])
	}
	if empty := WeeklyCycle(clk, []sim.Time{-1}); empty != (Cycle{}) {
		t.Error("no submits: the cycle is not empty")
	}
}
