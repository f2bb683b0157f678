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
func AssignUsers(n, users int, alpha float64, r *rand.Rand) ([]int32, error) {
	if users < 1 || !(alpha > 0) {
		return nil, fmt.Errorf("%w: %d users with Zipf exponent %v: need at least one user and an exponent > 0", ErrInvalidParams, users, alpha)
	}
	z := dist.NewZipf(alpha, users, r)
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(z.Rand())
	}
	return ids, nil
}
