package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/internal/inputlimit"
	"github.com/hpcwl/hpcwl/swf"
)

// CSVColumns holds the CSV column names; CSVColumns[i] names SWF field i+1.
var CSVColumns = func() [swf.NumFields]string {
	var c [swf.NumFields]string
	for i, n := range swf.FieldNames {
		c[i] = csvName(n)
	}
	return c
}()

// csvName turns an SWF field name into a column name: "Job Number" ->
// "job_number".
func csvName(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), " ", "_")
}

// WriteCSV writes the trace as CSV:
//
//   - the SWF header as leading comment lines, each '#' followed by one SWF
//     header line exactly as in the SWF file (so "#; MaxProcs: 128");
//   - one column row naming the fields ([CSVColumns]);
//   - one row per job with its 18 SWF fields.
//
// The comment lines keep the header, so converting the CSV back to SWF
// loses nothing; pandas skips them with comment='#'. Values are written as
// in SWF: -1 for unknown, integers except the average CPU time and the
// memory fields.
func (t *Trace) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	for _, l := range t.Header.Lines {
		bw.WriteByte('#')
		bw.WriteString(l.String())
		bw.WriteByte('\n')
	}
	bw.WriteString(strings.Join(CSVColumns[:], ","))
	bw.WriteByte('\n')
	var b []byte
	for i := range t.Jobs {
		b = appendCSVRow(b[:0], &t.Jobs[i])
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendCSVRow appends the CSV row of j, newline included, to b.
func appendCSVRow(b []byte, j *Job) []byte {
	b = strconv.AppendInt(b, j.ID, 10)
	for _, v := range [...]int64{j.Submit, j.Wait, j.Runtime, int64(j.Procs)} {
		b = strconv.AppendInt(append(b, ','), v, 10)
	}
	b = appendCSVFloat(append(b, ','), j.AvgCPU)
	b = appendCSVFloat(append(b, ','), j.UsedMem)
	b = strconv.AppendInt(append(b, ','), int64(j.ReqProcs), 10)
	b = strconv.AppendInt(append(b, ','), j.ReqTime, 10)
	b = appendCSVFloat(append(b, ','), j.ReqMem)
	for _, v := range [...]int64{int64(j.Status), int64(j.User), int64(j.Group), int64(j.App),
		int64(j.Queue), int64(j.Partition), int64(j.Preceding), j.ThinkTime} {
		b = strconv.AppendInt(append(b, ','), v, 10)
	}
	return append(b, '\n')
}

func appendCSVFloat(b []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.AppendInt(b, int64(f), 10)
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}

// ErrCSVColumns is the cause of errors about the column row of a CSV trace.
var ErrCSVColumns = errors.New("bad column row")

// ReadCSV reads a trace written by [Trace.WriteCSV], or any CSV with columns
// named as in [CSVColumns]. Name is used in error messages and as the
// trace's name.
//
// The column row must list all 18 columns, in any order (a missing column is
// an error, as an unknown one is: a column left out silently would read as
// unknown); names are compared ignoring case, and the SWF field names
// ("Job Number", "Run Time", ...) are accepted too. An empty cell
// reads as -1. Cells may be wrapped in double quotes but may not contain
// commas. Leading '#' lines become the SWF header (a line whose text does not
// start with ';' becomes a free comment). Malformed input gives a
// [*swf.ParseError] naming the line, the field and the offending text.
func ReadCSV(r io.Reader, name string, opt Options) (*Trace, error) {
	br := bufio.NewReaderSize(inputlimit.Lines(r, name, inputlimit.MaxLine), 256<<10)
	var hdrText strings.Builder
	var cols []int // SWF field index (0-based) of each CSV column
	var jobs []Job
	lineNo := 0
	perr := func(field int, text string, err error) error {
		return &swf.ParseError{File: name, Line: lineNo, Field: field, Text: text, Err: err}
	}
	var cells []string
	for {
		line, rerr := br.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			if errors.Is(rerr, inputlimit.ErrTooLong) {
				return nil, rerr // names the file and line
			}
			return nil, fmt.Errorf("%s: %w", name, rerr)
		}
		if line == "" && rerr != nil {
			if rerr != io.EOF {
				return nil, fmt.Errorf("%s: %w", name, rerr)
			}
			break
		}
		lineNo++
		if lineNo == 1 {
			line = strings.TrimPrefix(line, "\ufeff") // byte-order mark from spreadsheets
		}
		line = strings.TrimRight(line, "\r\n")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if line[0] == '#' {
			text := line[1:]
			if !strings.HasPrefix(text, ";") {
				text = ";" + text
			}
			hdrText.WriteString(text)
			hdrText.WriteByte('\n')
			continue
		}
		cells = splitCSV(cells[:0], line)
		if cols == nil {
			c, err := csvColumns(cells)
			if err != nil {
				return nil, perr(0, truncateText(line), err)
			}
			cols = c
			continue
		}
		if len(cells) != len(cols) {
			hint := ""
			if rerr == io.EOF && len(cells) < len(cols) {
				hint = " (the file may be truncated)"
			}
			return nil, perr(0, truncateText(line), fmt.Errorf("%w: expected %d, found %d%s",
				swf.ErrFieldCount, len(cols), len(cells), hint))
		}
		var iv [swf.NumFields]int64
		var fv [swf.NumFields]float64
		for k := range iv {
			iv[k], fv[k] = -1, -1
		}
		for k, cell := range cells {
			f := cols[k]
			if cell == "" {
				continue
			}
			if isFloatField(f) {
				v, err := strconv.ParseFloat(cell, 64)
				if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, perr(f+1, cell, swf.ErrNotNumber)
				}
				if v < -1 {
					return nil, perr(f+1, cell, swf.ErrNegative)
				}
				fv[f] = v
				continue
			}
			v, err := strconv.ParseInt(cell, 10, 64)
			if err != nil {
				fl, ferr := strconv.ParseFloat(cell, 64)
				if ferr != nil || fl != math.Trunc(fl) || math.Abs(fl) > 1<<62 {
					return nil, perr(f+1, cell, swf.ErrNotInteger)
				}
				v = int64(fl)
			}
			if v < -1 && f != 17 {
				return nil, perr(f+1, cell, swf.ErrNegative)
			}
			iv[f] = v
		}
		sj := swf.Job{
			ID: iv[0], Submit: iv[1], Wait: iv[2], Runtime: iv[3], Procs: iv[4],
			AvgCPU: fv[5], UsedMem: fv[6], ReqProcs: iv[7], ReqTime: iv[8], ReqMem: fv[9],
			Status: iv[10], User: iv[11], Group: iv[12], App: iv[13], Queue: iv[14],
			Partition: iv[15], Preceding: iv[16], ThinkTime: iv[17],
		}
		j, err := FromSWF(&sj)
		if err != nil {
			return nil, perr(0, "", err)
		}
		jobs = append(jobs, j)
	}
	if cols == nil {
		return nil, &swf.ParseError{File: name, Line: lineNo, Err: fmt.Errorf("%w: no column row (expected %s)",
			swf.ErrEmpty, strings.Join(CSVColumns[:], ","))}
	}
	var hdr swf.Header
	if hdrText.Len() > 0 {
		sr := swf.NewReader(strings.NewReader(hdrText.String()))
		sr.Name = name
		h, err := sr.Header()
		if err != nil {
			return nil, err
		}
		hdr = *h
	}
	t := New(hdr, jobs, opt)
	t.Name = name
	return t, nil
}

