package swf

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/hpcwl/hpcwl/internal/inputlimit"
)

// Reader reads jobs from an SWF log.
//
// Header comments before the first job line are collected into the header;
// comment lines that appear later are appended to it as well, so none are
// lost. Blank lines are skipped.
type Reader struct {
	// Name is the file name used in error messages.
	Name string
	// Lenient makes the reader accept values outside a field's documented
	// range in otherwise well-formed records: a value below -1 in any field
	// but the think time (a status of -4, a negative run time) is read as -1
	// (unknown) and counted in [Reader.Replaced] instead of failing with
	// [ErrNegative]. Malformed records (wrong field count, text where a
	// number belongs, fractions in integer fields) fail in both modes.
	Lenient bool

	br         *bufio.Reader
	line       int
	header     Header
	headerDone bool
	pending    []byte // first job line, read while scanning the header
	pendingNo  int
	sawAny     bool
	buf        []byte
	replaced   [NumFields]int
	tooLong    error // sticky: after a line over the limit nothing more is read
}

// Replaced returns, per field (index i for field i+1), how many values the
// lenient mode replaced by -1 so far. It is all zeros in strict mode.
func (r *Reader) Replaced() [NumFields]int { return r.replaced }

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 256<<10)}
}

// Line returns the number of the last line read.
func (r *Reader) Line() int { return r.line }

// Header reads the header block if it has not been read yet and returns it.
// The returned header keeps growing if comment lines follow job lines.
func (r *Reader) Header() (*Header, error) {
	if r.headerDone {
		return &r.header, nil
	}
	for {
		ln, err := r.readLine()
		if ln == nil {
			r.headerDone = true
			if err == io.EOF && !r.sawAny {
				return &r.header, r.errorf(0, 0, "", ErrEmpty)
			}
			if err == io.EOF {
				err = nil
			}
			return &r.header, err
		}
		if ln[0] == ';' {
			r.header.Lines = append(r.header.Lines, parseHeaderLine(string(ln)))
			continue
		}
		r.pending = append(r.pending[:0], ln...)
		r.pendingNo = r.line
		r.headerDone = true
		return &r.header, nil
	}
}

// readLine returns the next non-blank line without its line ending, or nil
// with the error (io.EOF at the end). The slice is valid until the next call.
func (r *Reader) readLine() ([]byte, error) {
	if r.tooLong != nil {
		return nil, r.tooLong
	}
	for {
		b, err := r.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			r.buf = append(r.buf[:0], b...)
			for err == bufio.ErrBufferFull {
				if len(r.buf) > inputlimit.MaxLine+1 { // +1: a final '\r' does not count
					// Refuse before the rest of the line is read: a
					// compressed log can hold one line of gigabytes.
					r.buf = nil
					r.tooLong = r.errorf(r.line+1, 0, "", ErrLineTooLong)
					return nil, r.tooLong
				}
				b, err = r.br.ReadSlice('\n')
				r.buf = append(r.buf, b...)
			}
			if len(bytes.TrimRight(r.buf, "\r\n")) > inputlimit.MaxLine {
				r.buf = nil
				r.tooLong = r.errorf(r.line+1, 0, "", ErrLineTooLong)
				return nil, r.tooLong
			}
			b = r.buf
		}
		if len(b) > 0 {
			r.sawAny = true
			r.line++
		} else if err != nil {
			if err != io.EOF {
				err = r.errorf(r.line+1, 0, "", fmt.Errorf("reading: %w", err))
			}
			return nil, err
		}
		if err != nil && err != io.EOF {
			return nil, r.errorf(r.line, 0, "", fmt.Errorf("reading: %w", err))
		}
		for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
			b = b[:len(b)-1]
		}
		t := b
		for len(t) > 0 && (t[0] == ' ' || t[0] == '\t') {
			t = t[1:]
		}
		if len(t) == 0 {
			if err == io.EOF {
				return nil, io.EOF
			}
			continue
		}
		if t[0] == ';' {
			return t, nil
		}
		return b, nil
	}
}

// Read returns the next job, or io.EOF after the last one. A malformed line
// yields a [*ParseError].
func (r *Reader) Read() (Job, error) {
	if !r.headerDone {
		if _, err := r.Header(); err != nil {
			return Job{}, err
		}
	}
	if r.pending != nil {
		ln, no := r.pending, r.pendingNo
		r.pending = nil
		return r.parseJob(ln, no)
	}
	for {
		ln, err := r.readLine()
		if ln == nil {
			return Job{}, err
		}
		if ln[0] == ';' {
			r.header.Lines = append(r.header.Lines, parseHeaderLine(string(ln)))
			continue
		}
		return r.parseJob(ln, r.line)
	}
}

