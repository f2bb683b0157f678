package coplot_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/hpcwl/hpcwl/coplot"
)

// plane returns n observations on a plane and variables that are linear
// in the two coordinates, so a two-dimensional map can represent them.
func plane(n int, seed uint64) ([][]float64, []string, []string) {
	rng := rand.New(rand.NewPCG(seed, 0))
	var y [][]float64
	var obs []string
	for i := range n {
		a, b := rng.NormFloat64(), rng.NormFloat64()
		y = append(y, []float64{a, b, a + b, -a, 3*b + 100})
		obs = append(obs, string(rune('A'+i)))
	}
	return y, obs, []string{"a", "b", "a+b", "-a", "3b"}
}

func TestMapRecoversPlane(t *testing.T) {
	y, obs, vars := plane(12, 1)
	r, err := coplot.Map(y, obs, vars, coplot.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Alienation > 0.1 {
		t.Errorf("alienation %.3f", r.Alienation)
	}
	for _, a := range r.Arrows {
		if a.Correlation < 0.95 {
			t.Errorf("arrow %s correlation %.3f", a.Variable, a.Correlation)
		}
	}
	// The arrow of -a points opposite to that of a; 3b along b; a+b
	// between a and b.
	dot := func(i, k int) float64 { return r.Arrows[i].DX*r.Arrows[k].DX + r.Arrows[i].DY*r.Arrows[k].DY }
	if dot(0, 3) > -0.95 || dot(1, 4) < 0.95 || dot(2, 0) < 0.5 || dot(2, 1) < 0.5 {
		t.Errorf("arrow cosines: a,-a %.2f; b,3b %.2f; a+b,a %.2f; a+b,b %.2f", dot(0, 3), dot(1, 4), dot(2, 0), dot(2, 1))
	}
	// The map is centred on the centre of gravity.
	var cx, cy float64
	for _, p := range r.Points {
		cx += p.X
		cy += p.Y
	}
	if !(math.Abs(cx) <= 1e-9) || !(math.Abs(cy) <= 1e-9) {
		t.Errorf("centre %v %v", cx, cy)
	}
	again, _ := coplot.Map(y, obs, vars, coplot.Options{Seed: 1})
	if !reflect.DeepEqual(r, again) {
		t.Error("same seed, different map")
	}
}

func TestAlienation(t *testing.T) {
	s := [][]float64{{0, 1, 2}, {1, 0, 3}, {2, 3, 0}}
	if a := coplot.Alienation(s, s); a != 0 {
		t.Errorf("identical: %v", a)
	}
	// Any increasing transform keeps the order: still 0.
	d := [][]float64{{0, 1, 8}, {1, 0, 27}, {8, 27, 0}}
	if a := coplot.Alienation(s, d); a > 1e-12 {
		t.Errorf("monotone: %v", a)
	}
	// Reversed order: mu = -1, also 0 alienation by the formula's square;
	// a half-broken order lies strictly between 0 and 1.
	mixed := [][]float64{{0, 2, 1}, {2, 0, 3}, {1, 3, 0}}
	if a := coplot.Alienation(s, mixed); !(a > 0.1 && a < 1) {
		t.Errorf("mixed: %v", a)
	}
}

func TestMapErrors(t *testing.T) {
	y, obs, vars := plane(5, 2)
	for _, c := range []struct {
		y    [][]float64
		obs  []string
		vars []string
	}{
		{y[:2], obs[:2], vars},
		{y, obs[:4], vars},
		{y, obs, nil},
		{[][]float64{{1, 2}, {1, 3}, {1, 4}}, obs[:3], []string{"const", "x"}},
		{[][]float64{{1}, {math.NaN()}, {2}}, obs[:3], []string{"x"}},
	} {
		if _, err := coplot.Map(c.y, c.obs, c.vars, coplot.Options{}); !errors.Is(err, coplot.ErrInput) {
			t.Errorf("%v: %v", c.vars, err)
		}
	}
}

// BenchmarkMap17x16 maps 17 observations of 16 variables, the size of
// Talby's largest Co-Plot (logs and models).
func BenchmarkMap17x16(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 0))
	y := make([][]float64, 17)
	obs := make([]string, 17)
	vars := make([]string, 16)
	for j := range vars {
		vars[j] = string(rune('a' + j))
	}
	for i := range y {
		obs[i] = string(rune('A' + i))
		y[i] = make([]float64, 16)
		f, g := rng.NormFloat64(), rng.NormFloat64()
		for j := range y[i] {
			y[i][j] = float64(j%3)*f + float64(j%5)*g + rng.NormFloat64()
		}
	}
	for b.Loop() {
		if _, err := coplot.Map(y, obs, vars, coplot.Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
