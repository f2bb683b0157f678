package lublin

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNewUsersBounds checks the ranges of NewUsers: one user and any
// exponent above 0 are accepted, no user, an exponent of 0 or below and
// NaN refused.
func TestNewUsersBounds(t *testing.T) {
	for _, c := range []struct {
		users int
		alpha float64
		ok    bool
	}{
		{1, 1, true},
		{3, 1e-9, true},
		{0, 1, false},
		{-1, 1, false},
		{3, 0, false},
		{3, -1, false},
		{3, math.NaN(), false},
	} {
		_, err := NewUsers(c.users, c.alpha, rand.New(rand.NewPCG(1, 2)))
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrInvalidParams)) {
			t.Errorf("NewUsers(%d, %v): error %v, want ok %v", c.users, c.alpha, err, c.ok)
		}
		ids, err := AssignUsers(4, c.users, c.alpha, rand.New(rand.NewPCG(1, 2)))
		if (err == nil) != c.ok || (c.ok && len(ids) != 4) {
			t.Errorf("AssignUsers(4, %d, %v) = %v, %v; want ok %v", c.users, c.alpha, ids, err, c.ok)
		}
	}
}

// TestAssignUsers checks that AssignUsers draws the IDs of [Users] one by
// one from the same source, all in 1..users, and that with two users and
// exponent 1 the first has probability 1/(1 + 1/2) = 2/3: over 30,000 jobs
// the fraction's standard error is √(2/3 · 1/3 / 30000) ≈ 0.0027, so 0.011
// is 4 standard errors.
func TestAssignUsers(t *testing.T) {
	const n = 30000
	ids, err := AssignUsers(n, 2, 1, rand.New(rand.NewPCG(7, 8)))
	if err != nil {
		t.Fatal(err)
	}
	u, err := NewUsers(2, 1, rand.New(rand.NewPCG(7, 8)))
	if err != nil {
		t.Fatal(err)
	}
	one := 0
	for i, id := range ids {
		if id != u.Next() {
			t.Fatalf("job %d: AssignUsers gives user %d, Users.Next another", i, id)
		}
		if id < 1 || id > 2 {
			t.Fatalf("job %d: user %d outside 1..2", i, id)
		}
		if id == 1 {
			one++
		}
	}
	if f := float64(one) / n; !(math.Abs(f-2.0/3) <= 0.011) {
		t.Errorf("fraction of user 1 %.4f, want 2/3 ± 0.011", f)
	}
	if ids, _ := AssignUsers(5, 1, 2, rand.New(rand.NewPCG(1, 1))); !slices.Equal(ids, []int32{1, 1, 1, 1, 1}) {
		t.Errorf("one user: %v, want five 1s", ids)
	}
}