// ReadAll reads all remaining jobs.
func (r *Reader) ReadAll() ([]Job, error) {
	var jobs []Job
	for {
		j, err := r.Read()
		if err == io.EOF {
			return jobs, nil
		}
		if err != nil {
			return jobs, err
		}
		jobs = append(jobs, j)
	}
}

func (r *Reader) errorf(line, field int, text string, err error) error {
	return &ParseError{File: r.Name, Line: line, Field: field, Text: text, Err: err}
}

// parseJob parses one job line. It does not allocate for well-formed lines.
func (r *Reader) parseJob(ln []byte, lineNo int) (Job, error) {
	var iv [NumFields]int64
	var fv [NumFields]float64
	n := 0
	i := 0
	for {
		for i < len(ln) && (ln[i] == ' ' || ln[i] == '\t') {
			i++
		}
		if i >= len(ln) {
			break
		}
		start := i
		// Fast path: a plain decimal integer, parsed in the same pass that
		// finds the end of the token.
		neg := ln[i] == '-'
		if neg {
			i++
		}
		var v int64
		digits := 0
		for i < len(ln) {
			d := ln[i] - '0'
			if d > 9 {
				break
			}
			v = v*10 + int64(d)
			i++
			digits++
		}
		if digits > 0 && digits <= 18 && (i == len(ln) || ln[i] == ' ' || ln[i] == '\t') {
			if n < NumFields {
				if neg {
					v = -v
				}
				if v < -1 && !negativeAllowed(n) {
					if !r.Lenient {
						return Job{}, r.errorf(lineNo, n+1, string(ln[start:i]), ErrNegative)
					}
					v = Unknown
					r.replaced[n]++
				}
				iv[n] = v
				if floatField(n) {
					fv[n] = float64(v)
				}
			}
			n++
			continue
		}
		for i < len(ln) && ln[i] != ' ' && ln[i] != '\t' {
			i++
		}
		if n >= NumFields {
			n++
			continue
		}
		tok := ln[start:i]
		f, ok := parseDecimal(tok)
		if !ok {
			var err error
			if f, err = strconv.ParseFloat(string(tok), 64); err != nil {
				cause := ErrNotInteger
				if floatField(n) {
					cause = ErrNotNumber
				}
				return Job{}, r.errorf(lineNo, n+1, string(tok), cause)
			}
		}
		switch {
		case !floatField(n) && f != float64(int64(f)):
			return Job{}, r.errorf(lineNo, n+1, string(tok), ErrNotInteger)
		case f < -1 && !negativeAllowed(n):
			if !r.Lenient {
				return Job{}, r.errorf(lineNo, n+1, string(tok), ErrNegative)
			}
			f = Unknown
			r.replaced[n]++
		}
		iv[n], fv[n] = int64(f), f
		n++
	}
	if n != NumFields {
		return Job{}, r.fieldCountError(ln, lineNo, n)
	}
	return Job{
		ID: iv[0], Submit: iv[1], Wait: iv[2], Runtime: iv[3], Procs: iv[4],
		AvgCPU: fv[5], UsedMem: fv[6], ReqProcs: iv[7], ReqTime: iv[8], ReqMem: fv[9],
		Status: iv[10], User: iv[11], Group: iv[12], App: iv[13], Queue: iv[14],
		Partition: iv[15], Preceding: iv[16], ThinkTime: iv[17],
	}, nil
}

func (r *Reader) fieldCountError(ln []byte, lineNo, n int) error {
	text := string(ln)
	if len(text) > 120 {
		text = text[:117] + "..."
	}
	hint := ""
	if n < NumFields {
		if _, err := r.br.Peek(1); err == io.EOF {
			hint = " (the file may be truncated)"
		}
	}
	return r.errorf(lineNo, 0, text, fmt.Errorf("%w: expected %d, found %d%s", ErrFieldCount, NumFields, n, hint))
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseDecimal parses plain decimals such as "-12.375" quickly. With at most
// 15 significant digits both the digit string and the power of ten are exact
// in float64, so the single division rounds correctly and the result equals
// strconv.ParseFloat's. Anything else reports false.
func parseDecimal(b []byte) (float64, bool) {
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg, b = true, b[1:]
	}
	var m int64
	digits, frac, dot := 0, 0, false
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			m = m*10 + int64(c-'0')
			digits++
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 15 {
		return 0, false
	}
	f := float64(m) / pow10[frac]
	if neg {
		f = -f
	}
	return f, true
}