// isFloatField reports whether SWF field f (0-based) may be fractional.
func isFloatField(f int) bool { return f == 5 || f == 6 || f == 9 }

// csvColumns maps the cells of a column row to SWF field indices.
func csvColumns(cells []string) ([]int, error) {
	cols := make([]int, len(cells))
	seen := map[int]bool{}
	for k, c := range cells {
		n := csvName(c)
		f := -1
		for i, name := range CSVColumns {
			if n == name {
				f = i
				break
			}
		}
		if f < 0 {
			if _, err := strconv.ParseFloat(c, 64); err == nil && k == 0 {
				return nil, fmt.Errorf("%w: the first row that is not a '#' comment must name the columns, found numbers; expected %s",
					ErrCSVColumns, strings.Join(CSVColumns[:], ","))
			}
			return nil, fmt.Errorf("%w: column %d: unknown column %q; expected names from %s",
				ErrCSVColumns, k+1, truncateText(c), strings.Join(CSVColumns[:], ","))
		}
		if seen[f] {
			return nil, fmt.Errorf("%w: column %d: %q appears twice", ErrCSVColumns, k+1, truncateText(c))
		}
		seen[f] = true
		cols[k] = f
	}
	var missing []string
	for i, name := range CSVColumns {
		if !seen[i] {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: missing column(s) %s; every one of the %d columns is required (an empty cell, or -1, marks an unknown value)",
			ErrCSVColumns, strings.Join(missing, ","), len(CSVColumns))
	}
	return cols, nil
}

// splitCSV splits a line on commas, trimming spaces and one pair of
// surrounding double quotes from each cell.
func splitCSV(cells []string, line string) []string {
	for {
		i := strings.IndexByte(line, ',')
		cell := line
		if i >= 0 {
			cell = line[:i]
		}
		cell = strings.TrimSpace(cell)
		if len(cell) >= 2 && cell[0] == '"' && cell[len(cell)-1] == '"' {
			cell = strings.TrimSpace(cell[1 : len(cell)-1])
		}
		cells = append(cells, cell)
		if i < 0 {
			return cells
		}
		line = line[i+1:]
	}
}

func truncateText(s string) string {
	if len(s) > 120 {
		return s[:117] + "..."
	}
	return s
}
