package talby

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/userclass"
)

// fitStartupActivity recovers the inactivity line of start-up users it is
// fitted to, with and without new users of weeks 1-11 mixed in (removed
// in expectation). The tolerances are 4 standard deviations of the
// estimates over seeds 100-119 with the same sample sizes.
func TestFitStartupActivityRecovers(t *testing.T) {
	p := defaults(t)
	want := InactivityLine{A: 0.1, B: 0.35}
	const weeks = 60
	for _, tc := range []struct {
		name    string
		newRate float64 // new users per week, weeks 1-11
		tolA    float64
		tolB    float64
	}{
		{"start-up users only", 0, 0.012, 0.04},
		{"with new users", 3, 0.012, 0.04},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fitStartupLine(t, p, want, weeks, tc.newRate, 11)
			if !(math.Abs(got.A-want.A) <= tc.tolA) || !(math.Abs(got.B-want.B) <= tc.tolB) {
				t.Errorf("fitted %+v, want %+v", got, want)
			}
		})
	}
}

// fitStartupLine simulates 400 start-up users of class LTLU with the
// inactivity line want, and newRate new users in each week 1-11, and fits
// them (seed seed); classes without start-up users must get the pooled
// line.
func fitStartupLine(t *testing.T, p Params, want InactivityLine, weeks int, newRate float64, seed uint64) InactivityLine {
	t.Helper()
	{
		{
			r := rand.New(rand.NewPCG(seed, 12))
			var early []startupUser
			for range 400 {
				u := startupUser{class: userclass.LTLU, per: map[int]int{}}
				for w := 1; w <= weeks; w++ {
					if r.Float64() >= math.Min(math.Max(want.A*math.Log(float64(w+1))+want.B, 0), p.Inactivity.Max) {
						u.per[w] = 1 + r.IntN(3)
					}
				}
				early = append(early, u)
			}
			// New users: an expected tc.newRate per week, exactly.
			for a := 1; a < SteadyWeek; a++ {
				for range int(newRate) {
					u := startupUser{class: userclass.LTLU, per: map[int]int{}}
					for w := a; w <= weeks; w++ {
						if w == a || r.Float64() >= p.Inactive(w-a+1, userclass.LTLU) {
							u.per[w] = 1
						}
					}
					early = append(early, u)
				}
			}
			in, ss, _, ok := fitStartupActivity(p, early, weeks, newRate, [NumUserClasses]float64{1, 0, 0, 0})
			if !ok {
				t.Fatal("not fitted")
			}
			got := in[userclass.LTLU]
			// Classes without start-up users get the pooled line.
			if in[userclass.STWE] != got || ss[userclass.STWE] != ss[userclass.LTLU] {
				t.Errorf("STWE %+v, want the pooled %+v", in[userclass.STWE], got)
			}
			return got
		}
	}
}

// TestFitStartupActivityTooFew checks the edges of the data the start-up
// activity needs: MinClassUsers start-up users (with no new users
// expected, mean 0) and 3 weeks are enough; one user fewer, or 2 weeks,
// are not, and leave a note.
func TestFitStartupActivityTooFew(t *testing.T) {
	p := defaults(t)
	share := [NumUserClasses]float64{1, 0, 0, 0}
	early := []startupUser{{class: userclass.LTLU, per: map[int]int{1: 2}}}
	if _, _, notes, ok := fitStartupActivity(p, early, 30, 0, share); ok || len(notes) != 1 {
		t.Errorf("one start-up user: fitted %v, notes %q", ok, notes)
	}
	early = nil
	for u := range MinClassUsers {
		early = append(early, startupUser{class: userclass.LTLU, per: map[int]int{1: 2 + u, 2: 1, 3: 1 + u%2}})
	}
	if _, _, notes, ok := fitStartupActivity(p, early, 3, 0, share); !ok {
		t.Errorf("%d start-up users over 3 weeks: not fitted (%q)", MinClassUsers, notes)
	}
	if _, _, notes, ok := fitStartupActivity(p, early[1:], 3, 0, share); ok || len(notes) != 1 {
		t.Errorf("%d start-up users: fitted %v, notes %q", MinClassUsers-1, ok, notes)
	}
	if _, _, notes, ok := fitStartupActivity(p, early, 2, 0, share); ok || len(notes) != 1 {
		t.Errorf("2 weeks: fitted %v, notes %q", ok, notes)
	}
}

