package figure_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/hpcwl/hpcwl/feedback"
	"github.com/hpcwl/hpcwl/figure"
	"github.com/hpcwl/hpcwl/locality"
	"github.com/hpcwl/hpcwl/replicate"
	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

var kth = sync.OnceValues(func() (*trace.Trace, error) {
	return trace.Load("builtin:KTH-SP2", trace.Options{})
})

func loadKTH(t testing.TB) *trace.Trace {
	t.Helper()
	tr, err := kth()
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

var kthEASY = sync.OnceValues(func() (*sim.Result, error) {
	tr, err := kth()
	if err != nil {
		return nil, err
	}
	r, _, err := sim.Simulate(context.Background(), tr, sched.NewEASY(0), sim.Options{})
	return r, err
})

func easyKTH(t testing.TB) figure.Schedule {
	t.Helper()
	r, err := kthEASY()
	if err != nil {
		t.Fatal(err)
	}
	return figure.Schedule{Name: "easy", Result: r}
}

// svgSummary parses an SVG figure as XML and returns the texts it draws
// and its <desc>.
func svgSummary(t *testing.T, svg []byte) (texts []string, desc string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var stack []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG does not parse as XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			stack = append(stack, tok.Name.Local)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			s := strings.TrimSpace(string(tok))
			switch stack[len(stack)-1] {
			case "text":
				if s != "" {
					texts = append(texts, s)
				}
			case "desc":
				desc += string(tok)
			}
		}
	}
	return texts, desc
}

