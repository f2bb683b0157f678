package trace

import "sort"

// User is one user's view of a trace: the indices into Trace.Jobs of the
// user's jobs, ordered by submit time, then job number.
type User struct {
	ID   int32
	Jobs []int
}

// Users groups the jobs by user (field 12), ordered by user ID. Jobs with an
// unknown user (-1) form a user of their own with ID -1.
func (t *Trace) Users() []User {
	idx := map[int32]int{}
	var us []User
	for i := range t.Jobs {
		u := t.Jobs[i].User
		k, ok := idx[u]
		if !ok {
			k = len(us)
			idx[u] = k
			us = append(us, User{ID: u})
		}
		us[k].Jobs = append(us[k].Jobs, i)
	}
	sort.Slice(us, func(a, b int) bool { return us[a].ID < us[b].ID })
	for _, u := range us {
		jobs := u.Jobs
		before := func(a, b int) bool {
			ja, jb := &t.Jobs[jobs[a]], &t.Jobs[jobs[b]]
			if ja.Submit != jb.Submit {
				return ja.Submit < jb.Submit
			}
			return ja.ID < jb.ID
		}
		// Logs are mostly in submit order already.
		if !sort.SliceIsSorted(jobs, before) {
			sort.SliceStable(jobs, before)
		}
	}
	return us
}

// NumUsers returns the number of distinct non-negative user IDs.
func (t *Trace) NumUsers() int {
	seen := map[int32]struct{}{}
	for i := range t.Jobs {
		if u := t.Jobs[i].User; u >= 0 {
			seen[u] = struct{}{}
		}
	}
	return len(seen)
}
