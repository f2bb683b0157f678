package resample_test

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/trace"
)

// mixLogs returns two 30-week logs: the first in Stockholm on 64
// processors, the second in Los Angeles, starting on a Thursday at 05:00
// UTC, on procs processors (its user 3 asks for 70 processors when procs
// is 70 or less, for the oversize rules).
func mixLogs(t testing.TB, procs int) (*resample.Pools, *resample.Pools) {
	t.Helper()
	a := synth(30, "Europe/Stockholm", spans30)
	b := synth(30, "America/Los_Angeles", spans30)
	b.Header.Set("UnixStartTime", strconv.Itoa(978307200+3*day+5*3600))
	b.Header.Set("MaxProcs", strconv.Itoa(procs))
	b.Procs = procs
	for i := range b.Jobs {
		if b.Jobs[i].User == 3 {
			b.Jobs[i].Procs = 70
		}
	}
	b.Name = "synthetic-b"
	pa, err := resample.Classify(a, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pb, err := resample.Classify(b, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return pa, pb
}

func TestMixMachineRule(t *testing.T) {
	tests := []struct {
		name      string
		procsB    int
		opt       resample.MixOptions
		wantProcs int
		wantErr   bool
		dropped   bool
		clamped   bool
	}{
		{"same size, no rule", 64, resample.MixOptions{}, 64, false, true, false},
		{"different sizes, no rule", 128, resample.MixOptions{}, 0, true, false, false},
		{"different sizes, max", 128, resample.MixOptions{Procs: resample.MaxProcs}, 128, false, false, false},
		{"different sizes, 64, drop", 128, resample.MixOptions{Procs: 64}, 64, false, true, false},
		{"different sizes, 64, clamp", 128, resample.MixOptions{Procs: 64, Oversize: resample.OversizeClamp}, 64, false, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pa, pb := mixLogs(t, tc.procsB)
			m, err := resample.Mix([]*resample.Pools{pa, pb}, tc.opt)
			var me *resample.MachineSizeError
			if tc.wantErr {
				if !errors.As(err, &me) {
					t.Fatalf("err %v, want a MachineSizeError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Procs != tc.wantProcs {
				t.Errorf("machine %d, want %d", m.Procs, tc.wantProcs)
			}
			if (m.Dropped > 0) != tc.dropped || (m.Clamped > 0) != tc.clamped {
				t.Errorf("dropped %d, clamped %d", m.Dropped, m.Clamped)
			}
			for i := range m.Jobs {
				if m.Jobs[i].Processors() > m.Procs {
					t.Fatalf("job %d uses %d processors on a machine of %d", i, m.Jobs[i].Processors(), m.Procs)
				}
			}
		})
	}
}

func TestMixBadOptions(t *testing.T) {
	pa, pb := mixLogs(t, 64)
	for _, opt := range []resample.MixOptions{
		{Weights: []float64{1}},
		{Weights: []float64{1, 0}},
		{Weights: []float64{1, -2}},
		{Options: resample.Options{LoadFactor: -1}},
		{Procs: -5},
	} {
		if _, err := resample.Mix([]*resample.Pools{pa, pb}, opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
	if _, err := resample.Mix([]*resample.Pools{pa}, resample.MixOptions{}); err == nil {
		t.Error("one log: no error")
	}
}

// Every mixed job is a job of its log, at the same weekday and time of day
// in its own log's zone (moved to the first log's weeks), with its log's
// number in field 16; a copy's jobs come from one user of one log; the
// same options give the same bytes.
func TestMixProperties(t *testing.T) {
	pa, pb := mixLogs(t, 128)
	pools := []*resample.Pools{pa, pb}
	clocks := []*trace.Clock{pa.Trace.Clock(), pb.Trace.Clock()}
	rapid.Check(t, func(rt *rapid.T) {
		opt := resample.MixOptions{
			Options: resample.Options{Seed: rapid.Uint64().Draw(rt, "seed"), LoadFactor: rapid.Float64Range(0.5, 3).Draw(rt, "load"),
				Duration: int64(rapid.IntRange(2, 60).Draw(rt, "weeks")) * week},
			Weights: []float64{rapid.Float64Range(0.1, 5).Draw(rt, "w1"), rapid.Float64Range(0.1, 5).Draw(rt, "w2")},
			Procs:   resample.MaxProcs,
		}
		m, err := resample.Mix(pools, opt)
		if err != nil {
			rt.Fatal(err)
		}
		first := clocks[0]
		copyOf := map[int32][2]int32{}
		for i := range m.Jobs {
			j := &m.Jobs[i]
			if i > 0 && j.Submit < m.Jobs[i-1].Submit {
				rt.Fatalf("job %d before job %d", i, i-1)
			}
			if j.Submit < 0 || j.Submit >= m.Duration {
				rt.Fatalf("job %d at %d, outside [0, %d)", i, j.Submit, m.Duration)
			}
			lg := m.Log[i]
			if j.Partition != lg+1 {
				rt.Fatalf("job %d of log %d has partition %d", i, lg, j.Partition)
			}
			o := &pools[lg].Trace.Jobs[m.Source[i]]
			if o.Runtime != j.Runtime || o.User != m.Copies[j.User-1].User {
				rt.Fatalf("job %d differs from its source", i)
			}
			a, b := first.Time(j.Submit), clocks[lg].Time(o.Submit)
			if (a.Weekday() != b.Weekday() || a.Hour() != b.Hour() || a.Minute() != b.Minute()) && !dstGap(first, j.Submit) && !dstGap(clocks[lg], o.Submit) {
				rt.Fatalf("job %d at %v in the mix, %v in its log", i, a, b)
			}
			key := [2]int32{lg, o.User}
			if prev, ok := copyOf[j.User]; ok && prev != key {
				rt.Fatalf("copy %d mixes %v and %v", j.User, prev, key)
			}
			copyOf[j.User] = key
			if m.CopyLog[j.User-1] != lg {
				rt.Fatalf("copy %d is of log %d, its job of log %d", j.User, m.CopyLog[j.User-1], lg)
			}
		}
		var b1, b2 bytes.Buffer
		if err := m.Trace("").WriteSWF(&b1); err != nil {
			rt.Fatal(err)
		}
		m2, err := resample.Mix(pools, opt)
		if err != nil {
			rt.Fatal(err)
		}
		if err := m2.Trace("").WriteSWF(&b2); err != nil {
			rt.Fatal(err)
		}
		if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			rt.Fatal("the same options gave different logs")
		}
	})
}

// The mixed log's header maps copies to logs and reads back.
func TestMixHeader(t *testing.T) {
	pa, pb := mixLogs(t, 128)
	m, err := resample.Mix([]*resample.Pools{pa, pb}, resample.MixOptions{Options: resample.Options{Seed: 3}, Procs: 128})
	if err != nil {
		t.Fatal(err)
	}
	tr := m.Trace("cmd")
	cs, err := resample.Copies(&tr.Header)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != len(m.Copies) {
		t.Fatalf("%d UserCopy lines for %d copies", len(cs), len(m.Copies))
	}
	for i, c := range m.Copies {
		if got := cs[c.ID]; got.Log != int(m.CopyLog[i])+1 || got.User != c.User {
			t.Errorf("copy %d: header %+v, want log %d user %d", c.ID, got, m.CopyLog[i]+1, c.User)
		}
	}
	// The logs by number, share, name and SHA-256 ("-" for a log built in
	// memory); their parameters by number; the command when given; no wait
	// times.
	if got, want := tr.Header.GetAll(resample.KeyMixLog), []string{"1 0.5 synthetic -", "2 0.5 synthetic-b -"}; !slices.Equal(got, want) {
		t.Errorf("MixLog lines %q, want %q", got, want)
	}
	if got := tr.Header.GetAll(resample.KeyParams); len(got) != 2 || !strings.HasPrefix(got[0], "log=1 ") || !strings.HasPrefix(got[1], "log=2 ") {
		t.Errorf("parameter lines %q", got)
	}
	if v, _ := tr.Header.Get(resample.KeyCommand); v != "cmd" {
		t.Errorf("command line %q", v)
	}
	if _, ok := m.Trace("").Header.Get(resample.KeyCommand); ok {
		t.Error("a command line without a command")
	}
	for i := range tr.Jobs {
		if tr.Jobs[i].Wait != -1 {
			t.Fatalf("job %d: wait %d, want -1", i, tr.Jobs[i].Wait)
		}
	}
	if v, _ := tr.Header.Get(resample.KeySeed); v != "3 stream 0" {
		t.Errorf("seed line %q", v)
	}
	if tr.Procs != 128 {
		t.Errorf("machine %d", tr.Procs)
	}
	// The mix's load factor, not the first log's share of it (1 times
	// 0.5): 1 by default, 2 when asked with shares 0.25 and 0.75.
	if v, _ := tr.Header.Get(resample.KeyMixParams); !strings.Contains(v, " load=1 ") {
		t.Errorf("MixParams line %q, want load=1", v)
	}
	m2, err := resample.Mix([]*resample.Pools{pa, pb}, resample.MixOptions{Options: resample.Options{Seed: 3, LoadFactor: 2},
		Weights: []float64{0.25, 0.75}, Procs: 128})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := m2.Trace("").Header.Get(resample.KeyMixParams); !strings.Contains(v, " load=2 ") {
		t.Errorf("MixParams line %q, want load=2", v)
	}
}

// TestMixEdges: the limits of Mix's options at equality (a duration of
// exactly a week, the largest load factor), the default duration (the
// first log's period, here from its first submit), and the names of the
// oversize rules.
func TestMixEdges(t *testing.T) {
	pa, pb := mixLogs(t, 64)
	sub, err := resample.Classify(pa.Trace, resample.ClassifyOptions{Period: resample.PeriodSubmits})
	if err != nil {
		t.Fatal(err)
	}
	if sub.Start == 0 {
		t.Fatal("the period by submits starts at 0")
	}
	m, err := resample.Mix([]*resample.Pools{sub, pb}, resample.MixOptions{Options: resample.Options{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Duration != sub.End-sub.Start {
		t.Errorf("default duration %d, want the first log's %d", m.Duration, sub.End-sub.Start)
	}
	// The logs are resampled a week beyond the mix, so its last week is
	// full: the first log's long-term users submit in its last 3 days. Only
	// jobs of a part's first week can fall before the mix's start.
	last, before := int64(0), 0
	for i, j := range m.Jobs {
		if m.Log[i] == 0 {
			last = max(last, j.Submit)
		}
	}
	for _, w := range m.Parts {
		before += w.BeforeStart
		for _, j := range w.Jobs {
			if j.Submit < resample.Week {
				before++
			}
		}
	}
	if last < m.Duration-3*day || m.BeforeStart > before {
		t.Errorf("last job at %d, duration %d; %d jobs before the start, at most %d", last, m.Duration, m.BeforeStart, before)
	}
	for _, o := range []resample.Options{
		{Seed: 1, Duration: resample.MinDuration},
		{Seed: 1, Duration: resample.MinDuration, LoadFactor: resample.MaxLoadFactor},
	} {
		if _, err := resample.Mix([]*resample.Pools{pa, pb}, resample.MixOptions{Options: o}); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
	for _, o := range []resample.Options{
		{Seed: 1, Duration: resample.MinDuration - 1},
		{Seed: 1, Duration: resample.MinDuration, LoadFactor: resample.MaxLoadFactor + 0.5},
	} {
		if _, err := resample.Mix([]*resample.Pools{pa, pb}, resample.MixOptions{Options: o}); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	// The longest mix, a week short of the generator's limit (at a small
	// load, to stay quick), and a second longer, refused with the limit.
	long := resample.Options{Seed: 1, LoadFactor: 0.01, Duration: resample.MaxDuration - resample.Week}
	if _, err := resample.Mix([]*resample.Pools{pa, pb}, resample.MixOptions{Options: long}); err != nil {
		t.Errorf("%+v: %v", long, err)
	}
	long.Duration++
	_, err = resample.Mix([]*resample.Pools{pa, pb}, resample.MixOptions{Options: long})
	if want := strconv.FormatInt(resample.MaxDuration-resample.Week, 10) + " s when mixing"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%+v: error %v, want the limit %q", long, err, want)
	}
	// Each log is resampled at the mix's load factor and RB_NPW times its
	// weight, 1/4 and 3/4 (user 1's jobs of week 3 are a rare behaviour).
	rare := resample.ClassifyOptions{Rare: []resample.RarePeriod{{User: 1, Begin: 3 * resample.Week, End: 4 * resample.Week}}}
	ra, err := resample.Classify(pa.Trace, rare)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := resample.Classify(pb.Trace, rare)
	if err != nil {
		t.Fatal(err)
	}
	m, err = resample.Mix([]*resample.Pools{ra, rb}, resample.MixOptions{Options: resample.Options{Seed: 1, LoadFactor: 2, RBNPW: 0.04}, Weights: []float64{1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range []float64{0.25, 0.75} {
		if pr := m.Parts[i].Params; pr.RBNPW != 0.04*f {
			t.Errorf("log %d: RB_NPW %v, want %v", i+1, pr.RBNPW, 0.04*f)
		}
	}
	// The load factor likewise.
	m, err = resample.Mix([]*resample.Pools{pa, pb}, resample.MixOptions{Options: resample.Options{Seed: 1, LoadFactor: 2}, Weights: []float64{1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range []float64{0.25, 0.75} {
		if pr := m.Parts[i].Params; pr.LoadFactor != 2*f {
			t.Errorf("log %d: load factor %v, want %v", i+1, pr.LoadFactor, 2*f)
		}
	}
	if resample.OversizeDrop.String() != "drop" || resample.OversizeClamp.String() != "clamp" {
		t.Errorf("oversize rules %q, %q", resample.OversizeDrop, resample.OversizeClamp)
	}
}

// TestMixTiesAndWidth: two copies of one log mixed on a machine of 64
// processors, at load factor 2: each log holds every long-term user once.
// Jobs as wide as the machine (user 2's, 64 processors) are kept; jobs
// submitted at the same time come in the logs' order.
func TestMixTiesAndWidth(t *testing.T) {
	tr := synth(30, "UTC", spans30)
	for i := range tr.Jobs {
		if tr.Jobs[i].User == 2 {
			tr.Jobs[i].Procs = 64
		}
	}
	pa, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pb, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := resample.Mix([]*resample.Pools{pa, pb}, resample.MixOptions{Options: resample.Options{Seed: 3, LoadFactor: 2}, Procs: 64})
	if err != nil {
		t.Fatal(err)
	}
	wide, ties := 0, 0
	for i, j := range m.Jobs {
		if j.Procs == 64 {
			wide++
		}
		if i > 0 && j.Submit == m.Jobs[i-1].Submit && m.Log[i] != m.Log[i-1] {
			ties++
			if m.Log[i] < m.Log[i-1] {
				t.Fatalf("jobs %d and %d at %d: logs %d then %d", i-1, i, j.Submit, m.Log[i-1], m.Log[i])
			}
		}
	}
	// Jobs are numbered from 1; each copy counts its jobs.
	n := map[int32]int{}
	for i, j := range m.Jobs {
		n[j.User]++
		if j.ID != int64(i+1) {
			t.Fatalf("job %d numbered %d", i, j.ID)
		}
	}
	for i, c := range m.Copies {
		if c.ID != int32(i+1) || c.Jobs != n[c.ID] {
			t.Errorf("copy %d (ID %d): %d jobs, want %d", i, c.ID, c.Jobs, n[c.ID])
		}
	}
	if m.Dropped != 0 || wide == 0 || ties == 0 {
		t.Errorf("%d dropped, %d jobs of 64 processors, %d ties between the logs: want none dropped, some of each", m.Dropped, wide, ties)
	}
}

// TestMixMachineUnknown: a log without a machine size mixes only on a
// machine of a given size; a zero weight is named by its position.
func TestMixMachineUnknown(t *testing.T) {
	pa, _ := mixLogs(t, 64)
	tr := pa.Trace.Clone()
	tr.Procs = 0
	tr.Header.Delete("MaxProcs")
	pb, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := resample.Mix([]*resample.Pools{pa, pb}, resample.MixOptions{}); err == nil || !strings.Contains(err.Error(), "--machine N") {
		t.Errorf("no machine size: error %v, want one asking for --machine N", err)
	}
	m, err := resample.Mix([]*resample.Pools{pa, pb}, resample.MixOptions{Procs: 32, Options: resample.Options{Seed: 1}})
	if err != nil || m.Procs != 32 {
		t.Errorf("machine of 32: %v", err)
	}
	_, err = resample.Mix([]*resample.Pools{pa, pb}, resample.MixOptions{Weights: []float64{1, 0}})
	if err == nil || !strings.Contains(err.Error(), "weight 2 is 0") {
		t.Errorf("weights 1, 0: error %v, want weight 2 named", err)
	}
}

// TestMixJobsAtTheEdges: a mixed job at exactly time 0 is kept and not
// counted before the start, one at exactly the duration is left out. Two
// copies of a UTC log whose user 1 submits every Monday at 00:00 (as in
// TestJobAtTimeZero) put jobs of the parts at 0 and at the mix's duration,
// 4 weeks; the logs share their calendar, so a part's times are the mix's.
func TestMixJobsAtTheEdges(t *testing.T) {
	tr := synth(30, "UTC", spans30)
	for i := range tr.Jobs {
		if j := &tr.Jobs[i]; j.User == 1 && j.Submit%week < day {
			j.Submit -= j.Submit % week
		}
	}
	var pools []*resample.Pools
	for range 2 {
		p, err := resample.Classify(tr.Clone(), resample.ClassifyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pools = append(pools, p)
	}
	const d = 4 * week
	m, err := resample.Mix(pools, resample.MixOptions{Options: resample.Options{Seed: 1, Duration: d}})
	if err != nil {
		t.Fatal(err)
	}
	inside, atZero, atEnd, before := 0, 0, 0, 0
	for _, w := range m.Parts {
		before += w.BeforeStart
		for _, j := range w.Jobs {
			switch {
			case j.Submit < 0:
				before++
			case j.Submit < d:
				inside++
			}
			if j.Submit == 0 {
				atZero++
			}
			if j.Submit == d {
				atEnd++
			}
		}
	}
	if atZero == 0 || atEnd == 0 {
		t.Fatalf("%d part jobs at 0 and %d at %d: the test needs some of each", atZero, atEnd, d)
	}
	if len(m.Jobs) != inside || m.Jobs[0].Submit != 0 || m.Jobs[len(m.Jobs)-1].Submit >= d {
		t.Errorf("%d mixed jobs from %d to %d, want the %d part jobs in [0, %d)", len(m.Jobs), m.Jobs[0].Submit, m.Jobs[len(m.Jobs)-1].Submit, inside, d)
	}
	if m.BeforeStart != before {
		t.Errorf("%d jobs before the start, want %d", m.BeforeStart, before)
	}
}
