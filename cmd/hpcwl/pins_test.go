package main

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
)

// pin is one figure of a run's JSON report, by its dotted path.
type pin struct {
	path string
	want float64
}

// TestPublishedResultPins pins the values behind representative rows of
// the published tables that docs/validation.md compares with (section
// "Deterministic properties pinned by tests"): Zakay's thesis, chapter 4,
// Table I (average wait by user model, EASY) and Madon, Da Costa and
// Pierson 2024, Tables 1 and 2 (makespan, waits and lateness of rigid and
// feedback replay), on the built-in KTH-SP2 log. Every run is
// deterministic (the stochastic user models use seed 1), so the tolerance
// is a relative 1e-9, room only for floating-point summation; a change of
// the simulation, the schedulers or the user models shows here. The values
// are hpcwl's own, not the papers' (docs/validation.md gives both).
func TestPublishedResultPins(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates KTH-SP2 eight times")
	}
	cases := []struct {
		name string
		args []string
		pins []pin
	}{
		{"Zakay ch. 4 Table I, KTH, conventional", []string{"simulate", "builtin:KTH-SP2", "--scheduler", "easy", "--oversize", "drop", "--json"}, []pin{{"metrics.wait.mean", 6867.016962247586}}},
		{"Zakay ch. 4 Table I, KTH, adjusted", []string{"simulate", "builtin:KTH-SP2", "--scheduler", "easy", "--oversize", "drop", "--replay", "feedback", "--users", "adjusted", "--json"}, []pin{{"metrics.wait.mean", 6008.668937664618}}},
		{"Zakay ch. 4 Table I, KTH, distribution", []string{"simulate", "builtin:KTH-SP2", "--scheduler", "easy", "--oversize", "drop", "--replay", "feedback", "--users", "distribution", "--json"}, []pin{{"metrics.wait.mean", 8421.495171202809}}},
		{"Zakay ch. 4 Table I, KTH, fluid", []string{"simulate", "builtin:KTH-SP2", "--scheduler", "easy", "--oversize", "drop", "--replay", "feedback", "--users", "fluid", "--json"}, []pin{{"metrics.wait.mean", 4898.329727831431}}},
		{"Madon Tables 1-2, KTH, EASY a0", []string{"evaluate", "builtin:KTH-SP2", "--speed", "1", "--sessions", "a0", "--json"}, []pin{{"rigid.metrics.makespan", 28763776}, {"rigid.metrics.wait.mean", 6867.016962247586}, {"rigid.metrics.wait.max", 262194}, {"feedback.metrics.makespan", 31800003}, {"feedback.metrics.wait.mean", 5763.7770676031605}, {"feedback.metrics.wait.max", 333081}, {"feedback.feedback.lateness.mean_s", -210883.5604719764}, {"feedback.feedback.lateness.relative", 0.9926684306287001}, {"feedback.feedback.lateness.additional_s", -14.81183919030563}}},
		{"Madon Tables 1-2, KTH, FCFS a60", []string{"evaluate", "builtin:KTH-SP2", "--scheduler", "fcfs", "--sessions", "a60", "--json"}, []pin{{"rigid.metrics.wait.mean", 390083.02978050924}, {"feedback.metrics.makespan", 39205962}, {"feedback.metrics.wait.mean", 40502.10089552239}, {"feedback.metrics.wait.max", 386341}, {"feedback.feedback.lateness.additional_s", 159.01034086896766}}},
		{"Madon Tables 1-2, KTH, perf/2 a60", []string{"evaluate", "builtin:KTH-SP2", "--speed", "0.5", "--sessions", "a60", "--json"}, []pin{{"rigid.metrics.makespan", 41312453}, {"rigid.metrics.wait.mean", 2378356.828832309}, {"feedback.metrics.makespan", 54025665}, {"feedback.metrics.wait.mean", 51450.955926251096}, {"feedback.metrics.wait.max", 838048}, {"feedback.feedback.lateness.additional_s", 259.3321497541913}}},
		{"Madon Tables 1-2, KTH, infra/2 a0", []string{"evaluate", "builtin:KTH-SP2", "--procs-factor", "0.5", "--sessions", "a0", "--json"}, []pin{{"rigid.metrics.wait.mean", 504396.7784366577}, {"feedback.metrics.wait.mean", 25657.957340521116}, {"feedback.feedback.lateness.additional_s", 110.44203480749496}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var doc map[string]any
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			for _, p := range c.pins {
				var v any = doc
				for _, k := range strings.Split(p.path, ".") {
					m, ok := v.(map[string]any)
					if !ok {
						t.Fatalf("%s: no %q in the report", p.path, k)
					}
					v = m[k]
				}
				got, ok := v.(float64)
				if !ok {
					t.Fatalf("%s: %v is not a number", p.path, v)
				}
				if !(math.Abs(got-p.want) <= 1e-9*math.Max(1, math.Abs(p.want))) {
					t.Errorf("%s = %.10g, pinned %.10g (hpcwl %s)", p.path, got, p.want, strings.Join(c.args, " "))
				}
			}
		})
	}
}

