package trace

import (
	"errors"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/swf"
)

func TestOddities(t *testing.T) {
	tests := []struct {
		file      string
		lenient   bool
		wantErr   error
		outOfRng  map[string]int
		atLimit   int
		noteWords string
	}{
		{"status.swf", false, swf.ErrNegative, nil, 0, ""},
		{"status.swf", true, nil, map[string]int{"Run Time": 1, "Status": 2, "User ID": 1}, 0, "Status 2"},
		{"reqtime.swf", false, nil, nil, 3, "3 requested time(s) at an integer limit"},
		{"nowait.swf", false, nil, nil, 0, ""},
	}
	for _, tc := range tests {
		tr, err := Load(testdata.Odd(tc.file), Options{Lenient: tc.lenient})
		if tc.wantErr != nil {
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("%s: err = %v, want %v", tc.file, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		o := tr.Oddities
		if len(o.OutOfRange) != len(tc.outOfRng) || o.ReqTimeAtLimit != tc.atLimit {
			t.Errorf("%s: oddities %+v, want %v and %d at limit", tc.file, o, tc.outOfRng, tc.atLimit)
		}
		for k, v := range tc.outOfRng {
			if o.OutOfRange[k] != v {
				t.Errorf("%s: %s replaced %d times, want %d", tc.file, k, o.OutOfRange[k], v)
			}
		}
		notes := strings.Join(tr.Header.Notes(), "\n")
		if tc.noteWords == "" && strings.Contains(notes, "read as unknown") ||
			tc.noteWords != "" && !strings.Contains(notes, tc.noteWords) {
			t.Errorf("%s: header notes %q, want %q", tc.file, notes, tc.noteWords)
		}
		for i := range tr.Jobs {
			if tr.Jobs[i].ReqTime >= ReqTimeLimit {
				t.Errorf("%s: job %d keeps requested time %d", tc.file, tr.Jobs[i].ID, tr.Jobs[i].ReqTime)
			}
		}
	}
}

func TestRunnable(t *testing.T) {
	tests := []struct {
		name string
		j    Job
		want bool
	}{
		{"complete", Job{Submit: 0, Runtime: 10, Procs: 2}, true},
		{"requested processors only", Job{Submit: 0, Runtime: 10, Procs: -1, ReqProcs: 4}, true},
		{"zero runtime", Job{Submit: 5, Runtime: 0, Procs: 1}, true},
		{"no runtime", Job{Submit: 0, Runtime: -1, Procs: 2}, false},
		{"no processors", Job{Submit: 0, Runtime: 10, Procs: -1, ReqProcs: -1}, false},
		{"zero processors", Job{Submit: 0, Runtime: 10, Procs: 0, ReqProcs: 0}, false},
		{"no submit", Job{Submit: -1, Runtime: 10, Procs: 2}, false},
	}
	for _, tc := range tests {
		if got := tc.j.Runnable(); got != tc.want {
			t.Errorf("%s: Runnable() = %v, want %v", tc.name, got, tc.want)
		}
	}
	tr, err := Load(testdata.Odd("dropped.swf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := tr.Unrunnable(); n != 6 {
		t.Errorf("dropped.swf: %d unrunnable jobs, want 6", n)
	}
}

// TestOdditiesString pins the sentence: the fields in SWF order with their
// counts, then the requested times at the limit; nothing when nothing was
// replaced (addOutOfRange ignores a count of 0).
func TestOdditiesString(t *testing.T) {
	var o Oddities
	o.addOutOfRange(12, 0)
	if o.Any() || o.String() != "" || o.OutOfRange != nil {
		t.Errorf("nothing replaced: %+v, %q", o, o.String())
	}
	o.addOutOfRange(12, 1)
	o.addOutOfRange(11, 2)
	o.addOutOfRange(12, 1)
	o.ReqTimeAtLimit = 3
	want := "4 value(s) out of range read as unknown (-1): Status 2, User ID 2; " +
		"3 requested time(s) at an integer limit (>= 2147483647 s, \"unlimited\") read as unknown (-1)"
	if got := o.String(); got != want || !o.Any() {
		t.Errorf("got %q, want %q", got, want)
	}
	if o := (Oddities{ReqTimeAtLimit: 1}); !o.Any() {
		t.Error("a requested time at the limit is an oddity")
	}
}
