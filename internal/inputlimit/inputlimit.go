// Package inputlimit bounds what hpcwl's readers accept in one line of text
// or one JSON value, so that memory follows the meaning of an input and not
// its bytes: a gzip file of a few megabytes can hold a single line of
// gigabytes, and a reader that waits for the end of that line before
// judging it needs gigabytes to say no.
//
// The limits are far above anything a workload log or a parameter file
// holds (an SWF job line is about 100 bytes, a header comment a few hundred)
// and are checked as the bytes pass, in constant memory.
package inputlimit

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxLine is the longest line, in bytes without its line ending, that the
// text readers (SWF, CSV, parameter files) accept.
const MaxLine = 1 << 20

// MaxToken is the longest JSON string or number, in bytes, that the JSON
// readers (Batsim workloads, parameter files) accept. JSON files may hold a
// whole workload on one line, so for them the limit is per value.
const MaxToken = 1 << 16

// ErrTooLong is the cause of every [Error]; test for it with errors.Is.
var ErrTooLong = errors.New("input too long")

// Error reports a line or value longer than its limit.
type Error struct {
	File  string // file name, or "" when unknown
	Line  int    // 1-based line where the long line or value starts
	What  string // "line", "JSON string" or "JSON number"
	Limit int    // the limit in bytes
}

// Error formats the error as "file: line N: line longer than L bytes: input too long".
func (e *Error) Error() string {
	s := ""
	if e.File != "" {
		s = e.File + ": "
	}
	return fmt.Sprintf("%sline %d: %s longer than %d bytes (the limit; is this the right file?): %v",
		s, e.Line, e.What, e.Limit, ErrTooLong)
}

// Unwrap returns [ErrTooLong].
func (e *Error) Unwrap() error { return ErrTooLong }

// Lines returns a reader that passes r's bytes through and fails with an
// [*Error] as soon as a line grows longer than max bytes (a trailing '\r'
// counts). Name is the file name for the error.
func Lines(r io.Reader, name string, max int) io.Reader {
	return &lineReader{r: r, name: name, max: max, line: 1}
}

type lineReader struct {
	r    io.Reader
	name string
	max  int
	line int // current line, 1-based
	cur  int // bytes of the current line so far
	err  error
}

func (l *lineReader) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for i := 0; i < n; i++ {
		if p[i] == '\n' {
			l.line++
			l.cur = 0
			continue
		}
		l.cur++
		if l.cur > l.max {
			l.err = &Error{File: l.name, Line: l.line, What: "line", Limit: l.max}
			return i, l.err
		}
	}
	return n, err
}

// JSONValues returns a reader that passes r's bytes through and fails with
// an [*Error] as soon as a JSON string or number grows longer than max
// bytes. It follows JSON's lexical structure only (strings with their
// escapes, runs of number characters); the JSON decoder behind it still
// judges the syntax. Name is the file name for the error.
func JSONValues(r io.Reader, name string, max int) io.Reader {
	return &jsonReader{r: r, name: name, max: max, line: 1}
}

type jsonReader struct {
	r     io.Reader
	name  string
	max   int
	line  int
	state byte // 0 outside a value, 's' in a string, 'e' after a backslash in a string, 'n' in a number
	cur   int  // bytes of the current string or number
	start int  // line where it started
	err   error
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

func (j *jsonReader) Read(p []byte) (int, error) {
	if j.err != nil {
		return 0, j.err
	}
	n, err := j.r.Read(p)
	for i := 0; i < n; i++ {
		c := p[i]
		if c == '\n' {
			j.line++
		}
		switch j.state {
		case 's':
			switch c {
			case '"':
				j.state = 0
				continue
			case '\\':
				j.state = 'e'
			}
		case 'e':
			j.state = 's'
		case 'n':
			if !isNumberByte(c) {
				j.state = 0
			}
		}
		if j.state == 0 {
			switch {
			case c == '"':
				j.state, j.cur, j.start = 's', 0, j.line
				continue
			case isNumberByte(c):
				j.state, j.cur, j.start = 'n', 0, j.line
			default:
				continue
			}
		}
		j.cur++
		if j.cur > j.max {
			what := "JSON string"
			if j.state == 'n' {
				what = "JSON number"
			}
			j.err = &Error{File: j.name, Line: j.start, What: what, Limit: j.max}
			return i, j.err
		}
	}
	return n, err
}

// MaxParamFile is the largest parameter file, in bytes, that the commands
// read (a fitted model's parameters take a few kilobytes).
const MaxParamFile = 16 << 20

// ReadFile reads a whole small file, such as a parameter file, failing with
// an error that names the file as soon as it passes max bytes.
func ReadFile(name string, max int) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes (the limit for a parameter file; is this the right file?): %w",
			name, max, ErrTooLong)
	}
	return data, nil
}
