package extswf

import (
	"bufio"
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/hpcwl/hpcwl/userclass"
)

// rows reads the data lines of a written file as numbers, checking that
// each has 24 columns.
func rows(t *testing.T, b []byte) [][]float64 {
	t.Helper()
	var out [][]float64
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, ";") {
			continue
		}
		// Fields are separated by single spaces, with none before the first
		// or after the last, so that tools splitting on one space (cut -d' ')
		// see the same 24 columns as those splitting on runs of white space.
		if strings.Join(strings.Fields(l), " ") != l {
			t.Fatalf("a line not in single-space-separated fields: %q", l)
		}
		f := strings.Fields(l)
		if len(f) != 24 {
			t.Fatalf("%d columns in %q", len(f), l)
		}
		r := make([]float64, 24)
		for i, s := range f {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("column %d of %q: %v", i+1, l, err)
			}
			r[i] = v
		}
		out = append(out, r)
	}
	return out
}

// TestFormatsAgree writes KTH-SP2's three files and checks them against
// the log and against each other: the jobs are the log's (absolute submit
// times), each session counts the jobs that name it and arrives with the
// first of them, each user counts his sessions and jobs, and every
// calendar column and percentage is in range.
func TestFormatsAgree(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := userclass.Analyze([]*trace.Trace{tr}, userclass.Options{Classify: sessionclass.ClassifyOptions{Seed: 1, Restarts: 2}})
	if err != nil {
		t.Fatal(err)
	}
	var h swf.Header
	h.AddNote("test")
	in := &Input{Traces: []*trace.Trace{tr}, Report: r, Header: h}
	var jb, sb, ub bytes.Buffer
	if err := WriteJobs(&jb, in); err != nil {
		t.Fatal(err)
	}
	if err := WriteSessions(&sb, in); err != nil {
		t.Fatal(err)
	}
	if err := WriteUsers(&ub, in); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(jb.String(), "; Note: test\n; Format: Job Workload Format") {
		t.Errorf("header %q", jb.String()[:80])
	}
	jobs, sessions, users := rows(t, jb.Bytes()), rows(t, sb.Bytes()), rows(t, ub.Bytes())
	if len(jobs) != len(tr.Jobs) || len(sessions) != r.Sessions || len(users) != r.Users {
		t.Fatalf("%d jobs, %d sessions, %d users; want %d, %d, %d", len(jobs), len(sessions), len(users), len(tr.Jobs), r.Sessions, r.Users)
	}
	start, _ := tr.Header.UnixStartTime()
	perSession := map[float64]int{}
	firstOf := map[float64]float64{}
	for i, j := range jobs {
		sj := tr.Jobs[i].SWF()
		want := []float64{float64(sj.ID), float64(start + sj.Submit), float64(sj.Wait), float64(sj.Runtime), float64(sj.Procs)}
		for k, w := range want {
			if j[k] != w {
				t.Fatalf("job %d column %d: %v, want %v", i, k+1, j[k], w)
			}
		}
		if j[11] != float64(sj.User) || j[23] != 1 || j[19] < 0 || j[19] > 6 || j[20] < 0 || j[20] > 23 {
			t.Fatalf("job %d: %v", i, j)
		}
		if s := j[18]; s > 0 {
			perSession[s]++
			if f, ok := firstOf[s]; !ok || j[1] < f {
				firstOf[s] = j[1]
			}
		}
	}
	// Column by column against the analysis' own variables.
	ss, _ := r.SessionRows()
	clock := tr.Clock()
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	norm := float64(r.Logs[0].Procs) / 128
	for i, s := range sessions {
		x := ss[i].X
		want := map[int]float64{0: float64(i + 1), 1: float64(start + ss[i].First), 2: x[sessionclass.D], 3: float64(ss[i].User),
			5: x[sessionclass.Rm], 6: x[sessionclass.Ri], 7: x[sessionclass.Pm] * norm, 8: x[sessionclass.Pi] * norm,
			9: x[sessionclass.Im], 10: x[sessionclass.Ii], 11: x[sessionclass.Tm], 12: x[sessionclass.Ti],
			13: x[sessionclass.IsDay], 14: 100 * x[sessionclass.Day], 15: x[sessionclass.IsWork], 16: 100 * x[sessionclass.Work],
			17: x[sessionclass.UR], 18: x[sessionclass.UP], 19: float64(clock.DayOfWeek(ss[i].First)), 20: float64(clock.HourOfDay(ss[i].First)),
			21: float64(ss[i].Class), 23: 1}
		for k, w := range want {
			if !near(s[k], w) {
				t.Fatalf("session %d column %d: %v, want %v", i+1, k+1, s[k], w)
			}
		}
	}
	us := r.UserRows()
	for i, u := range users {
		x := us[i].X
		want := map[int]float64{0: float64(us[i].ID), 2: x[userclass.Days] * 86400, 7: x[userclass.Pm] * norm, 8: x[userclass.Pi] * norm,
			9: x[userclass.Im], 12: x[userclass.Ti], 15: 100 * x[userclass.Day], 16: 100 * x[userclass.Work],
			17: 100 * x[userclass.FracIWD], 21: 100 * x[userclass.FracBHD], 22: float64(us[i].Class), 23: 1}
		for k, w := range want {
			if !near(u[k], w) {
				t.Fatalf("user %d column %d: %v, want %v", i+1, k+1, u[k], w)
			}
		}
	}
	// Each job names its session's class and its user's class, and each
	// session its user's class.
	classOfUser, classOfSession := map[float64]float64{}, map[float64]float64{}
	for _, u := range users {
		classOfUser[u[0]] = u[22]
	}
	for _, s := range sessions {
		classOfSession[s[0]] = s[21]
		if s[22] != classOfUser[s[3]] {
			t.Fatalf("session %v: user class %v, the user file says %v", s[0], s[22], classOfUser[s[3]])
		}
	}
	for i, j := range jobs {
		wantUser, ok := classOfUser[j[11]]
		if !ok {
			wantUser = -1
		}
		wantSession := -1.0
		if j[18] > 0 {
			wantSession = classOfSession[j[18]]
		}
		if j[22] != wantUser || j[21] != wantSession {
			t.Fatalf("job %d: classes %v (session) and %v (user), want %v and %v", i+1, j[21], j[22], wantSession, wantUser)
		}
	}
	sessionsOf, jobsOf := map[float64]int{}, map[float64]float64{}
	firstSession := map[float64]float64{}
	var gapsOf = map[float64][]float64{}
	for _, s := range sessions {
		if float64(perSession[s[0]]) != s[4] {
			t.Fatalf("session %v names %d jobs in the job file, says %v", s[0], perSession[s[0]], s[4])
		}
		if firstOf[s[0]] != s[1] {
			t.Fatalf("session %v arrives at %v, its first job at %v", s[0], s[1], firstOf[s[0]])
		}
		for _, k := range []int{14, 16} {
			if s[k] < 0 || s[k] > 100 {
				t.Fatalf("session %v column %d: %v", s[0], k+1, s[k])
			}
		}
		if s[21] < 0 || s[21] >= float64(sessionclass.NumClasses) {
			t.Fatalf("session %v class %v", s[0], s[21])
		}
		sessionsOf[s[3]]++
		jobsOf[s[3]] += s[4]
		if f, ok := firstSession[s[3]]; !ok || s[1] < f {
			firstSession[s[3]] = s[1]
		}
		gapsOf[s[3]] = append(gapsOf[s[3]], s[1])
	}
	for _, u := range users {
		if float64(sessionsOf[u[0]]) != u[3] || jobsOf[u[0]] != u[4] {
			t.Fatalf("user %v: %v sessions and %v jobs, the session file gives %d and %v", u[0], u[3], u[4], sessionsOf[u[0]], jobsOf[u[0]])
		}
		if u[1] != firstSession[u[0]] {
			t.Fatalf("user %v arrives at %v, his first session at %v", u[0], u[1], firstSession[u[0]])
		}
		if m, i := gaps(gapsOf[u[0]]); u[13] != m || u[14] != i {
			t.Fatalf("user %v: sessions IA %v and %v, want %v and %v", u[0], u[13], u[14], m, i)
		}
		sum := 0.0
		for k := 17; k <= 21; k++ {
			sum += u[k]
		}
		if sum < 99.999 || sum > 100.001 {
			t.Fatalf("user %v: session class percentages add up to %v", u[0], sum)
		}
	}
}

