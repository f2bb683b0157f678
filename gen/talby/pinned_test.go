package talby

import (
	"flag"
	"path/filepath"
	"sync"
	"testing"

	"github.com/hpcwl/hpcwl/internal/golden"
	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

var update = flag.Bool("update", false, "rewrite the pinned files in testdata")

// kthFits holds the two fits of KTH-SP2 (seed 1; our extensions, then the
// thesis' rules) that several tests share, made once per test binary.
var kthFits struct {
	once sync.Once
	p    [2]Params
	rep  [2]*FitReport
	err  error
}

// fitKTH returns the shared fit of KTH-SP2 with FitOptions{Seed: 1,
// ThesisRules: thesis}; callers must not change it.
func fitKTH(t testing.TB, thesis bool) (Params, *FitReport) {
	t.Helper()
	kthFits.once.Do(func() {
		tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
		if err != nil {
			kthFits.err = err
			return
		}
		for i := range 2 {
			kthFits.p[i], kthFits.rep[i], err = Fit(tr, FitOptions{Seed: 1, ThesisRules: i == 1})
			if err != nil {
				kthFits.err = err
				return
			}
		}
	})
	if kthFits.err != nil {
		t.Fatal(kthFits.err)
	}
	i := 0
	if thesis {
		i = 1
	}
	return kthFits.p[i], kthFits.rep[i]
}

// TestFitPinned pins every figure of the fit of KTH-SP2 (parameters and
// report), with our extensions and with the thesis' rules, and of
// SDSC-Par-1996 with our extensions, so that any
// change in how the log is read, classified or fitted shows. The
// self-consistency and recovery tests say whether the fit is right; this
// one says that it did not move. Numbers must agree within a relative
// 1e-9. After a deliberate change, rewrite the files with
// go test ./gen/talby -run TestFitPinned -update and explain the change in
// docs/validation.md.
func TestFitPinned(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file   string
		thesis bool
	}{
		{"kth-fit.json", false},
		{"kth-fit-thesis.json", true},
		{"sdsc-par-fit.json", false},
	} {
		var p Params
		var rep *FitReport
		if c.file == "sdsc-par-fit.json" {
			// A second log, with new users in week 12 and classes of other
			// sizes than KTH-SP2's.
			tr, err := trace.Load(testdata.Path(t, "SDSC-Par-1996-3.1-cln.swf.gz"), trace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if p, rep, err = Fit(tr, FitOptions{Seed: 1}); err != nil {
				t.Fatal(err)
			}
		} else {
			p, rep = fitKTH(t, c.thesis)
		}
		v := struct {
			Params Params     `json:"params"`
			Report *FitReport `json:"report"`
		}{p, rep}
		d, err := golden.Compare(filepath.Join("testdata", c.file), v, 1e-9, *update)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range d {
			t.Errorf("%s: %s", c.file, d)
		}
	}
}

// pinnedRun is what TestGeneratePinned keeps of a workload: its counts,
// sums over every job's SWF record, and the first jobs in full.
type pinnedRun struct {
	Version                            string
	Users, StartupUsers, UsersWithJobs int
	Sessions, Dropped                  int
	UserClasses                        [NumUserClasses]int
	SessionClasses                     [NumSessionClasses]int
	Jobs                               int
	Submit, Runtime, Procs, User       int64
	Preceding, ThinkTime               int64
	Linked                             int
	First                              [][6]int64 // submit, runtime, procs, user, preceding, think time
}

func pin(w *Workload) pinnedRun {
	r := pinnedRun{Version: Version, Users: w.Users, StartupUsers: w.StartupUsers,
		UsersWithJobs: w.UsersWithJobs, Sessions: w.Sessions, Dropped: w.Dropped,
		UserClasses: w.UserClasses, SessionClasses: w.SessionClasses}
	for i, j := range w.SWF() {
		r.Jobs++
		r.Submit += j.Submit
		r.Runtime += j.Runtime
		r.Procs += j.Procs
		r.User += j.User
		if j.Preceding >= 0 {
			r.Linked++
			r.Preceding += j.Preceding
			r.ThinkTime += j.ThinkTime
		}
		if i < 40 {
			r.First = append(r.First, [6]int64{j.Submit, j.Runtime, j.Procs, j.User, j.Preceding, j.ThinkTime})
		}
	}
	return r
}

// TestGeneratePinned pins workloads generated from the default parameters
// and from those fitted to KTH-SP2 (both start-up rules, both placements):
// the same parameters and seed must give the same jobs for as long as
// Version stays (swf.go), so a change that moves them shows here and
// needs a new Version. Stream must hand out the same records.
func TestGeneratePinned(t *testing.T) {
	t.Parallel()
	fitted, _ := fitKTH(t, false)
	thesis, _ := fitKTH(t, true)
	for _, c := range []struct {
		file string
		p    Params
		cfg  Config
	}{
		{"generate-default.json", defaults(t), Config{Weeks: 30, Seed: 3}},
		{"generate-kth.json", fitted, Config{Weeks: 30, Seed: 5}},
		{"generate-kth-thesis.json", thesis, Config{Weeks: 30, Seed: 7}},
	} {
		w, err := Generate(c.p, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		d, err := golden.Compare(filepath.Join("testdata", c.file), pin(w), 0, *update)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range d {
			t.Errorf("%s: %s", c.file, d)
		}
		var got []swf.Job
		if _, err := Stream(c.p, c.cfg, func(j *swf.Job) error { got = append(got, *j); return nil }); err != nil {
			t.Fatal(err)
		}
		want := w.SWF()
		if len(got) != len(want) {
			t.Fatalf("%s: Stream gave %d jobs, Generate %d", c.file, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: job %d: Stream %+v, Generate %+v", c.file, i+1, got[i], want[i])
			}
		}
	}
}
