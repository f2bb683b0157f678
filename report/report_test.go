package report_test

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"regexp"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/figure"
	"github.com/hpcwl/hpcwl/report"
	"github.com/hpcwl/hpcwl/trace"
)

func sample(t *testing.T) *report.Report {
	t.Helper()
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cdf, err := figure.CDF(figure.Runtime, tr)
	if err != nil {
		t.Fatal(err)
	}
	week, err := figure.Arrivals(figure.Weekly, tr)
	if err != nil {
		t.Fatal(err)
	}
	return &report.Report{
		Title: "Log <a&b>",
		Sections: []report.Section{
			{Heading: "Facts", Text: "a | b * c", Tables: []report.Table{
				{Rows: [][]string{{"jobs", "28476"}, {"note", "x|y <z>"}}},
				{Header: []string{"", "n"}, Rows: [][]string{{"runtime", "3"}}},
			}},
			{Heading: "Figures", Figures: []report.Figure{
				{ID: "runtime", Caption: "CDF of runtime", Figure: cdf},
				{ID: "weekly", Caption: "weekly cycle", Figure: week},
			}},
		},
		Provenance: figure.Provenance{Version: "v-test", Command: "hpcwl report x -o r.html",
			Inputs: []figure.Input{{Name: "builtin:KTH-SP2", SHA256: "abc"}}},
	}
}

// TestHTML checks the page: escaped text, one <figure> per figure with an
// inline <svg> that parses as XML, no reference to anything outside the
// page, the provenance, and the same bytes when written twice.
func TestHTML(t *testing.T) {
	r := sample(t)
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<title>Log &lt;a&amp;b&gt;</title>", "<td>x|y &lt;z&gt;</td>", "<th>n</th>",
		`<figure id="fig-runtime">`, `<figure id="fig-weekly">`, "<figcaption>weekly cycle</figcaption>",
		"command: hpcwl report x -o r.html", "input: builtin:KTH-SP2 sha256 abc"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	svgs := regexp.MustCompile(`(?s)<svg .*?</svg>`).FindAllString(page, -1)
	if len(svgs) != 2 || strings.Count(page, "<figure ") != 2 {
		t.Fatalf("%d inline SVGs and %d figures, want 2 and 2", len(svgs), strings.Count(page, "<figure "))
	}
	for _, s := range svgs {
		if err := xml.Unmarshal([]byte(s), new(struct{})); err != nil {
			t.Errorf("an inline SVG does not parse: %v", err)
		}
	}
	if strings.Contains(page, "<?xml") {
		t.Error("the page holds an XML declaration (not valid inside HTML)")
	}
	for _, ext := range []string{"src=", "<link", "<script", "@import", "url(http"} {
		if strings.Contains(page, ext) {
			t.Errorf("the page refers to something outside it: %q", ext)
		}
	}
	var again bytes.Buffer
	if err := sample(t).WriteHTML(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), again.Bytes()) {
		t.Error("writing the same report twice gave different bytes")
	}
}

// TestMarkdown checks the Markdown: escaped cells, a header row for
// tables without one, each figure as a data URI holding an SVG.
func TestMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := sample(t).WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{"# Log &lt;a&b&gt;\n", "a \\| b \\* c", "|  |  |\n|---|---|\n| jobs | 28476 |",
		"| note | x\\|y &lt;z&gt; |", "|  | n |\n|---|---|\n| runtime | 3 |", "*weekly cycle*", "command: hpcwl report x -o r.html"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q", want)
		}
	}
	uris := regexp.MustCompile(`!\[[^\]]*\]\(data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)\)`).FindAllStringSubmatch(md, -1)
	if len(uris) != 2 {
		t.Fatalf("%d figures, want 2", len(uris))
	}
	for _, u := range uris {
		svg, err := base64.StdEncoding.DecodeString(u[1])
		if err != nil || !bytes.HasPrefix(svg, []byte("<svg")) {
			t.Errorf("a figure's data URI does not hold an SVG: %v", err)
		}
	}
}
