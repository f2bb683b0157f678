package main

import (
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
	figures := []string{"runtime", "size", "interarrival", "wait", "daily", "weekly", "utilization", "queue"}
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
		for _, want := range []string{"Characterization", "28476", "Talby variables", "Simulated schedule",
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
// draw eight figures, write the page).
// Run: go test -run - -bench ReportBlue -benchtime 3x ./cmd/hpcwl/
func BenchmarkReportBlue(b *testing.B) {
	path := testdata.Path(b, "SDSC-BLUE-2000-4.2-cln.swf.gz")
	out := filepath.Join(b.TempDir(), "r.html")
	b.ReportAllocs()
	for b.Loop() {
		if code := run([]string{"report", path, "-o", out}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
