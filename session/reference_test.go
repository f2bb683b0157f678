package session

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/trace"
)

// refIdentify is the earlier, simpler Identify that the current one is
// checked against: it groups users into per-user index slices and grows
// the session and batch lists as it goes. The Submit field is left nil.
func refIdentify(t *trace.Trace, opt Options) (p *Partition, sessionOf, batchOf []int32, err error) {
	if err := opt.Validate(); err != nil {
		return nil, nil, nil, err
	}
	n := len(t.Jobs)
	p = &Partition{
		Options: opt, Trace: t,
		Order: make([]int32, 0, n),
		End:   make([]int64, n),
	}
	sessionOf, batchOf = make([]int32, n), make([]int32, n)
	for i := range t.Jobs {
		j := &t.Jobs[i]
		e := j.End()
		if e < 0 {
			p.EstimatedEnds++
			e = j.Submit + max(j.Runtime, 0)
		}
		p.End[i] = e
	}
	users := refGroupUsers(t)
	p.Users = make([]User, 0, len(users))
	p.Sessions = make([]Session, 0, n/4+16)
	p.Batches = make([]Batch, 0, n/3+16)
	for _, u := range users {
		lo := int32(len(p.Sessions))
		p.refCutUser(u, sessionOf, batchOf)
		p.Users = append(p.Users, User{ID: u.ID, SessionLo: lo, SessionHi: int32(len(p.Sessions))})
	}
	return p, sessionOf, batchOf, nil
}

// refCutUser appends the sessions and batches of one user.
func (p *Partition) refCutUser(u trace.User, sessionOf, batchOf []int32) {
	o := p.Options
	jobs := p.Trace.Jobs
	cut := o.Method == LastCut || o.Method == MaxCut
	var prevArr, prevEnd, userMax, sessMax int64
	for k, ix := range u.Jobs {
		arr := jobs[ix].Submit
		end := p.End[ix]
		eff := end
		if cut {
			eff = min(end, arr+o.Cut)
		}
		newSession, newBatch := k == 0 || u.ID < 0, true
		if !newSession {
			switch o.Method {
			case Arrival:
				newSession = arr-prevArr > o.Threshold
				newBatch = arr >= sessMax
			case Interarrival:
				newSession = arr-prevArr >= o.Threshold
				newBatch = arr >= sessMax
			default:
				ref := prevEnd
				if o.Method == Max || o.Method == MaxCut {
					ref = userMax
				}
				tt := arr - ref
				newSession = tt > o.Threshold
				newBatch = tt >= 0
			}
		}
		if newSession {
			p.Sessions = append(p.Sessions, Session{
				User: int32(len(p.Users)), Lo: int32(len(p.Order)),
				BatchLo: int32(len(p.Batches)), First: arr, MaxEnd: end,
			})
			sessMax = 0
		}
		s := &p.Sessions[len(p.Sessions)-1]
		if newSession || newBatch {
			p.Batches = append(p.Batches, Batch{Session: int32(len(p.Sessions) - 1), Lo: int32(len(p.Order)), First: arr, MaxEnd: end})
		}
		b := &p.Batches[len(p.Batches)-1]
		sessionOf[ix] = int32(len(p.Sessions) - 1)
		batchOf[ix] = int32(len(p.Batches) - 1)
		p.Order = append(p.Order, int32(ix))
		b.Hi, b.Last, b.MaxEnd = int32(len(p.Order)), arr, max(b.MaxEnd, end)
		s.Hi, s.Last, s.MaxEnd = int32(len(p.Order)), arr, max(s.MaxEnd, end)
		s.BatchHi = int32(len(p.Batches))
		sessMax = max(sessMax, end)
		switch o.Method {
		case Arrival, Interarrival:
			s.Length = s.Last - s.First
		case Last, Max:
			s.Length = s.MaxEnd - s.First
		default:
			s.Length = max(s.Length, eff-s.First)
		}
		prevArr, prevEnd = arr, eff
		if k == 0 {
			userMax = eff
		} else {
			userMax = max(userMax, eff)
		}
	}
}

