package figure

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

func init() {
	// A PDF records its creation and modification dates; a fixed date (the
	// Unix epoch) keeps the same figure byte-identical from run to run.
	fpdf.SetDefaultCreationDate(time.Unix(0, 0).UTC())
	fpdf.SetDefaultModificationDate(time.Unix(0, 0).UTC())
	fpdf.SetDefaultCatalogSort(true)
}

// plainTicks are gonum's default ticks labelled in the shortest form
// ("25000", not "25000.00").
type plainTicks struct{}

// Ticks implements plot.Ticker.
func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 6, 64)
		}
	}
	return ts
}

// newPlot returns a plot with plainly labelled linear axes.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.X.Tick.Marker = plainTicks{}
	p.Y.Tick.Marker = plainTicks{}
	return p
}

// Format is a file format a Figure is written in.
type Format string

// The formats of a Figure.
const (
	SVG Format = "svg"
	PNG Format = "png"
	PDF Format = "pdf"
)

// Formats lists the formats Write accepts.
var Formats = []Format{SVG, PNG, PDF}

// FormatOf returns the format a file name's extension names (.svg, .png,
// .pdf, in any case).
func FormatOf(name string) (Format, error) {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(name)), ".")
	for _, f := range Formats {
		if ext == string(f) {
			return f, nil
		}
	}
	return "", fmt.Errorf("cannot tell the figure format of %q from its extension; use .svg, .png or .pdf", name)
}

// Default size of a figure.
const (
	DefaultWidth  = 16 * vg.Centimeter
	DefaultHeight = 10 * vg.Centimeter
)

// Figure is a drawn plot ready to be written.
type Figure struct {
	// Plot is the gonum plot; callers may restyle it before writing.
	Plot *plot.Plot
	// Width and Height are the figure's size; zero means the defaults.
	Width, Height vg.Length
	// Series counts the data series drawn (lines, histograms, bar sets),
	// Legend the legend entries.
	Series int
}

// Provenance describes where a figure came from; it is recorded in the
// file where the format allows.
type Provenance struct {
	Version string // hpcwl version
	Command string // the command line that drew it
	Inputs  []Input
}

// Input is one input of a figure: a log's name and the SHA-256 of its bytes.
type Input struct {
	Name, SHA256 string
}

// String returns the provenance as text, one "key: value" per line.
func (p Provenance) String() string {
	var b strings.Builder
	if p.Version != "" {
		fmt.Fprintf(&b, "hpcwl version: %s\n", p.Version)
	}
	if p.Command != "" {
		fmt.Fprintf(&b, "command: %s\n", p.Command)
	}
	for _, in := range p.Inputs {
		sha := in.SHA256
		if sha == "" {
			sha = "-"
		}
		fmt.Fprintf(&b, "input: %s sha256 %s\n", in.Name, sha)
	}
	return b.String()
}

func (f *Figure) size() (vg.Length, vg.Length) {
	w, h := f.Width, f.Height
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	return w, h
}

// Write draws the figure in the format and writes it to w. SVG carries p
// in a <desc> element, the first child of <svg>; PNG in an iTXt-free
// tEXt chunk "Comment" (Latin-1 text; other characters become '?'); PDF
// carries none (gonum/plot gives no access to its metadata).
func (f *Figure) Write(w io.Writer, format Format, p Provenance) error {
	width, height := f.size()
	wt, err := f.Plot.WriterTo(width, height, string(format))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return err
	}
	out := buf.Bytes()
	text := p.String()
	switch {
	case text == "":
	case format == SVG:
		out, err = svgWithDesc(out, text)
	case format == PNG:
		out, err = pngWithText(out, "Comment", text)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// xmlText escapes the characters that XML text cannot hold as they are;
// unlike xml.EscapeText it keeps newlines, so that the provenance reads as
// lines in the file.
var xmlText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// svgWithDesc inserts <desc>text</desc> right after the opening <svg> tag.
func svgWithDesc(svg []byte, text string) ([]byte, error) {
	i := bytes.Index(svg, []byte("<svg"))
	if i < 0 {
		return nil, fmt.Errorf("figure: no <svg> element in the drawn figure")
	}
	j := bytes.IndexByte(svg[i:], '>')
	if j < 0 {
		return nil, fmt.Errorf("figure: unterminated <svg> element in the drawn figure")
	}
	end := i + j + 1
	var desc bytes.Buffer
	desc.WriteString("\n<desc>\n")
	xmlText.WriteString(&desc, text)
	desc.WriteString("</desc>")
	out := make([]byte, 0, len(svg)+desc.Len())
	out = append(out, svg[:end]...)
	out = append(out, desc.Bytes()...)
	return append(out, svg[end:]...), nil
}

// pngWithText inserts a tEXt chunk after the IHDR chunk of a PNG file
// (PNG specification, section 11.3.4.3). The standard library's encoder
// writes no text chunks, hence this small writer.
func pngWithText(png []byte, key, text string) ([]byte, error) {
	const sigLen, ihdrLen = 8, 8 + 13 + 4 // signature; IHDR length+type, data, CRC
	if len(png) < sigLen+ihdrLen || string(png[12:16]) != "IHDR" {
		return nil, fmt.Errorf("figure: the drawn PNG does not start with IHDR")
	}
	data := []byte(key)
	data = append(data, 0)
	for _, r := range text {
		if r > 0xff || (r < 0x20 && r != '\n') {
			r = '?'
		}
		data = append(data, byte(r))
	}
	chunk := make([]byte, 0, 12+len(data))
	chunk = binary.BigEndian.AppendUint32(chunk, uint32(len(data)))
	chunk = append(chunk, "tEXt"...)
	chunk = append(chunk, data...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	at := sigLen + ihdrLen
	out := make([]byte, 0, len(png)+len(chunk))
	out = append(out, png[:at]...)
	out = append(out, chunk...)
	return append(out, png[at:]...), nil
}

// addStepLine draws pts as a step line in colour c and the given width,
// adds it to the legend as name and counts it as a series. It returns the
// line for further styling.
func (f *Figure) addStepLine(pts plotter.XYs, c int, width float64, name string) (*plotter.Line, error) {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	l.StepStyle = plotter.PostStep
	l.Color = plotutil.Color(c)
	l.Width = vg.Points(width)
	f.Plot.Add(l)
	f.Plot.Legend.Add(name, l)
	f.Series++
	return l, nil
}
