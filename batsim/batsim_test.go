package batsim_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/batsim"
	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func sameTrace(t *testing.T, got, want *trace.Trace) {
	t.Helper()
	if len(got.Jobs) != len(want.Jobs) {
		t.Fatalf("%d jobs, want %d", len(got.Jobs), len(want.Jobs))
	}
	for i := range want.Jobs {
		if got.Jobs[i] != want.Jobs[i] {
			t.Fatalf("job %d = %+v, want %+v", i, got.Jobs[i], want.Jobs[i])
		}
	}
	if len(got.Header.Lines) != len(want.Header.Lines) {
		t.Fatalf("%d header lines, want %d", len(got.Header.Lines), len(want.Header.Lines))
	}
	for i, l := range want.Header.Lines {
		g := got.Header.Lines[i]
		if g.String() != l.String() || l.Raw != "" && (g.Key != l.Key || g.Value != l.Value) {
			t.Fatalf("header line %d = %q, want %q", i, g.String(), l.String())
		}
	}
	if got.Procs != want.Procs {
		t.Errorf("procs = %d, want %d", got.Procs, want.Procs)
	}
}

func TestRoundTripRealLogs(t *testing.T) {
	for _, lg := range testdata.Logs {
		t.Run(lg.File, func(t *testing.T) {
			tr, err := trace.Load(testdata.Path(t, lg.File), trace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := batsim.Write(&buf, tr); err != nil {
				t.Fatal(err)
			}
			back, err := batsim.Read(&buf, lg.File+".json", trace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			sameTrace(t, back, tr)
		})
	}
}

func smallTrace() *trace.Trace {
	var h swf.Header
	h.Add("Version", "2.2")
	h.Add("MaxProcs", "8")
	h.AddNote("jobs <= 2 & \"quoted\"")
	jobs := []trace.Job{
		{ID: 1, Submit: 0, Wait: 5, Runtime: 100, ReqTime: 200, ThinkTime: -3, AvgCPU: 12.625, UsedMem: 1e-7,
			ReqMem: 1.5e20, Procs: 4, ReqProcs: 4, User: 1, Group: 2, App: 3, Queue: 4, Partition: 5, Preceding: -1, Status: 1},
		{ID: 2, Submit: 7, Wait: -1, Runtime: -1, ReqTime: -1, ThinkTime: -1, AvgCPU: -1, UsedMem: -1,
			ReqMem: -1, Procs: -1, ReqProcs: -1, User: -1, Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: 1, Status: 5},
		{ID: 4, Submit: -1, Wait: -1, Runtime: 5, ReqTime: -1, ThinkTime: -1, AvgCPU: -1, UsedMem: -1,
			ReqMem: -1, Procs: 1, ReqProcs: 1, User: 2, Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, Status: 1},
		{ID: 3, Submit: 7, Wait: 0, Runtime: 100, ReqTime: 100, ThinkTime: -1, AvgCPU: -1, UsedMem: -1,
			ReqMem: -1, Procs: 8, ReqProcs: 2, User: 3, Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, Status: 0},
	}
	return trace.New(h, jobs, trace.Options{})
}

func TestRoundTripSmall(t *testing.T) {
	tr := smallTrace()
	var buf bytes.Buffer
	if err := batsim.Write(&buf, tr); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{`"delay_100": {"type": "delay", "delay": 100}`, `"delay_0"`, `"swf_run_time": -1`,
		`jobs <= 2 & \"quoted\"`, `"nb_res": 8`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if strings.Count(out, `"type": "delay"`) != 3 {
		t.Errorf("want one profile per distinct run time:\n%s", out)
	}
	back, err := batsim.Read(&buf, "small.json", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sameTrace(t, back, tr)
}

func TestWriteNeedsMachineSize(t *testing.T) {
	tr := smallTrace()
	tr.Header = swf.Header{}
	tr.Procs = 0
	err := batsim.Write(&bytes.Buffer{}, tr)
	if err == nil || !errors.Is(err, trace.ErrNoMachineSize) || !strings.Contains(err.Error(), "--procs") {
		t.Fatalf("error = %v, want one saying to pass --procs", err)
	}
}

func TestReadForeignWorkload(t *testing.T) {
	f, err := os.Open("testdata/foreign.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := batsim.Read(f, "foreign.json", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Procs != 32 || tr.Len() != 3 {
		t.Fatalf("procs %d, jobs %d", tr.Procs, tr.Len())
	}
	// Sorted by submit time; string ids "w0!7" read as 7.
	want := []struct {
		id, submit, runtime, reqTime int64
		procs                        int32
	}{{7, 0, 20, 100, 4}, {3, 11, -1, -1, 1}, {1, 20, 1, 60, 32}}
	for i, w := range want {
		j := tr.Jobs[i]
		if j.ID != w.id || j.Submit != w.submit || j.Runtime != w.runtime || j.ReqTime != w.reqTime ||
			j.Procs != w.procs || j.ReqProcs != w.procs || j.User != -1 || j.Wait != -1 {
			t.Errorf("job %d = %+v, want %+v", i, j, w)
		}
	}
	if v, _ := tr.Header.MaxProcs(); v != 32 {
		t.Errorf("header MaxProcs = %d, want 32", v)
	}
	tr2, err := batsim.Read(strings.NewReader(`{"nb_res": 32, "jobs": [], "profiles": {}}`), "x", trace.Options{Procs: 16})
	if err != nil || tr2.Procs != 16 {
		t.Errorf("--procs override: procs %v, err %v", tr2.Procs, err)
	}
}

func TestReadErrors(t *testing.T) {
	const prof = `"profiles": {"p": {"type": "delay", "delay": 10}}`
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", []string{"bad.json: ", "empty input"}},
		{"not an object", "[1, 2]", []string{"line 1", "expected an object, found a JSON array"}},
		{"syntax", "{\n\"nb_res\": 4,\n\"jobs\": [}\n", []string{"line 3", "malformed JSON"}},
		{"truncated", "{\"nb_res\": 4, \"jobs\": [\n{\"id\": 1, \"subtime\": 0, \"res\": 1, \"profile\": \"p\"},\n{\"id\": 2", []string{"truncated"}},
		{"no nb_res", `{"jobs": [], ` + prof + `}`, []string{`missing top-level key "nb_res"`}},
		{"no jobs", `{"nb_res": 4, ` + prof + `}`, []string{`missing top-level key "jobs"`}},
		{"nb_res string", `{"nb_res": "4"}`, []string{"nb_res", "expected an integer, found a JSON string"}},
		{"nb_res zero", `{"nb_res": 0}`, []string{"nb_res", "positive"}},
		{"jobs not array", `{"nb_res": 4, "jobs": {}}`, []string{"jobs", "expected an array"}},
		{"res string", "{\"nb_res\": 4, \"jobs\": [\n{\"id\": 1, \"subtime\": 0, \"res\": 1, \"profile\": \"p\"},\n{\"id\": 2, \"subtime\": 0, \"res\": \"two\", \"profile\": \"p\"}\n], " + prof + "}",
			[]string{"line 3", "jobs[1].res", "expected an integer, found a JSON string"}},
		{"missing res", "{\"nb_res\": 4, \"jobs\": [\n{\"id\": 1, \"subtime\": 0, \"profile\": \"p\"}\n], " + prof + "}",
			[]string{"line 2", "jobs[0]", `missing key "res"`}},
		{"missing id", `{"nb_res": 4, "jobs": [{"subtime": 0, "res": 1, "profile": "p"}], ` + prof + `}`, []string{"jobs[0]", `missing key "id"`}},
		{"bad id", `{"nb_res": 4, "jobs": [{"id": 1.5, "subtime": 0, "res": 1, "profile": "p"}], ` + prof + `}`, []string{"jobs[0].id", "expected an integer"}},
		{"missing subtime", `{"nb_res": 4, "jobs": [{"id": 1, "res": 1, "profile": "p"}], ` + prof + `}`, []string{"jobs[0]", `missing key "subtime"`}},
		{"negative subtime", `{"nb_res": 4, "jobs": [{"id": 1, "subtime": -5, "res": 1, "profile": "p"}], ` + prof + `}`, []string{"jobs[0].subtime", ">= 0"}},
		{"missing profile", `{"nb_res": 4, "jobs": [{"id": 1, "subtime": 0, "res": 1}], ` + prof + `}`, []string{"jobs[0]", `missing key "profile"`}},
		{"undefined profile", `{"nb_res": 4, "jobs": [{"id": 1, "subtime": 0, "res": 1, "profile": "q"}], ` + prof + `}`,
			[]string{"jobs[0].profile", `profile "q" is not defined`}},
		{"bad delay", `{"nb_res": 4, "jobs": [{"id": 1, "subtime": 0, "res": 1, "profile": "p"}], "profiles": {"p": {"type": "delay"}}}`,
			[]string{"profiles.p.delay", "delay"}},
		{"bad header", `{"nb_res": 4, "swf_header": ["Version: 2"], "jobs": [], "profiles": {}}`,
			[]string{"swf_header[0]", "starting with ';'"}},
		{"swf field out of range", `{"nb_res": 4, "jobs": [{"id": 1, "subtime": 0, "res": 1, "profile": "p", "swf_user_id": 99999999999}], ` + prof + `}`,
			[]string{"jobs[0]", "out of range"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := batsim.Read(strings.NewReader(tt.in), "bad.json", trace.Options{})
			if err == nil {
				t.Fatal("no error")
			}
			var be *batsim.Error
			if !errors.As(err, &be) {
				t.Errorf("error %q is not a *batsim.Error", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func ExampleWrite() {
	var h swf.Header
	h.Add("MaxProcs", "64")
	tr := trace.New(h, []trace.Job{{ID: 1, Submit: 0, Wait: 10, Runtime: 300, Procs: 8, ReqProcs: 8,
		ReqTime: 600, AvgCPU: -1, UsedMem: -1, ReqMem: -1, Status: 1, User: 3, Group: 1, App: -1,
		Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1}}, trace.Options{})
	tr.Name = "example.swf"
	var buf bytes.Buffer
	batsim.Write(&buf, tr)
	back, _ := batsim.Read(&buf, "example.json", trace.Options{})
	j := back.Jobs[0]
	fmt.Println(back.Procs, j.ID, j.Runtime, j.Procs, j.User)
	// Output: 64 1 300 8 3
}