// refGroupUsers is [trace.Trace.Users] in linear time for logs sorted by
// submit time: jobs are bucketed by user in file order and a user's jobs
// are sorted only when the file order is not (submit, job number).
func refGroupUsers(t *trace.Trace) []trace.User {
	var ids []int32
	count := make([]int32, 0, 512)
	uix := make([]int32, len(t.Jobs))
	maxID := int32(-1)
	for i := range t.Jobs {
		maxID = max(maxID, t.Jobs[i].User)
	}
	// User IDs are small in archive logs: look them up in a table, else
	// in a map.
	var table []int32
	var idx map[int32]int32
	if int(maxID) < 4*len(t.Jobs)+1024 {
		table = make([]int32, int(maxID)+2)
	} else {
		idx = make(map[int32]int32, 512)
	}
	for i := range t.Jobs {
		u := t.Jobs[i].User
		var k int32
		ok := false
		if table != nil && u >= -1 {
			k = table[u+1] - 1
			ok = k >= 0
		} else if table == nil {
			k, ok = idx[u]
		}
		if !ok {
			k = int32(len(ids))
			if table != nil && u >= -1 {
				table[u+1] = k + 1
			} else {
				if idx == nil {
					idx = make(map[int32]int32)
				}
				idx[u] = k
			}
			ids = append(ids, u)
			count = append(count, 0)
		}
		uix[i] = k
		count[k]++
	}
	order := make([]int32, len(ids))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return int(ids[a]) - int(ids[b]) })
	all := make([]int, len(t.Jobs))
	off := make([]int, len(ids))
	us := make([]trace.User, len(ids))
	n := 0
	for _, k := range order {
		off[k] = n
		us[k] = trace.User{ID: ids[k], Jobs: all[n : n : n+int(count[k])]}
		n += int(count[k])
	}
	for i := range t.Jobs {
		k := uix[i]
		us[k].Jobs = append(us[k].Jobs, i)
	}
	cmp := func(a, b int) int {
		ja, jb := &t.Jobs[a], &t.Jobs[b]
		switch {
		case ja.Submit != jb.Submit:
			return refCompare(ja.Submit, jb.Submit)
		}
		return refCompare(ja.ID, jb.ID)
	}
	out := make([]trace.User, 0, len(ids))
	for _, k := range order {
		u := us[k]
		if !slices.IsSortedFunc(u.Jobs, cmp) {
			slices.SortStableFunc(u.Jobs, cmp)
		}
		out = append(out, u)
	}
	return out
}

func refCompare(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestIdentifyMatchesReference checks Identify against refIdentify on real
// logs and on random logs with unsorted files, ties and jobs without a user
// or an end, for every method.
func TestIdentifyMatchesReference(t *testing.T) {
	var logs []*trace.Trace
	for _, name := range []string{"builtin:KTH-SP2", testdata.Path(t, "SDSC-SP2-1998-4.2-cln.swf.gz")} {
		tr, err := trace.Load(name, trace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, tr)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 30 {
		n := 1 + rng.IntN(300)
		jobs := make([]tj, n)
		for i := range jobs {
			jobs[i] = tj{int32(rng.IntN(6)) - 1, rng.Int64N(20000), rng.Int64N(2000), rng.Int64N(3000)}
			if rng.IntN(10) == 0 {
				jobs[i].wait = -1
			}
		}
		logs = append(logs, mkTrace(jobs...))
	}
	opts := []Options{Default(Arrival), {Method: Interarrival}, Default(Interarrival), Default(Last),
		Default(Max), Default(LastCut), Default(MaxCut), {Method: Arrival, Threshold: 60}, {Method: Max, Threshold: 0}}
	for li, tr := range logs {
		for _, o := range opts {
			got, err := Identify(tr, o)
			if err != nil {
				t.Fatal(err)
			}
			want, sessionOf, batchOf, err := refIdentify(tr, o)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.SessionOf(), sessionOf) || !slices.Equal(got.BatchOf(), batchOf) {
				t.Fatalf("log %d %v: SessionOf or BatchOf differs from the reference", li, o)
			}
			for k, ix := range got.Order {
				if got.Submit[k] != tr.Jobs[ix].Submit {
					t.Fatalf("log %d %v: Submit[%d] = %d, job's %d", li, o, k, got.Submit[k], tr.Jobs[ix].Submit)
				}
			}
			got.Submit = nil
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("log %d %v: partition differs from the reference", li, o)
			}
			// IdentifySessions: the same without the batches.
			so, err := IdentifySessions(tr, o)
			if err != nil {
				t.Fatal(err)
			}
			so.Submit, so.noBatches = nil, false
			want.Batches = nil
			for i := range want.Sessions {
				want.Sessions[i].BatchLo, want.Sessions[i].BatchHi = 0, 0
			}
			if !reflect.DeepEqual(so, want) {
				t.Fatalf("log %d %v: IdentifySessions differs from Identify without batches", li, o)
			}
		}
	}
}