// TestGaps: the median and 90% interval of the times between sessions.
func TestGaps(t *testing.T) {
	for _, c := range []struct {
		times  []float64
		m, itv float64
	}{
		{nil, 0, 0},
		{[]float64{5}, 0, 0},
		{[]float64{0, 10}, 10, 0},
		{[]float64{0, 10, 40}, 10, 20},
		{[]float64{0, 10, 20, 30, 100}, 10, 60},
	} {
		if m, i := gaps(c.times); m != c.m || i != c.itv {
			t.Errorf("gaps(%v) = %v, %v; want %v, %v", c.times, m, i, c.m, c.itv)
		}
	}
}

// TestHeaderAndCodes: the class codes and the numbered columns of the
// header, and lines that start with their first number.
func TestHeaderAndCodes(t *testing.T) {
	if SessionClassCodes != "0 IWD, 1 IWN, 2 IW, 3 BHP, 4 BHD" || UserClassCodes != "0 LTLU, 1 LTHU, 2 STWE, 3 STWD" {
		t.Errorf("codes %q and %q", SessionClassCodes, UserClassCodes)
	}
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A job without a user has no user class (its session is one of the
	// sessions of user -1).
	tr.Jobs[0].User = -1
	r, err := userclass.Analyze([]*trace.Trace{tr}, userclass.Options{Classify: sessionclass.ClassifyOptions{Seed: 1, Restarts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteJobs(&b, &Input{Traces: []*trace.Trace{tr}, Report: r}); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if !strings.Contains(text, ";   1 Job ID\n") || !strings.Contains(text, ";   24 Log ID\n") {
		t.Errorf("header columns:\n%s", text[:400])
	}
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		if l == "" || l[0] == ' ' {
			t.Fatalf("line %q", l)
		}
	}
	first := rows(t, b.Bytes())[0]
	if first[11] != -1 || first[22] != -1 || first[18] < 1 {
		t.Errorf("job without a user: %v", first)
	}
}
