package fit

import (
	"encoding/json"
	"strings"
	"testing"
)

// cappedRuntimes is a sample like the runtimes of a log whose jobs are
// killed at a wall-clock limit: evenly spread values and a spike at the
// limit. The generalized Pareto's likelihood grows without bound below
// shape -1, so its fit stops at that bound.
func cappedRuntimes(spike int) []float64 {
	var x []float64
	for i := 1; i <= 270; i++ {
		x = append(x, float64(13*i))
	}
	for i := 0; i < spike; i++ {
		x = append(x, 3600)
	}
	return x
}

func TestRankDegenerate(t *testing.T) {
	constant := make([]float64, 40)
	for i := range constant {
		constant[i] = 60
	}
	tests := []struct {
		name       string
		x          []float64
		degenerate map[string]string // family -> words of the reason
	}{
		{"wall-clock spike", cappedRuntimes(30), map[string]string{"gpd": "shape"}},
		{"half the jobs at the limit", cappedRuntimes(150), map[string]string{"gpd": "unbounded", "hypergamma": "collapsed"}},
		{"constant sample", constant, map[string]string{"exponential": "constant sample", "hyperexponential": "constant sample"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := Rank(tc.x, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := json.Marshal(cs); err != nil {
				t.Fatalf("candidates do not encode as JSON: %v", err)
			}
			seen := 0
			for i, c := range cs {
				words, want := tc.degenerate[c.Name]
				if want {
					seen++
					if !strings.Contains(c.Degenerate, words) {
						t.Errorf("%s: degenerate %q, want %q", c.Name, c.Degenerate, words)
					}
				}
				// Ranked after every regular fit, before every failure.
				for _, d := range cs[i+1:] {
					if c.Degenerate != "" && d.Err == nil && d.Degenerate == "" {
						t.Errorf("degenerate %s ranked before regular %s", c.Name, d.Name)
					}
					if c.Err != nil && d.Err == nil {
						t.Errorf("failed %s ranked before fitted %s", c.Name, d.Name)
					}
				}
			}
			if seen != len(tc.degenerate) {
				t.Errorf("found %d of the %d expected families", seen, len(tc.degenerate))
			}
		})
	}
}
