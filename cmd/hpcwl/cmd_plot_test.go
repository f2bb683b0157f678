package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// svgTexts parses an SVG file as XML and returns the texts it draws and
// its <desc>.
func svgTexts(t *testing.T, data []byte) (texts []string, desc string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var in string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return texts, desc
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			in = tok.Name.Local
		case xml.EndElement:
			in = ""
		case xml.CharData:
			switch in {
			case "text":
				texts = append(texts, strings.TrimSpace(string(tok)))
			case "desc":
				desc += string(tok)
			}
		}
	}
}

// TestPlotKinds draws every kind of figure of the built-in log through the
// command line and checks the SVG: XML, axis labels, one legend entry per
// series, provenance, and the same bytes when run again.
func TestPlotKinds(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args  []string
		texts []string // texts drawn exactly once
	}{
		{[]string{"runtime"}, []string{"runtime (s), log scale", "fraction of jobs", "builtin:KTH-SP2"}},
		{[]string{"size"}, []string{"processors, log scale"}},
		{[]string{"interarrival"}, []string{"inter-arrival time (s), log scale"}},
		{[]string{"wait"}, []string{"wait (s), log scale"}},
		{[]string{"daily"}, []string{"hour of the day (local time)", "fraction of jobs submitted"}},
		{[]string{"weekly"}, []string{"hour of the week from Monday 00:00 (local time)", "Mon"}},
		{[]string{"utilization", "--scheduler", "fcfs,easy", "--step", "1w"}, []string{"utilization per week", "fcfs", "easy"}},
		{[]string{"queue"}, []string{"jobs waiting", "easy"}},
		{[]string{"gantt", "--start", "30d", "--window", "12h"}, []string{"processor", "simulated time (days)"}},
		{[]string{"curves"}, []string{"submitted, rigid (recorded)", "submitted, feedback", "ended, rigid", "ended, feedback"}},
		{[]string{"replications", "--variants", "4", "--metric", "utilization"}, []string{"utilization across 4 variants"}},
		{[]string{"pox"}, []string{"pox plot of arrivals, H = 0.700", "block size n (hours), log scale", "least squares, slope H = 0.700"}},
	}
	for _, tt := range tests {
		t.Run(tt.args[0], func(t *testing.T) {
			out := filepath.Join(dir, tt.args[0]+".svg")
			args := append([]string{"plot", tt.args[0], "builtin:KTH-SP2", "-o", out}, tt.args[1:]...)
			if code, _, errOut := runCLI(t, args...); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			texts, desc := svgTexts(t, data)
			for _, want := range tt.texts {
				n := 0
				for _, s := range texts {
					if s == want {
						n++
					}
				}
				if n != 1 {
					t.Errorf("%q drawn %d times, want once", want, n)
				}
			}
			for _, want := range []string{"hpcwl version: ", "command: hpcwl plot " + tt.args[0], "input: builtin:KTH-SP2 sha256 3e152f20"} {
				if !strings.Contains(desc, want) {
					t.Errorf("<desc> lacks %q: %q", want, desc)
				}
			}
			if code, again, errOut := runCLI(t, append(args[:4:4], append([]string{"-"}, tt.args[1:]...)...)...); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			} else if strings.Replace(again, " -o -", " -o "+out, 1) != string(data) {
				t.Error("the same command wrote different bytes")
			}
		})
	}
}

// TestPlotTwoLogs draws one line per log.
func TestPlotTwoLogs(t *testing.T) {
	code, out, errOut := runCLI(t, "plot", "runtime", "builtin:KTH-SP2", "builtin:KTH-SP2", "-o", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	texts, _ := svgTexts(t, []byte(out))
	n := 0
	for _, s := range texts {
		if s == "builtin:KTH-SP2" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d legend entries for two logs, want 2", n)
	}
}

// TestPlotErrors checks the usage and data errors: exit status, message,
// and no file left behind.
func TestPlotErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "f.svg")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"plot", "pie", "builtin:KTH-SP2", "-o", out}, 2, "valid: runtime, size, interarrival, wait, daily, weekly, utilization, queue, gantt, curves, replications, pox"},
		{[]string{"plot", "pox", "builtin:KTH-SP2", "--unit", "0", "-o", out}, 2, "--unit"},
		{[]string{"plot", "pox", "builtin:KTH-SP2", "--hurst-blocks", "some", "-o", out}, 2, "valid: even, all"},
		{[]string{"plot", "runtime"}, 2, "kinds: runtime, size"},
		{[]string{"plot", "runtime", "builtin:KTH-SP2"}, 2, "needs -o FILE"},
		{[]string{"plot", "runtime", "builtin:KTH-SP2", "-o", filepath.Join(dir, "f.jpg")}, 2, "use .svg, .png or .pdf"},
		{[]string{"plot", "gantt", "builtin:KTH-SP2", "builtin:KTH-SP2", "-o", out}, 2, "takes one TRACE"},
		{[]string{"plot", "gantt", "builtin:KTH-SP2", "--start", "5000d", "-o", out}, 1, "no job runs"},
		{[]string{"plot", "gantt", "builtin:KTH-SP2", "--window", "0", "-o", out}, 2, "--window"},
		{[]string{"plot", "utilization", "builtin:KTH-SP2", "--scheduler", "nosuch", "-o", out}, 2, "nosuch"},
		{[]string{"plot", "replications", "builtin:KTH-SP2", "--metric", "speed", "-o", out}, 2, "valid: throughput"},
		{[]string{"plot", "runtime", "nosuch.swf", "-o", out}, 1, "nosuch.swf"},
		{[]string{"plot", "runtime", "builtin:KTH-SP2", "-o", filepath.Join(dir, "no", "f.svg")}, 1, "cannot write"},
	}
	for _, tt := range tests {
		code, _, errOut := runCLI(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, code, errOut, tt.code, tt.want)
		}
		if tt.code == 2 && !strings.Contains(errOut, "Run 'hpcwl plot --help' for usage.") {
			t.Errorf("%v: a usage error without the usage hint: %q", tt.args, errOut)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%v: left %v behind", tt.args, entries[0].Name())
		}
	}
}

// TestPlotFormats writes PNG and PDF by the extension.
func TestPlotFormats(t *testing.T) {
	dir := t.TempDir()
	for name, magic := range map[string]string{"f.png": "\x89PNG", "f.PDF": "%PDF-"} {
		out := filepath.Join(dir, name)
		if code, _, errOut := runCLI(t, "plot", "weekly", "builtin:KTH-SP2", "-o", out); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		data, err := os.ReadFile(out)
		if err != nil || !bytes.HasPrefix(data, []byte(magic)) {
			t.Errorf("%s: %v, starts with %q", name, err, data[:min(8, len(data))])
		}
	}
}
