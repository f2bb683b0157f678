package lublin

import (
	"fmt"
	"math/rand/v2"

	"github.com/hpcwl/hpcwl/dist"
)

// AssignUsers returns a user ID in 1..users for each of n jobs, drawn
// independently from a Zipf distribution of exponent alpha, so that a few
// users submit most jobs, as in production logs (the Lublin-Feitelson model
// itself has no users). The IDs let generated workloads go through the
// analyses that need users (sessions, feedback replay); the model says
// nothing of a user's sessions, so jobs of one user are not grouped in time.
// [Users] draws the same IDs one at a time.
func AssignUsers(n, users int, alpha float64, r *rand.Rand) ([]int32, error) {
	u, err := NewUsers(users, alpha, r)
	if err != nil {
		return nil, err
	}
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = u.Next()
	}
	return ids, nil
}

// Users draws the user IDs of [AssignUsers] one job at a time, for a run
// written as it is generated.
type Users struct {
	z dist.Zipf
}

// NewUsers returns the user IDs 1..users drawn from a Zipf distribution of
// exponent alpha with r.
func NewUsers(users int, alpha float64, r *rand.Rand) (*Users, error) {
	if users < 1 || !(alpha > 0) {
		return nil, fmt.Errorf("%w: %d users with Zipf exponent %v: need at least one user and an exponent > 0", ErrInvalidParams, users, alpha)
	}
	return &Users{z: dist.NewZipf(alpha, users, r)}, nil
}

// Next returns the user ID of the next job.
func (u *Users) Next() int32 { return int32(u.z.Rand()) }
