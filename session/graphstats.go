package session

// UserGraph describes one user's part of a dependency graph (Madon, Da Costa and Pierson, Replay with Feedback, 2024,
// Fig. 6).
type UserGraph struct {
	// User is the user ID.
	User int32 `json:"user"`
	// Nodes is the number of sessions (or batches) of the user.
	Nodes int `json:"nodes"`
	// LongestPath is the number of nodes on the longest dependency chain,
	// not counting the root.
	LongestPath int `json:"longest_path"`
	// MaxIn and MaxOut are the largest numbers of dependencies of one node
	// and of nodes depending on one node, not counting root edges. Arity
	// is the larger of the two.
	MaxIn  int `json:"max_in"`
	MaxOut int `json:"max_out"`
	Arity  int `json:"arity"`
}

// GraphStats summarizes a dependency graph.
type GraphStats struct {
	// Nodes, Edges and RootEdges count nodes, edges between nodes and
	// edges from the root.
	Nodes     int `json:"nodes"`
	Edges     int `json:"edges"`
	RootEdges int `json:"root_edges"`
	// Users holds the per-user figures of users with an ID.
	Users []UserGraph `json:"users,omitempty"`
	// LongestPath and Arity are distributions over users.
	LongestPath Dist `json:"longest_path"`
	Arity       Dist `json:"arity"`
	// MaxArity is the largest arity of any user.
	MaxArity int `json:"max_arity"`
	// Think is the distribution of the think times of the edges between
	// nodes in seconds; ThinkBelow1h and ThinkBelow10h are the fractions
	// below one and ten hours (Madon section 9.4).
	Think         Dist    `json:"think_s"`
	ThinkBelow1h  float64 `json:"think_below_1h"`
	ThinkBelow10h float64 `json:"think_below_10h"`
}

// Stats computes the graph's statistics; perUser keeps the per-user rows.
func (g *Graph) Stats(perUser bool) *GraphStats {
	st := &GraphStats{Nodes: g.Len(), Edges: g.NumEdges()}
	depth := make([]int32, g.Len())
	var lp, ar []int64
	for ui := range g.P.Users {
		u := &g.P.Users[ui]
		lo, hi := g.userRange(u)
		ug := UserGraph{User: u.ID, Nodes: int(hi - lo)}
		for n := lo; n < hi; n++ {
			d := int32(1)
			in := 0
			for _, e := range g.Preds(int(n)) {
				if e.From == Root {
					continue
				}
				in++
				d = max(d, depth[e.From]+1)
			}
			depth[n] = d
			ug.LongestPath = max(ug.LongestPath, int(d))
			ug.MaxIn = max(ug.MaxIn, in)
			ug.MaxOut = max(ug.MaxOut, len(g.Succs(int(n))))
		}
		ug.Arity = max(ug.MaxIn, ug.MaxOut)
		if u.ID < 0 {
			continue
		}
		st.MaxArity = max(st.MaxArity, ug.Arity)
		lp = append(lp, int64(ug.LongestPath))
		ar = append(ar, int64(ug.Arity))
		if perUser {
			st.Users = append(st.Users, ug)
		}
	}
	st.LongestPath, st.Arity = Summarize(lp), Summarize(ar)
	th := make([]int64, 0, st.Edges)
	for _, e := range g.preds {
		if e.From == Root {
			st.RootEdges++
			continue
		}
		th = append(th, e.Think)
	}
	st.Think = Summarize(th)
	st.ThinkBelow1h, st.ThinkBelow10h = FractionBelow(th, 3600), FractionBelow(th, 36000)
	return st
}

// userRange returns the user's range of nodes.
func (g *Graph) userRange(u *User) (lo, hi int32) {
	if !g.Batches {
		return u.SessionLo, u.SessionHi
	}
	if u.SessionLo == u.SessionHi {
		return 0, 0
	}
	return g.P.Sessions[u.SessionLo].BatchLo, g.P.Sessions[u.SessionHi-1].BatchHi
}

// Think returns node n's think time: its first arrival minus the latest end
// of the nodes it depends on (the smallest edge think time), and false when
// it depends on nothing but the root.
func (g *Graph) Think(n int) (int64, bool) {
	ok := false
	var tt int64
	for _, e := range g.Preds(n) {
		if e.From == Root {
			continue
		}
		if !ok || e.Think < tt {
			tt = e.Think
		}
		ok = true
	}
	return tt, ok
}

// Preceding returns, for every job of the log (indexed like Trace.Jobs),
// the job number it depends on and the think time from that job's end, as
// SWF fields 17 and 18 define them, or -1 and -1. The first job of a node
// with dependencies depends on the latest-ending job of those nodes (the
// one that released it); other jobs have none.
func (g *Graph) Preceding() (job, think []int64) {
	p := g.P
	job = make([]int64, len(p.End))
	think = make([]int64, len(p.End))
	for i := range job {
		job[i], think[i] = -1, -1
	}
	for n := 0; n < g.Len(); n++ {
		var first int32
		if g.Batches {
			first = p.Order[p.Batches[n].Lo]
		} else {
			first = p.Order[p.Sessions[n].Lo]
		}
		best, bestEnd := int32(-1), int64(0)
		for _, e := range g.Preds(n) {
			if e.From == Root {
				continue
			}
			var ix []int32
			if g.Batches {
				ix = p.BatchJobs(int(e.From))
			} else {
				ix = p.Jobs(int(e.From))
			}
			for _, k := range ix {
				if best < 0 || p.End[k] > bestEnd {
					best, bestEnd = k, p.End[k]
				}
			}
		}
		if best >= 0 {
			job[first] = p.Trace.Jobs[best].ID
			think[first] = p.Trace.Jobs[first].Submit - bestEnd
		}
	}
	return job, think
}