func render(t *testing.T, f *figure.Figure, format figure.Format) []byte {
	t.Helper()
	var b bytes.Buffer
	p := figure.Provenance{Version: "test", Command: "hpcwl plot x <in> & y",
		Inputs: []figure.Input{{Name: "builtin:KTH-SP2", SHA256: "abc"}}}
	if err := f.Write(&b, format, p); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func count(texts []string, s string) int {
	n := 0
	for _, x := range texts {
		if x == s {
			n++
		}
	}
	return n
}

// TestKinds draws every figure of the built-in log and checks each SVG:
// it parses as XML, carries the axis labels and one legend entry per
// series, records its provenance, and is byte-identical when drawn again.
func TestKinds(t *testing.T) {
	tr := loadKTH(t)
	other := tr.Clone()
	other.Name = "second"
	tests := []struct {
		name   string
		draw   func() (*figure.Figure, error)
		labels []string // axis labels
		legend []string // legend entries
	}{
		{"runtime", func() (*figure.Figure, error) { return figure.CDF(figure.Runtime, tr) },
			[]string{"runtime (s), log scale", "fraction of jobs"}, []string{"builtin:KTH-SP2"}},
		{"size two logs", func() (*figure.Figure, error) { return figure.CDF(figure.Size, tr, other) },
			[]string{"processors, log scale", "fraction of jobs"}, []string{"builtin:KTH-SP2", "second"}},
		{"interarrival", func() (*figure.Figure, error) { return figure.CDF(figure.InterArrival, tr) },
			[]string{"inter-arrival time (s), log scale"}, []string{"builtin:KTH-SP2"}},
		{"wait", func() (*figure.Figure, error) { return figure.CDF(figure.Wait, tr) },
			[]string{"wait (s), log scale"}, []string{"builtin:KTH-SP2"}},
		{"daily", func() (*figure.Figure, error) { return figure.Arrivals(figure.Daily, tr) },
			[]string{"hour of the day (local time)", "fraction of jobs submitted"}, []string{"builtin:KTH-SP2"}},
		{"weekly", func() (*figure.Figure, error) { return figure.Arrivals(figure.Weekly, tr) },
			[]string{"hour of the week from Monday 00:00 (local time)", "Mon", "Sun"}, []string{"builtin:KTH-SP2"}},
		{"utilization", func() (*figure.Figure, error) { return figure.Over(figure.Utilization, 0, easyKTH(t)) },
			[]string{"simulated time (days)", "utilization"}, []string{"easy"}},
		{"queue", func() (*figure.Figure, error) {
			fcfs, _, err := sim.Simulate(context.Background(), tr, sched.NewFCFS(), sim.Options{})
			if err != nil {
				return nil, err
			}
			return figure.Over(figure.QueueLength, 86400, easyKTH(t), figure.Schedule{Name: "fcfs", Result: fcfs})
		}, []string{"simulated time (days)", "jobs waiting"}, []string{"easy", "fcfs"}},
		{"gantt", func() (*figure.Figure, error) { return figure.Gantt(easyKTH(t), 30*86400, 86400) },
			[]string{"simulated time (days)", "processor"}, nil},
		{"waits", func() (*figure.Figure, error) {
			fcfs, _, err := sim.Simulate(context.Background(), tr, sched.NewFCFS(), sim.Options{})
			if err != nil {
				return nil, err
			}
			return figure.Waits(easyKTH(t), figure.Schedule{Name: "fcfs", Result: fcfs})
		}, []string{"wait (s), log scale", "fraction of jobs", "CDF of simulated wait (s)"}, []string{"easy", "fcfs"}},
		{"pox", func() (*figure.Figure, error) {
			return figure.Pox(tr.Name, "hours", locality.Hurst(tr, locality.HurstOptions{}))
		}, []string{"block size n (hours), log scale", "R/S, log scale", "pox plot of arrivals, H = 0.700"},
			[]string{"builtin:KTH-SP2 (one point per block)", "least squares, slope H = 0.700", "slope 1/2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := tt.draw()
			if err != nil {
				t.Fatal(err)
			}
			svg := render(t, f, figure.SVG)
			texts, desc := svgSummary(t, svg)
			for _, l := range tt.labels {
				if count(texts, l) != 1 {
					t.Errorf("label %q drawn %d times, want once", l, count(texts, l))
				}
			}
			for _, l := range tt.legend {
				if count(texts, l) != 1 {
					t.Errorf("legend entry %q drawn %d times, want once", l, count(texts, l))
				}
			}
			if want := max(len(tt.legend), 1); f.Series != want {
				t.Errorf("%d series, want %d", f.Series, want)
			}
			if !strings.Contains(desc, "command: hpcwl plot x <in> & y") || !strings.Contains(desc, "input: builtin:KTH-SP2 sha256 abc") {
				t.Errorf("provenance missing from <desc>: %q", desc)
			}
			f2, err := tt.draw()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(svg, render(t, f2, figure.SVG)) {
				t.Error("drawing the same figure twice gave different SVG bytes")
			}
		})
	}
}

// TestSubmissionsAndReplications draws the figures that need a feedback
// replay and resampled variants.
func TestSubmissionsAndReplications(t *testing.T) {
	tr := loadKTH(t)
	ctx := context.Background()
	so := sim.Options{PrepareOptions: sim.PrepareOptions{Machine: sim.Machine{Speed: 0.5}}}
	rigid, err := feedback.Rigid(ctx, tr, sched.NewEASY(0), so)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := feedback.Simulate(ctx, tr, sched.NewEASY(0), so, feedback.Options{Model: feedback.Madon})
	if err != nil {
		t.Fatal(err)
	}
	f, err := figure.Submissions(tr, rigid, fb)
	if err != nil {
		t.Fatal(err)
	}
	texts, _ := svgSummary(t, render(t, f, figure.SVG))
	for _, l := range []string{"submitted, rigid (recorded)", "submitted, feedback", "ended, rigid", "ended, feedback", "jobs"} {
		if count(texts, l) != 1 {
			t.Errorf("%q drawn %d times, want once", l, count(texts, l))
		}
	}
	if f.Series != 4 {
		t.Errorf("%d series, want 4", f.Series)
	}

	pools, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := replicate.Run(ctx, replicate.Config{Pools: pools, Variants: 6, Workers: 2,
		Scheduler: func() sim.Scheduler { return sched.NewEASY(0) }, Generate: resample.Options{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	h, err := figure.Replications(r, "wait", 0)
	if err != nil {
		t.Fatal(err)
	}
	texts, _ = svgSummary(t, render(t, h, figure.SVG))
	var marked bool
	for _, s := range texts {
		marked = marked || strings.HasPrefix(s, "original log: ")
	}
	if !marked || count(texts, "variants") != 2 { // the y label and the legend entry
		t.Errorf("histogram lacks the original's mark or the variants: %q", texts)
	}
	if _, err := figure.Replications(r, "nosuch", 0); err == nil || !strings.Contains(err.Error(), "bounded_slowdown") {
		t.Errorf("unknown metric: error %v, want the valid names", err)
	}
}

// TestFormats checks the PNG and PDF outputs: their signatures, the PNG's
// text chunk, and byte-identical output when drawn twice.
func TestFormats(t *testing.T) {
	tr := loadKTH(t)
	for _, tt := range []struct {
		format figure.Format
		magic  string
	}{{figure.PNG, "\x89PNG\r\n\x1a\n"}, {figure.PDF, "%PDF-"}} {
		f, err := figure.CDF(figure.Runtime, tr)
		if err != nil {
			t.Fatal(err)
		}
		a := render(t, f, tt.format)
		if !bytes.HasPrefix(a, []byte(tt.magic)) {
			t.Errorf("%s: starts with %q", tt.format, a[:min(len(a), 8)])
		}
		if tt.format == figure.PDF && !bytes.Contains(a, []byte("/CreationDate (D:19700101000000)")) {
			t.Error("the PDF's creation date is not the fixed one: the file changes with the clock")
		}
		if tt.format == figure.PNG && !bytes.Contains(a, []byte("tEXtComment\x00hpcwl version: test")) {
			t.Error("the PNG lacks its provenance text chunk")
		}
		f, _ = figure.CDF(figure.Runtime, tr)
		if b := render(t, f, tt.format); !bytes.Equal(a, b) {
			t.Errorf("%s: drawing twice gave different bytes", tt.format)
		}
	}
}

func TestFormatOf(t *testing.T) {
	for _, tt := range []struct {
		name string
		want figure.Format
		ok   bool
	}{{"a.svg", figure.SVG, true}, {"dir/B.PNG", figure.PNG, true}, {"x.pdf", figure.PDF, true}, {"x.jpg", "", false}, {"svg", "", false}} {
		got, err := figure.FormatOf(tt.name)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("FormatOf(%q) = %q, %v", tt.name, got, err)
		}
	}
}

// TestBadInput checks that figures of nothing fail with a message.
func TestBadInput(t *testing.T) {
	tr := loadKTH(t)
	empty := tr.Clone()
	empty.Jobs = nil
	empty.Name = "empty.swf"
	if _, err := figure.CDF(figure.Runtime, empty); err == nil || !strings.Contains(err.Error(), "empty.swf") {
		t.Errorf("CDF of an empty log: %v", err)
	}
	if _, err := figure.Gantt(easyKTH(t), 1e9, 86400); err == nil || !strings.Contains(err.Error(), "no job runs") {
		t.Errorf("Gantt of an empty window: %v", err)
	}
	if _, err := figure.Gantt(easyKTH(t), 0, 400*86400); err == nil || !strings.Contains(err.Error(), "shorter window") {
		t.Errorf("Gantt of a whole log: %v", err)
	}
}

// TestPox checks that the pox plot draws one mark per point of the
// analysis and refuses an analysis without a slope.
func TestPox(t *testing.T) {
	tr := loadKTH(t)
	h := locality.Hurst(tr, locality.HurstOptions{})
	f, err := figure.Pox(tr.Name, "hours", h)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(render(t, f, figure.SVG))
	// gonum draws a cross glyph as two strokes, each a path of one "M" and
	// one "L"; the legend adds one cross.
	marks := strings.Count(svg, "<path d=\"M")                             // every drawn path
	if want := 2 * (len(h.Points) + 1); marks < want || marks > want+100 { // + frame, ticks, lines and grid
		t.Errorf("%d paths for %d points", marks, len(h.Points))
	}
	short := &trace.Trace{Name: "short", Jobs: tr.Jobs[:10]}
	if _, err := figure.Pox("short", "hours", locality.Hurst(short, locality.HurstOptions{})); err == nil || !strings.Contains(err.Error(), "too short") {
		t.Errorf("a series of a few hours: %v", err)
	}
}
