package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
)

// TestReport writes the report of the built-in log as HTML and Markdown and
// checks that every figure is there, with the characterization and the
// provenance, and that the same command writes the same bytes.
func TestReport(t *testing.T) {
	dir := t.TempDir()
	figures := []string{"runtime", "size", "interarrival", "wait", "daily", "weekly", "pox", "utilization", "queue"}
	for _, ext := range []string{".html", ".md"} {
		out := filepath.Join(dir, "r"+ext)
		if code, _, errOut := runCLI(t, "report", "builtin:KTH-SP2", "-o", out); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		page := string(data)
		for _, want := range []string{"Characterization", "28476", "Talby variables", "Simulated schedule", "Self-similarity", "H = 0.700",
			"command: hpcwl report builtin:KTH-SP2 -o " + out, "sha256 3e152f20"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %q", ext, want)
			}
		}
		if ext == ".html" {
			for _, id := range figures {
				if !strings.Contains(page, `<figure id="fig-`+id+`">`+"\n<svg ") {
					t.Errorf("the page lacks figure %s", id)
				}
			}
		} else if n := strings.Count(page, "](data:image/svg+xml;base64,"); n != len(figures) {
			t.Errorf("the Markdown holds %d figures, want %d", n, len(figures))
		}
		code, again, errOut := runCLI(t, "report", "builtin:KTH-SP2", "-o", out)
		if data2, _ := os.ReadFile(out); code != 0 || string(data2) != page || again != "" {
			t.Errorf("%s: running the same command again: exit %d (%s), same bytes %v", ext, code, errOut, string(data2) == page)
		}
	}
	code, _, errOut := runCLI(t, "report", "builtin:KTH-SP2", "--scheduler", "none", "-o", filepath.Join(dir, "n.html"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "n.html")); strings.Contains(string(data), "Simulated schedule") {
		t.Error("--scheduler none still simulated")
	}
}

// TestReportCompared writes the report with a second workload and with
// three schedulers: the scorecard and the overlaid figures, the schedulers'
// table with its intervals and their figures, in HTML and Markdown alike.
func TestReportCompared(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "r.swf")
	if code, _, errOut := runCLI(t, "resample", "builtin:KTH-SP2", "--seed", "3", "-o", other); code != 0 {
		t.Fatalf("resample: exit %d: %s", code, errOut)
	}
	figures := []string{"runtime", "size", "interarrival", "wait", "daily", "weekly", "pox",
		"compare-runtime", "compare-size", "compare-interarrival", "compare-daily", "compare-weekly",
		"wait-schedulers", "utilization", "queue"}
	pages := map[string]string{}
	for _, ext := range []string{".html", ".md"} {
		out := filepath.Join(dir, "c"+ext)
		if code, _, errOut := runCLI(t, "report", "builtin:KTH-SP2", other, "--vs", "fcfs,easy,conservative", "-o", out); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		page := string(data)
		pages[ext] = page
		for _, want := range []string{"Comparison with " + other, "Hurst parameter", "jobs per user", "weekly cycle",
			"Schedulers compared", "mean bounded slowdown (10 s)", "conservative", "mean under fcfs", "paired jobs", "input: " + other + " sha256 "} {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %q", ext, want)
			}
		}
		if strings.Contains(page, "Simulated schedule") {
			t.Errorf("%s: --vs still has the single schedule's section", ext)
		}
		if ext == ".html" {
			for _, id := range figures {
				if strings.Count(page, `<figure id="fig-`+id+`">`+"\n<svg ") != 1 {
					t.Errorf("the page lacks figure %s, or has it twice", id)
				}
			}
		} else if n := strings.Count(page, "](data:image/svg+xml;base64,"); n != len(figures) {
			t.Errorf("the Markdown holds %d figures, want %d", n, len(figures))
		}
	}
	// The same table rows in both formats: every verdict of the HTML
	// table is in the Markdown's.
	for _, v := range []string{"<td>close</td>", "<td>differs</td>", "<td>far</td>"} {
		if n, m := strings.Count(pages[".html"], v), strings.Count(pages[".md"], "| "+v[4:len(v)-5]+" |"); n != m {
			t.Errorf("%s: %d in HTML, %d in Markdown", v, n, m)
		}
	}
	// A workload without runtimes: its runtime is n/a, its runtime CDF
	// left out, the other figures drawn.
	data, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 18 && !strings.HasPrefix(line, ";") {
			f[3] = "-1"
			line = strings.Join(f, " ") + "\n"
		}
		b.WriteString(line)
	}
	noRun := filepath.Join(dir, "noruntime.swf")
	if err := os.WriteFile(noRun, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	noRunOut := filepath.Join(dir, "noruntime.html")
	if code, _, errOut := runCLI(t, "report", "builtin:KTH-SP2", noRun, "--scheduler", "none", "-o", noRunOut); code != 0 {
		t.Fatalf("without runtimes: exit %d: %s", code, errOut)
	}
	if data, _ := os.ReadFile(noRunOut); strings.Contains(string(data), `id="fig-compare-runtime"`) ||
		!strings.Contains(string(data), `id="fig-compare-size"`) || !strings.Contains(string(data), "unknown in the candidate") {
		t.Error("a candidate without runtimes: want the runtime CDF left out, the size CDF drawn and the runtime n/a")
	}
	// The log against itself: every feature close.
	self := filepath.Join(dir, "self.md")
	if code, _, errOut := runCLI(t, "report", "builtin:KTH-SP2", "builtin:KTH-SP2", "--scheduler", "none", "-o", self); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if data, _ := os.ReadFile(self); !strings.Contains(string(data), "11 close, 0 differ, 0 far, 0 not measured") {
		t.Error("the log against itself is not close in every feature")
	}
}

func TestReportErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"report", "builtin:KTH-SP2"}, 2, "needs -o FILE"},
		{[]string{"report", "builtin:KTH-SP2", "-o", filepath.Join(dir, "r.pdf")}, 2, "use .html or .md"},
		{[]string{"report", "builtin:KTH-SP2", "--scheduler", "nosuch", "-o", filepath.Join(dir, "r.html")}, 2, "nosuch"},
		{[]string{"report", "nosuch.swf", "-o", filepath.Join(dir, "r.html")}, 1, "nosuch.swf"},
		{[]string{"report", "builtin:KTH-SP2", "nosuch.swf", "-o", filepath.Join(dir, "r.html")}, 1, "nosuch.swf"},
		{[]string{"report", "builtin:KTH-SP2", "builtin:KTH-SP2", "builtin:KTH-SP2", "-o", filepath.Join(dir, "r.html")}, 2, "at most one OTHER"},
		{[]string{"report", "builtin:KTH-SP2", "--vs", "fcfs,nosuch", "-o", filepath.Join(dir, "r.html")}, 2, "nosuch"},
		{[]string{"report", "builtin:KTH-SP2", "--vs", "fcfs,,easy", "-o", filepath.Join(dir, "r.html")}, 2, "--vs"},
		{[]string{"report", "builtin:KTH-SP2", "--vs", "fcfs", "--scheduler", "easy", "-o", filepath.Join(dir, "r.html")}, 2, "not both"},
	} {
		code, _, errOut := runCLI(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tt.args, code, errOut, tt.code, tt.want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%v: left %s behind", tt.args, entries[0].Name())
		}
	}
}

// BenchmarkReportBlue is the report of docs/performance.md: `hpcwl report
// SDSC-BLUE -o x.html` in-process (read, characterize, simulate under EASY,
// draw nine figures with the pox plot, write the page).
// Run: go test -run - -bench ReportBlue -benchtime 3x ./cmd/hpcwl/
func BenchmarkReportBlue(b *testing.B) {
	path := testdata.Path(b, "SDSC-BLUE-2000-4.2-cln.swf.gz")
	out := filepath.Join(b.TempDir(), "r.html")
	b.ReportAllocs()
	before, ok := cpuTime()
	for b.Loop() {
		if code := run([]string{"report", path, "-o", out}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	if after, ok2 := cpuTime(); ok && ok2 {
		b.ReportMetric(float64(after-before)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkReportBlueCompared is the report of SDSC-BLUE with every
// section: compared with a resampled variant of it (made once, outside the
// timing) and replayed under FCFS, EASY and conservative backfilling.
// Run: go test -run - -bench ReportBlueCompared -benchtime 3x ./cmd/hpcwl/
func BenchmarkReportBlueCompared(b *testing.B) {
	path := testdata.Path(b, "SDSC-BLUE-2000-4.2-cln.swf.gz")
	dir := b.TempDir()
	other, out := filepath.Join(dir, "r.swf"), filepath.Join(dir, "r.html")
	if code := run([]string{"resample", path, "--seed", "3", "-o", other}, io.Discard, io.Discard); code != 0 {
		b.Fatalf("resample: exit %d", code)
	}
	for _, bb := range []struct {
		name string
		args []string
	}{
		{"other", []string{other}},
		{"vs", []string{"--vs", "fcfs,easy,conservative"}},
		{"both", []string{other, "--vs", "fcfs,easy,conservative"}},
	} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			before, ok := cpuTime()
			for b.Loop() {
				if code := run(append([]string{"report", path, "-o", out}, bb.args...), io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
			if after, ok2 := cpuTime(); ok && ok2 {
				// The process's CPU time per report: on a shared machine
				// the steadier figure.
				b.ReportMetric(float64(after-before)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// TestReportWithoutWaits writes the report of a log that records no waits
// (as generated logs and some archive logs do): the wait CDF is left out
// and the section says so; the other figures and the simulation are there.
func TestReportWithoutWaits(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 16\n")
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "%d %d -1 %d 4 -1 -1 4 600 -1 1 %d -1 -1 -1 -1 -1 -1\n", i, i*700, 100+i*13, 1+i%3)
	}
	in := filepath.Join(dir, "nowait.swf")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.md")
	if code, _, errOut := runCLI(t, "report", in, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	if !strings.Contains(page, "Not drawn, unknown for every job of the log: wait.") || !strings.Contains(page, "Simulated schedule") {
		t.Errorf("the report does not say the wait is unknown, or lacks the simulation:\n%s", page)
	}
	// runtime, size, interarrival, daily, weekly, utilization, queue (the
	// log is too short for the pox plot).
	if n := strings.Count(page, "](data:image/svg+xml;base64,"); n != 7 {
		t.Errorf("%d figures, want 7", n)
	}
}
