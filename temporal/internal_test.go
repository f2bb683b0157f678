package temporal

import "testing"

func TestSmoothLen(t *testing.T) {
	for _, c := range []struct{ n, want int }{{0, 0}, {1, 1}, {17, 16}, {77969, 77760}, {1024, 1024}, {1000, 1000}, {1019, 1014}} {
		got := smoothLen(c.n)
		if got != c.want {
			t.Errorf("smoothLen(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	for n := 1000; n < 200000; n += 97 {
		m := smoothLen(n)
		if m > n || float64(n-m) > 0.018*float64(n) {
			t.Fatalf("smoothLen(%d) = %d", n, m)
		}
	}
}
