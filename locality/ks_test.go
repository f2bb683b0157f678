package locality

import "testing"

func TestUserKSDistances(t *testing.T) {
	a := map[string][]float64{"jobs": {1, 2, 3, 4}, "work": {1, 2}, "sessions": {5}}
	b := map[string][]float64{"jobs": {1, 2, 3, 4}, "work": {3, 4}, "sessions": nil}
	got := UserKSDistances(a, b)
	want := map[string]float64{"jobs": 0, "work": 1}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v (metrics empty on one side left out)", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %v, want %v", k, got[k], v)
		}
	}
	// One of three values of the first sample lies below every value of
	// the second: distance 1/3.
	if d := UserKSDistances(map[string][]float64{"jobs": {1, 10, 11}}, map[string][]float64{"jobs": {2, 10, 11}})["jobs"]; d <= 0 || d > 0.34 {
		t.Errorf("distance %v, want 1/3", d)
	}
}
