package talby

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// fieldAt returns the field of p at path ("jobs[0].runtime.mu", the
// names of the JSON file).
func fieldAt(t *testing.T, p *Params, path string) reflect.Value {
	t.Helper()
	v := reflect.ValueOf(p).Elem()
	for _, k := range regexp.MustCompile(`[^.\[\]]+|\[\d+\]`).FindAllString(path, -1) {
		if v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		if k[0] == '[' {
			n, _ := strconv.Atoi(k[1 : len(k)-1])
			v = v.Index(n)
			continue
		}
		found := false
		for i := range v.NumField() {
			if name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ","); name == k {
				v, found = v.Field(i), true
				break
			}
		}
		if !found {
			t.Fatalf("%s: no field %q", path, k)
		}
	}
	return v
}

// TestValidateRanges checks every range Validate enforces at its edges, on
// the parameters fitted to KTH-SP2 (which have every optional part): each
// bound itself is accepted unless the range is open there, and a value just
// beyond it is refused with an error naming the field and the value. The
// per-class fields are checked on class 0; the ranges are those of the
// fields' documentation.
func TestValidateRanges(t *testing.T) {
	t.Parallel()
	// A deep copy: the shared fit's slices and pointers are changed below.
	shared, _ := fitKTH(t, false)
	raw, err := json.Marshal(shared)
	if err != nil {
		t.Fatal(err)
	}
	var base Params
	if err := json.Unmarshal(raw, &base); err != nil {
		t.Fatal(err)
	}
	inf := math.Inf(1)
	for _, c := range []struct {
		path   string
		lo, hi float64
		openLo bool
		isInt  bool
	}{
		{path: "machine.procs", lo: 1, hi: 1 << 24, isInt: true},
		{path: "machine.cm_s", lo: 0, hi: 1e8, openLo: true},
		{path: "machine.cl", lo: 0, hi: 1.5, openLo: true},
		{path: "new_users.mu", lo: -10, hi: 10},
		{path: "new_users.sigma", lo: 0, hi: 1, openLo: true},
		{path: "startup_users.slope", lo: -1e5, hi: 1e5},
		{path: "startup_users.intercept", lo: -1e5, hi: 1e5},
		{path: "startup_users.noise", lo: 0, hi: 1e5},
		{path: "startup_users.max_woa", lo: 1, hi: 520, isInt: true},
		{path: "user_classes.repeat", lo: 0, hi: 1},
		{path: "inactivity.week2", lo: -1, hi: 1},
		{path: "inactivity.weeks3to5", lo: -1, hi: 1},
		{path: "inactivity.max", lo: 0, hi: 0.999},
		{path: "sessions_per_week.mu", lo: 0, hi: 1.49},
		{path: "sessions_per_week.sigma_floor", lo: 0, hi: 100, openLo: true},
		{path: "sessions_per_week.max", lo: 1, hi: 504, isInt: true},
		{path: "placement.gap_s", lo: 0, hi: 86400, isInt: true},
		{path: "placement.attempts", lo: 1, hi: 1e6, isInt: true},
		{path: "placement.redraws", lo: 1, hi: 1e6, isInt: true},
		{path: "user_classes.share[0].cm", lo: -1, hi: 1},
		{path: "user_classes.share[0].cl", lo: -10, hi: 10},
		{path: "user_classes.share[0].intercept", lo: -10, hi: 10},
		{path: "inactivity.class[0].a", lo: -1, hi: 1},
		{path: "inactivity.class[0].b", lo: -1, hi: 2},
		{path: "sessions_per_week.class[0].k_slope", lo: -1, hi: 1},
		{path: "sessions_per_week.class[0].k_intercept", lo: -5, hi: 5},
		{path: "sessions_per_week.class[0].sigma_slope", lo: -10, hi: 10},
		{path: "sessions_per_week.class[0].sigma_intercept", lo: -100, hi: 1000},
		{path: "sessions_per_week.class[0].first_week_k", lo: -5, hi: 5},
		{path: "sessions_per_week.class[0].first_week_sigma", lo: 0, hi: 1000, openLo: true},
		{path: "session_classes.chain[0][0][0]", lo: 0, hi: 1},
		{path: "session_classes.woa[0].slope", lo: -1, hi: 1},
		{path: "session_classes.woa[0].intercept", lo: -1, hi: 2},
		{path: "session_classes.global[0]", lo: 0, hi: 1},
		{path: "jobs[0].jobs.a", lo: 0, hi: 20},
		{path: "jobs[0].jobs.max", lo: 1, hi: 1e6, isInt: true},
		{path: "jobs[0].repeat", lo: 0, hi: 1},
		{path: "jobs[0].runtime.mu", lo: -5, hi: 20},
		{path: "jobs[0].runtime.session_sd", lo: 0, hi: 10},
		{path: "jobs[0].runtime.sequence_sd", lo: 0, hi: 10},
		{path: "jobs[0].runtime.job_sd", lo: 0, hi: 10},
		{path: "jobs[0].runtime.max_s", lo: 1, hi: 1e9, isInt: true},
		{path: "jobs[0].runtime.quantiles[0]", lo: 1, hi: inf}, // hi: the next one
		{path: "jobs[0].runtime.quantiles[1]", lo: base.Jobs[0].Runtime.Quantiles[0], hi: inf},
		{path: "jobs[0].gap.zero", lo: 0, hi: 1},
		{path: "jobs[0].gap.mu", lo: -5, hi: 20},
		{path: "jobs[0].gap.sigma", lo: 0, hi: 10},
		{path: "jobs[0].days[0]", lo: 0, hi: inf},
		{path: "jobs[0].half_hours[0]", lo: 0, hi: inf},
		{path: "jobs[0].sizes[0].norm", lo: 0, hi: 1 << 24, openLo: true},
		{path: "jobs[0].sizes[0].p", lo: 0, hi: inf},
		{path: "startup_users.inactivity[0].a", lo: -1, hi: 1},
		{path: "startup_users.inactivity[0].b", lo: -1, hi: 2},
		{path: "startup_users.sessions[0].k_slope", lo: -1, hi: 1},
		{path: "startup_users.sessions[0].k_intercept", lo: -5, hi: 5},
		{path: "startup_users.sessions[0].sigma_slope", lo: -10, hi: 10},
		{path: "startup_users.sessions[0].sigma_intercept", lo: -100, hi: 1000},
	} {
		step := math.Max(1e-9, 1e-9*math.Abs(c.lo))
		hstep := math.Max(1e-9, 1e-9*math.Abs(c.hi))
		if c.isInt {
			step, hstep = 1, 1
		}
		lo := c.lo
		if c.openLo {
			lo += step
		}
		check := func(v float64, valid bool) {
			t.Helper()
			p := base // shares base's slices and pointers: restored below
			f := fieldAt(t, &p, c.path)
			old := reflect.ValueOf(f.Interface())
			if c.isInt {
				f.SetInt(int64(v))
			} else {
				f.SetFloat(v)
			}
			err := p.Validate()
			f.Set(old)
			if valid {
				if err != nil {
					t.Errorf("%s = %v: %v", c.path, v, err)
				}
				return
			}
			// The error names the field with its class's name: "a[0] (X).b".
			head, _, _ := strings.Cut(c.path, "[")
			tail := c.path[strings.LastIndex(c.path, "]")+1:]
			if !strings.Contains(c.path, "[") {
				head, tail = c.path, ""
			}
			if err == nil || !strings.Contains(err.Error(), head) || !strings.Contains(err.Error(), fmt.Sprintf("%s = %v: must be in ", tail, v)) {
				t.Errorf("%s = %v: got %v, want an error naming it", c.path, v, err)
			}
		}
		check(lo, true)
		check(c.lo-step, false)
		if c.openLo {
			check(c.lo, false)
		}
		if !math.IsInf(c.hi, 1) {
			check(c.hi, true)
			check(c.hi+hstep, false)
		}
	}
}