// TestFitStartupActivityClassSizes checks which classes get lines of their
// own: a class with exactly MinClassUsers start-up users (LTLU, always
// active; STWE, active every other week) gets its own, a class with one
// user fewer (LTHU) and a class with none (STWD) the pooled line, each
// with a note.
func TestFitStartupActivityClassSizes(t *testing.T) {
	p := defaults(t)
	const weeks = 8
	var early []startupUser
	for u := range MinClassUsers {
		all, odd, some := map[int]int{}, map[int]int{}, map[int]int{}
		for w := 1; w <= weeks; w++ {
			all[w] = 1 + u%3
			if w%2 == 1 {
				odd[w] = 2
			}
			if w <= 2+u {
				some[w] = 1
			}
		}
		early = append(early, startupUser{class: userclass.LTLU, per: all}, startupUser{class: userclass.STWE, per: odd})
		if u > 0 {
			early = append(early, startupUser{class: userclass.LTHU, per: some})
		}
	}
	in, ss, notes, ok := fitStartupActivity(p, early, weeks, 0, [NumUserClasses]float64{1, 0, 0, 0})
	if !ok {
		t.Fatalf("not fitted: %q", notes)
	}
	pooled := in[userclass.STWD]
	if l := in[userclass.LTLU]; l.A != 0 || l.B != 0 {
		t.Errorf("LTLU, always active: inactivity line %+v, want 0", l)
	}
	if l := in[userclass.STWE]; l == pooled || l == in[userclass.LTLU] || ss[userclass.STWE] == ss[userclass.STWD] {
		t.Errorf("STWE, %d users: the line %+v and sessions %+v of another class", MinClassUsers, l, ss[userclass.STWE])
	}
	if in[userclass.LTHU] != pooled || ss[userclass.LTHU] != ss[userclass.STWD] {
		t.Errorf("LTHU, %d users: %+v, want the pooled %+v", MinClassUsers-1, in[userclass.LTHU], pooled)
	}
	note := "start-up users: %d.0 %s users active at start-up (fewer than %d): the activity of all start-up users pooled"
	if want := []string{fmt.Sprintf(note, MinClassUsers-1, "LTHU", MinClassUsers), fmt.Sprintf(note, 0, "STWD", MinClassUsers)}; !slices.Equal(notes, want) {
		t.Errorf("notes %q, want %q", notes, want)
	}
}

func TestQuantileRuntime(t *testing.T) {
	q := []float64{10, 100, 1000}
	for _, tc := range []struct {
		z    float64
		want int64
	}{
		{math.Inf(-1), 10},
		{0, 100},
		{math.Inf(1), 1000},
		{0.6744897501960817, 316}, // u = 0.75: halfway in ln between 100 and 1000
	} {
		if got := quantileRuntime(q, tc.z); got != tc.want {
			t.Errorf("z %v: %d, want %d", tc.z, got, tc.want)
		}
	}
}

// Under the fitted start-up activity a start-up user's activity follows
// the lines whatever its week of activity.
func TestGenerateStartupFitted(t *testing.T) {
	p := defaults(t)
	active := [NumUserClasses]InactivityLine{{B: 0}, {B: 0}, {B: 0}, {B: 0}}
	one := [NumUserClasses]GPDLine{}
	for c := range one {
		one[c] = GPDLine{KIntercept: 0, SigmaIntercept: 0.05} // always 1 session
	}
	p.StartupUsers.Activity, p.StartupUsers.Inactivity, p.StartupUsers.Sessions = StartupFitted, &active, &one
	p.StartupUsers.Noise = 0
	p.NewUsers.Mu = -10 // no new users (e^-10 rounds to 0)
	w, err := Generate(p, Config{Weeks: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if w.Users != w.StartupUsers || w.Users == 0 {
		t.Fatalf("%d users, %d at start-up", w.Users, w.StartupUsers)
	}
	if want := w.Users * 10; w.Sessions+w.Dropped != want {
		t.Errorf("%d sessions and %d dropped, want one a week for each of %d users", w.Sessions, w.Dropped, w.Users)
	}
}
