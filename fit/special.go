package fit

import "math"

// trigamma returns ψ′(x), the derivative of the digamma function, for x > 0:
// the recurrence ψ′(x) = ψ′(x+1) + 1/x² up to x >= 6, then the asymptotic
// series 1/x + 1/(2x²) + 1/(6x³) − 1/(30x⁵) + 1/(42x⁷) − 1/(30x⁹)
// (Abramowitz & Stegun 6.4.12).
func trigamma(x float64) float64 {
	s := 0.0
	for x < 6 {
		s += 1 / (x * x)
		x++
	}
	x2 := 1 / (x * x)
	return s + 1/x + x2/2 + (1.0/6-(1.0/30-(1.0/42-x2/30)*x2)*x2)*x2/x
}

// goldenMin minimises the unimodal f on [a, b] by golden-section search to
// absolute tolerance tol and returns the minimiser and the iteration count.
func goldenMin(f func(float64) float64, a, b, tol float64) (float64, int) {
	g := (math.Sqrt(5) - 1) / 2
	c, d := b-g*(b-a), a+g*(b-a)
	fc, fd := f(c), f(d)
	it := 0
	for ; b-a > tol && it < 500; it++ {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - g*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + g*(b-a)
			fd = f(d)
		}
	}
	return (a + b) / 2, it
}