// TestTalbyTable8Pins pins the EASY and conservative columns of the comparison with
// Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, Table 8
// (whole-log mean wait and mean bounded slowdown) at the values hpcwl
// computes, relative tolerance 1e-9 (the runs are deterministic), for EASY
// and for conservative backfilling (textbook compression in arrival order).
// SDSC-SP2 and SDSC-BLUE need the real logs.
func TestTalbyTable8Pins(t *testing.T) {
	cases := []struct {
		log, sched string
		wait, bsld float64
	}{
		{"builtin:KTH-SP2", "easy", 6867.016962247586, 90.85178424872159},
		{"SDSC-SP2-1998-4.2-cln.swf.gz", "easy", 21516.87419510029, 93.84754404982235},
		{"SDSC-BLUE-2000-4.2-cln.swf.gz", "easy", 7785.244825035905, 36.56476759748447},
		{"builtin:KTH-SP2", "conservative", 7430.780614574188, 91.19719557074033},
		{"SDSC-SP2-1998-4.2-cln.swf.gz", "conservative", 23730.224872326253, 95.92690950966099},
		{"SDSC-BLUE-2000-4.2-cln.swf.gz", "conservative", 7814.008307462096, 35.78643592229479},
	}
	for _, c := range cases {
		t.Run(c.log+"/"+c.sched, func(t *testing.T) {
			name := c.log
			if !strings.HasPrefix(name, "builtin:") {
				name = testdata.Path(t, name)
			}
			code, out, errOut := runCLI(t, "simulate", name, "--scheduler", c.sched, "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var r struct {
				Metrics struct {
					Wait            struct{ Mean float64 } `json:"wait"`
					BoundedSlowdown struct{ Mean float64 } `json:"bounded_slowdown"`
				} `json:"metrics"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			for _, p := range []struct {
				what      string
				got, want float64
			}{{"mean wait", r.Metrics.Wait.Mean, c.wait}, {"mean bounded slowdown", r.Metrics.BoundedSlowdown.Mean, c.bsld}} {
				if !(math.Abs(p.got-p.want) <= 1e-9*p.want) {
					t.Errorf("%s = %.10g, pinned %.10g", p.what, p.got, p.want)
				}
			}
		})
	}
}

// TestZakayTableVPins pins the user classification that docs/validation.md
// compares with Zakay's thesis, chapter 3, Table V (long-term, temporary
// and discarded users and jobs; 12-week span, 4-week boundary): exact
// counts, as the classification is deterministic. KTH-SP2 is built in; the
// other logs need the real logs.
func TestZakayTableVPins(t *testing.T) {
	type class struct{ Users, Jobs int }
	cases := []struct {
		log                 string
		weeks               int
		lt, temp, discarded class
		filtered            int
	}{
		{"builtin:KTH-SP2", 49, class{102, 25192}, class{84, 3085}, class{28, 198}, 1},
		{"CTC-SP2-1996-3.1-cln.swf.gz", 49, class{313, 63019}, class{320, 13503}, class{46, 700}, 0},
		{"SDSC-SP2-1998-4.2-cln.swf.gz", 106, class{173, 44285}, class{237, 9530}, class{18, 229}, 5671},
		{"SDSC-DS-2004-2.1-cln.swf.gz", 56, class{227, 74684}, class{223, 10265}, class{6, 96}, 11024},
	}
	for _, c := range cases {
		t.Run(c.log, func(t *testing.T) {
			name := c.log
			if !strings.HasPrefix(name, "builtin:") {
				name = testdata.Path(t, name)
			}
			code, out, errOut := runCLI(t, "resample", name, "--json", "--to", "swf", "-o", os.DevNull)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var r struct {
				Pools struct {
					Weeks    int              `json:"log_weeks"`
					Classes  map[string]class `json:"classes"`
					Filtered int              `json:"filtered_jobs"`
				} `json:"pools"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			p := r.Pools
			if p.Weeks != c.weeks || p.Classes["long-term"] != c.lt || p.Classes["temporary"] != c.temp ||
				p.Classes["discarded"] != c.discarded || p.Filtered != c.filtered {
				t.Errorf("weeks %d, long-term %+v, temporary %+v, discarded %+v, filtered %d; pinned %d, %+v, %+v, %+v, %d",
					p.Weeks, p.Classes["long-term"], p.Classes["temporary"], p.Classes["discarded"], p.Filtered,
					c.weeks, c.lt, c.temp, c.discarded, c.filtered)
			}
		})
	}
}

// TestZakayTablesVIVIIPins pins the original columns that docs/validation.md
// compares with Zakay's thesis, chapter 3, Tables VI (mean stack depth of
// runtime, requested time and processors, --depth thesis) and VII (Hurst
// parameter, default pox plot), relative tolerance 1e-9: both analyses are
// deterministic. KTH-SP2 is built in; CTC-SP2 needs the real logs.
func TestZakayTablesVIVIIPins(t *testing.T) {
	cases := []struct {
		log                           string
		runtime, estimate, procs, hur float64
	}{
		{"builtin:KTH-SP2", 34.81098831255959, 6.520445180150037, 3.8222566777080837, 0.6997828084747869},
		{"CTC-SP2-1996-3.1-cln.swf.gz", 27.425374586495426, 4.510693731529009, 3.43882792435209, 0.6823183638617436},
	}
	for _, c := range cases {
		t.Run(c.log, func(t *testing.T) {
			name := c.log
			if !strings.HasPrefix(name, "builtin:") {
				name = testdata.Path(t, name)
			}
			code, out, errOut := runCLI(t, "compare", name, name, "--depth", "thesis", "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var r struct {
				Original struct {
					Stack map[string]struct{ Mean float64 } `json:"stack_depth"`
					Hurst struct{ H float64 }               `json:"hurst"`
				} `json:"original"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			o := r.Original
			for _, p := range []struct {
				what      string
				got, want float64
			}{{"runtime depth", o.Stack["runtime"].Mean, c.runtime}, {"requested-time depth", o.Stack["estimate"].Mean, c.estimate},
				{"processors depth", o.Stack["procs"].Mean, c.procs}, {"Hurst H", o.Hurst.H, c.hur}} {
				if !(math.Abs(p.got-p.want) <= 1e-9*p.want) {
					t.Errorf("%s = %.10g, pinned %.10g", p.what, p.got, p.want)
				}
			}
		})
	}
}
