package figure

import "testing"

// TestStepText checks the step written in the titles of the figures over
// time: one unit without a count, several with one, seconds otherwise.
func TestStepText(t *testing.T) {
	for _, c := range []struct {
		step int64
		want string
	}{
		{7 * day, "week"}, {14 * day, "2 weeks"}, {day, "day"}, {3 * day, "3 days"},
		{3600, "hour"}, {6 * 3600, "6 hours"}, {90, "90 s"}, {1, "1 s"},
	} {
		if got := stepText(c.step); got != c.want {
			t.Errorf("step %d: %q, want %q", c.step, got, c.want)
		}
	}
}
