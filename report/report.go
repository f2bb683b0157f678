// Package report lays out a report on a workload log: its characterization
// as tables and its figures (package figure), as one self-contained HTML page
// (the figures inline as SVG; no script, style sheet, font or image is
// fetched) or as Markdown (the figures as SVG data URIs), with the same
// content.
package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/hpcwl/hpcwl/figure"
)

// Report is the content of a report.
type Report struct {
	// Title heads the page.
	Title string
	// Sections follow in order.
	Sections []Section
	// Provenance closes the page: version, command line, inputs.
	Provenance figure.Provenance
}

// Section is a heading with its tables, then its figures.
type Section struct {
	Heading string
	// Text is a paragraph shown under the heading (plain text).
	Text    string
	Tables  []Table
	Figures []Figure
}

// Table is a table of text cells; Header may be empty.
type Table struct {
	Header []string
	Rows   [][]string
}

// Figure is a figure with an identifier (unique in the report, used as the
// HTML id "fig-ID") and a caption.
type Figure struct {
	ID      string
	Caption string
	Figure  *figure.Figure
}

// svg returns the figure as SVG without its XML prolog, ready to be inlined
// in HTML, with the report's provenance in its <desc>.
func (f *Figure) svg(p figure.Provenance) ([]byte, error) {
	var b bytes.Buffer
	if err := f.Figure.Write(&b, figure.SVG, p); err != nil {
		return nil, fmt.Errorf("figure %s: %w", f.ID, err)
	}
	data := b.Bytes()
	i := bytes.Index(data, []byte("<svg"))
	if i < 0 {
		return nil, fmt.Errorf("figure %s: no <svg> element", f.ID)
	}
	return data[i:], nil
}

type htmlFigure struct {
	ID, Caption string
	SVG         template.HTML
}

type htmlSection struct {
	Heading, Text string
	Tables        []Table
	Figures       []htmlFigure
}

var page = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="hpcwl {{.Version}}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; vertical-align: top; }
figure { margin: 1.5em 0; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 0.9em; color: #555; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{range .Sections}}<section>
<h2>{{.Heading}}</h2>
{{if .Text}}<p>{{.Text}}</p>
{{end}}{{range .Tables}}<table>
{{if .Header}}<tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{end}}{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}{{range .Figures}}<figure id="fig-{{.ID}}">
{{.SVG}}
<figcaption>{{.Caption}}</figcaption>
</figure>
{{end}}</section>
{{end}}<section>
<h2>Provenance</h2>
<pre>{{.Provenance}}</pre>
</section>
</body>
</html>
`))

// WriteHTML writes the report as one HTML page.
func (r *Report) WriteHTML(w io.Writer) error {
	data := struct {
		Title, Version, Provenance string
		Sections                   []htmlSection
	}{Title: r.Title, Version: r.Provenance.Version, Provenance: r.Provenance.String()}
	for _, s := range r.Sections {
		hs := htmlSection{Heading: s.Heading, Text: s.Text, Tables: s.Tables}
		for i := range s.Figures {
			svg, err := s.Figures[i].svg(r.Provenance)
			if err != nil {
				return err
			}
			// The SVG is hpcwl's own drawing (gonum/plot's, whose texts it
			// escapes), not user input: it is inlined as it is.
			hs.Figures = append(hs.Figures, htmlFigure{ID: s.Figures[i].ID, Caption: s.Figures[i].Caption,
				SVG: template.HTML(svg)})
		}
		data.Sections = append(data.Sections, hs)
	}
	return page.Execute(w, data)
}

// WriteMarkdown writes the report as Markdown (CommonMark with GitHub's
// tables); each figure is an image whose source is an SVG data URI, so the
// file stands alone.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", mdText(r.Title))
	for _, s := range r.Sections {
		fmt.Fprintf(&b, "\n## %s\n", mdText(s.Heading))
		if s.Text != "" {
			fmt.Fprintf(&b, "\n%s\n", mdText(s.Text))
		}
		for _, t := range s.Tables {
			b.WriteString("\n")
			header := t.Header
			cols := len(header)
			for _, row := range t.Rows {
				cols = max(cols, len(row))
			}
			if cols == 0 {
				continue
			}
			if len(header) == 0 {
				header = make([]string, cols) // Markdown tables need a header row
			}
			mdRow(&b, header, cols)
			b.WriteString("|" + strings.Repeat("---|", cols) + "\n")
			for _, row := range t.Rows {
				mdRow(&b, row, cols)
			}
		}
		for i := range s.Figures {
			f := &s.Figures[i]
			svg, err := f.svg(r.Provenance)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "\n![%s](data:image/svg+xml;base64,%s)\n\n*%s*\n",
				mdText(f.Caption), base64.StdEncoding.EncodeToString(svg), mdText(f.Caption))
		}
	}
	b.WriteString("\n## Provenance\n\n```\n" + r.Provenance.String() + "```\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func mdRow(b *strings.Builder, cells []string, cols int) {
	b.WriteString("|")
	for i := range cols {
		c := ""
		if i < len(cells) {
			c = cells[i]
		}
		b.WriteString(" " + mdText(c) + " |")
	}
	b.WriteString("\n")
}

// mdEscape escapes the characters Markdown would read as markup in a line of
// text or a table cell.
var mdEscape = strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", "&lt;", ">", "&gt;", "`", "\\`", "\n", " ")

func mdText(s string) string { return mdEscape.Replace(s) }
