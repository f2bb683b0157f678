package clean_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/clean"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func TestFilterMatch(t *testing.T) {
	j := trace.Job{ID: 15000, Submit: 100, Wait: 5, Runtime: 0, Procs: -1, ReqProcs: 8, ReqTime: 600,
		AvgCPU: 1.5, UsedMem: -1, ReqMem: -1, Status: 5, User: 374, Group: 2, App: 7, Queue: 1,
		Partition: 1, Preceding: -1, ThinkTime: -1}
	tests := []struct {
		expr string
		want bool
	}{
		{"user=374", true},
		{"user==374", true},
		{"user!=374", false},
		{"user=374 and 14968<job<28553", true},
		{"user=374 and 15000<job<28553", false},
		{"user=21 and (job>=13717 and job<=16207)", false},
		{"user=21 or (job>=13717 and job<=16207)", true},
		{"job<=10", false},
		{"job>15000", false},
		{"job>14999", true},
		{"job>=15000", true},
		{"job<15000", false},
		{"not job<=10", true},
		{"status=5 and run=0", true},
		{"STATUS = 5 AND RUN = 0", true},
		{"processors>4", true},
		{"procs=-1", true},
		{"reqprocs>=8 and reqtime<=600 and cpu>1.25", true},
		{"user_id=374 and executable_number=7 and queue=1", true},
	}
	for _, tt := range tests {
		f, err := clean.ParseFilter(tt.expr)
		if err != nil {
			t.Errorf("%q: %v", tt.expr, err)
			continue
		}
		if got := f.Match(&j); got != tt.want {
			t.Errorf("%q matches = %v, want %v", tt.expr, got, tt.want)
		}
	}
}

func TestFilterErrors(t *testing.T) {
	tests := []struct {
		expr string
		want string
	}{
		{"", "column 1: expected a field name, a number or a date, found end of expression"},
		{"user", "expected a comparison operator"},
		{"user=", "column 6: expected a field name, a number or a date"},
		{"usr=3", `expected a field name (app, cpu, group, hour, job,`},
		{"user=3 and", "found end of expression"},
		{"user=3 job<5", `expected "and", "or"`},
		{"(user=3", `expected ")"`},
		{"user=3)", `found ")"`},
		{"user!3", "expected a comparison operator"},
		{"user=3 & job<5", `found "&"`},
		// A misspelt name is quoted whole, whatever its letters and digits.
		{"fizz9=1", `found "fizz9"`},
		{"JOBZ0=1", `found "JOBZ0"`},
	}
	for _, tt := range tests {
		_, err := clean.ParseFilter(tt.expr)
		if err == nil {
			t.Errorf("%q: no error", tt.expr)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "filter ") {
			t.Errorf("%q: error %q does not contain %q", tt.expr, err, tt.want)
		}
	}
}

func ExampleParseFilter() {
	f, _ := clean.ParseFilter("user=374 and 14968<job<28553")
	j := trace.Job{ID: 20000, User: 374}
	fmt.Println(f, f.Match(&j))
	// Output: user=374 and 14968<job<28553 true
}

func TestFilterLocalTime(t *testing.T) {
	var h swf.Header
	h.Add("UnixStartTime", "1163199901") // Fri Nov 10 15:05:01 PST 2006
	h.Add("TimeZoneString", "US/Pacific")
	tr := trace.New(h, []trace.Job{{ID: 1, Submit: 0}, {ID: 2, Submit: 12 * 3600}}, trace.Options{})
	tests := []struct {
		expr string
		want [2]bool
	}{
		{"hour=15", [2]bool{true, false}},
		{"hour>=3 and hour<=3", [2]bool{false, true}}, // 03:05 on Nov 11
		{"submit<=2006-11-11", [2]bool{true, false}},
		{"submit<2006-11-11 03:05:01", [2]bool{true, false}},
		{"submit<=2006-11-11T03:05:01", [2]bool{true, true}},
	}
	for _, tt := range tests {
		f := clean.MustParseFilter(tt.expr)
		f.Bind(tr)
		for i := range tr.Jobs {
			if got := f.Match(&tr.Jobs[i]); got != tt.want[i] {
				t.Errorf("%q on job %d = %v, want %v", tt.expr, i+1, got, tt.want[i])
			}
		}
	}
}
