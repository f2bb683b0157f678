package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
)

func TestInfoOddLogs(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		out    []string // substrings of stdout
		errOut []string // substrings of stderr
		notOut []string
	}{
		{"strict rejects status -4", []string{"info", testdata.Odd("status.swf")}, 1, nil,
			[]string{"line 11: field 11 (Status)", "--lenient"}, nil},
		{"lenient reads it", []string{"info", "--lenient", testdata.Odd("status.swf")}, 0,
			[]string{"unknown 2; other codes 7: 1", "read as unknown  4 value(s)", "Status 2"},
			[]string{"warning:", "Run Time 1, Status 2, User ID 1"}, nil},
		{"header period much longer than the jobs", []string{"info", testdata.Odd("gap.swf")}, 0,
			[]string{"load period   first to last submit (181.5 days)", "offered load  1.4%", "starts 400.0 days before the first job"},
			[]string{"warning:", "loads use the first to last submit"}, nil},
		{"no waits: utilization unknown", []string{"info", testdata.Odd("nowait.swf")}, 0,
			[]string{"utilization   n/a"}, nil, nil},
		{"requested times at the limit", []string{"info", testdata.Odd("reqtime.swf")}, 0,
			[]string{"requested time (s)  5  2400 "}, []string{"3 requested time(s) at an integer limit"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errOut)
			}
			for _, w := range tc.out {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.notOut {
				if strings.Contains(out, w) {
					t.Errorf("stdout holds %q:\n%s", w, out)
				}
			}
			for _, w := range tc.errOut {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
		})
	}
}

func TestInfoJSONReadAsUnknown(t *testing.T) {
	code, out, errOut := runCLI(t, "info", "--json", "--lenient", testdata.Odd("status.swf"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s struct {
		Status        map[string]int `json:"status"`
		ReadAsUnknown struct {
			OutOfRange map[string]int `json:"out_of_range"`
		} `json:"read_as_unknown"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if s.Status["code_7"] != 1 || s.Status["unknown"] != 2 || s.ReadAsUnknown.OutOfRange["Status"] != 2 {
		t.Errorf("status %v, read as unknown %v", s.Status, s.ReadAsUnknown.OutOfRange)
	}
}

func TestFitOddLogs(t *testing.T) {
	tests := []struct {
		name string
		args []string
		out  []string
	}{
		{"constant variables", []string{"fit", testdata.Odd("serial.swf")},
			[]string{"degenerate: constant sample: every value is 60"}},
		{"constant variables as JSON", []string{"fit", "--json", testdata.Odd("serial.swf")},
			[]string{`"degenerate": "constant sample: every value is 1"`}},
		{"runaway daily cycle", []string{"fit", "lublin", testdata.Odd("daily.swf")},
			[]string{"daily cycle a implausible", "warning   implausible a_num"}},
		{"runaway daily cycle as JSON", []string{"fit", "lublin", "--json", testdata.Odd("daily.swf")},
			[]string{`"a_num": "daily-cycle Gamma shape`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range tc.out {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestEvaluateUnknownWaits(t *testing.T) {
	code, out, errOut := runCLI(t, "evaluate", testdata.Odd("nowait.swf"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, row := range []string{"jobs run", "makespan (days)", "wait mean (days)", "utilization", "throughput (jobs/week)"} {
		i := strings.Index(out, row)
		if i < 0 {
			t.Fatalf("no row %q:\n%s", row, out)
		}
		fields := strings.Fields(strings.SplitN(out[i+len(row):], "\n", 2)[0])
		if len(fields) != 3 || fields[0] != "n/a" || fields[1] == "n/a" {
			t.Errorf("row %q = %v, want n/a in the recorded column only", row, fields)
		}
	}
	code, out, errOut = runCLI(t, "evaluate", "--json", testdata.Odd("nowait.swf"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Recorded struct {
			Metrics *struct{} `json:"metrics"`
			LeftOut int       `json:"left_out"`
		} `json:"recorded"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Recorded.Metrics != nil || rep.Recorded.LeftOut != 8 {
		t.Errorf("recorded metrics %v, left out %d; want null and 8", rep.Recorded.Metrics, rep.Recorded.LeftOut)
	}
}

// TestDroppedJobsCounted checks the one rule for records without runtime or
// processors (README, "Jobs left out"): every command that reads
// dropped.swf (6 such records of 30) says how many it left out or kept.
func TestDroppedJobsCounted(t *testing.T) {
	log := testdata.Odd("dropped.swf")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"info", log}, "unrunnable 6 jobs without runtime or processors"},
		{[]string{"sessions", log}, "unrunnable 6 jobs without runtime or processors, kept"},
		{[]string{"compare", log, log}, "without runtime or processors 6 6"},
		{[]string{"replicate", "--variants", "2", log}, "left out: 6 jobs of the log from the variants"},
		{[]string{"resample", "-o", "-", "--json", log}, `"filtered_jobs": 6`},
		{[]string{"simulate", log}, "dropped 6 without runtime or size"},
		{[]string{"evaluate", log}, "jobs rejected: no runtime or size 6 6 6"},
	}
	for _, tc := range tests {
		t.Run(tc.args[0], func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			// Compare with runs of spaces (table padding) made single.
			if !strings.Contains(strings.Join(strings.Fields(out+errOut), " "), tc.want) {
				t.Errorf("output lacks %q:\n%s\n%s", tc.want, out, errOut)
			}
		})
	}
}

func TestConvertBatsimWarns(t *testing.T) {
	out := t.TempDir() + "/w.json"
	tests := []struct {
		log  string
		warn string
	}{
		{"batsim.swf", `2 job(s) with "res": 0 (processor count 0 or unknown) and 1 job(s) with "subtime": -1`},
		{"nowait.swf", ""},
	}
	for _, tc := range tests {
		code, _, errOut := runCLI(t, "convert", testdata.Odd(tc.log), "-o", out)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.log, code, errOut)
		}
		if tc.warn == "" && strings.Contains(errOut, "warning") || !strings.Contains(errOut, tc.warn) {
			t.Errorf("%s: stderr %q, want %q", tc.log, errOut, tc.warn)
		}
	}
}

// TestCompareJSONShortLog: the Hurst estimates of a log too short for them
// are NaN, which JSON cannot hold; they print as null.
func TestCompareJSONShortLog(t *testing.T) {
	log := testdata.Odd("serial.swf")
	code, out, errOut := runCLI(t, "compare", "--json", log, log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"h": null`) {
		t.Errorf("Hurst H of a 40-job log not null:\n%s", out)
	}
}
