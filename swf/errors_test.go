package swf

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestParseErrorMessage: the message names what it knows (file, a line
// from 1, a field from 1 to 18 with its name, the text) and quotes text of
// up to 80 bytes whole, longer text by its first bytes (never splitting a
// UTF-8 character) and its length.
func TestParseErrorMessage(t *testing.T) {
	cause := errors.New("cause")
	for _, c := range []struct {
		e    ParseError
		want string
	}{
		{ParseError{Err: cause}, "cause"},
		{ParseError{File: "f.swf", Line: 1, Err: cause}, "f.swf: line 1: cause"},
		{ParseError{Line: 0, Field: 1, Err: cause}, "field 1 (" + FieldNames[0] + "): cause"},
		{ParseError{Field: 18, Text: "x", Err: cause}, "field 18 (" + FieldNames[17] + "): \"x\": cause"},
		{ParseError{Field: 19, Err: cause}, "cause"},
		{ParseError{Text: strings.Repeat("a", 80), Err: cause}, "\"" + strings.Repeat("a", 80) + "\": cause"},
		{ParseError{Text: strings.Repeat("a", 81), Err: cause}, "\"" + strings.Repeat("a", 80) + "\"... (81 bytes): cause"},
		{ParseError{Text: strings.Repeat("a", 79) + "é" + "b", Err: cause}, "\"" + strings.Repeat("a", 79) + "\"... (82 bytes): cause"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
	}
}

// TestNewJob: a new job has every field unknown.
func TestNewJob(t *testing.T) {
	for i, v := range jobFields(NewJob()) {
		if v != Unknown {
			t.Errorf("field %d (%s) = %v, want %d", i+1, FieldNames[i], v, Unknown)
		}
	}
}

type closer struct {
	err    error
	closed *int
}

func (c closer) Close() error { *c.closed++; return c.err }

// TestCloseFirstError: Close closes everything and returns the first error.
func TestCloseFirstError(t *testing.T) {
	n := 0
	first, second := errors.New("first"), errors.New("second")
	f := &File{closers: []io.Closer{closer{nil, &n}, closer{first, &n}, closer{second, &n}, closer{nil, &n}}}
	if err := f.Close(); err != first || n != 4 {
		t.Errorf("Close = %v after %d closes, want %v after 4", err, n, first)
	}
}

// failing returns its text, then err.
type failing struct {
	text string
	err  error
}

func (f *failing) Read(p []byte) (int, error) {
	if f.text == "" {
		return 0, f.err
	}
	n := copy(p, f.text)
	f.text = f.text[n:]
	return n, nil
}

// TestReadError: an error of the underlying reader after the last complete
// line is a *ParseError naming the next line, and wraps the error.
func TestReadError(t *testing.T) {
	broken := errors.New("disk on fire")
	r := NewReader(&failing{text: goodLine + goodLine, err: broken})
	r.Name = "f.swf"
	jobs, err := r.ReadAll()
	var pe *ParseError
	if len(jobs) != 2 || !errors.Is(err, broken) || !errors.As(err, &pe) || pe.Line != 3 || pe.File != "f.swf" {
		t.Errorf("read %d jobs, error %v; want 2 and the reader's error at line 3", len(jobs), err)
	}
}

// TestLongIntegers: integers of up to 18 digits read exactly (beyond
// float64's 53 bits); a lone "-" is not a number.
func TestLongIntegers(t *testing.T) {
	j, err := NewReader(strings.NewReader(lineWith(0, "123456789012345678"))).Read()
	if err != nil || j.ID != 123456789012345678 {
		t.Errorf("18-digit ID read as %d, %v", j.ID, err)
	}
	j, err = NewReader(strings.NewReader(lineWith(1, "-000000000000000001"))).Read()
	if err != nil || j.Submit != -1 {
		t.Errorf("-000000000000000001 read as %d, %v", j.Submit, err)
	}
	if _, err := NewReader(strings.NewReader(lineWith(3, "-"))).Read(); !errors.Is(err, ErrNotInteger) {
		t.Errorf(`"-" as a runtime: %v, want %v`, err, ErrNotInteger)
	}
}

// TestExtraFieldText: text in a 19th field is a wrong field count, not a
// bad number; the message quotes at most 120 bytes of the line.
func TestExtraFieldText(t *testing.T) {
	_, err := NewReader(strings.NewReader(strings.TrimSuffix(goodLine, "\n") + " x\n")).Read()
	if !errors.Is(err, ErrFieldCount) {
		t.Errorf("19 fields ending in text: %v, want %v", err, ErrFieldCount)
	}
	long := strings.TrimSuffix(goodLine, "\n") + strings.Repeat(" 7", 40) + "\n"
	_, err = NewReader(strings.NewReader(long)).Read()
	var pe *ParseError
	if !errors.As(err, &pe) || len(pe.Text) != 120 || !strings.HasSuffix(pe.Text, "...") {
		t.Errorf("long line: %v, want its first 117 bytes and ...", err)
	}
	exact := goodLine[:len(goodLine)-1]
	exact += strings.Repeat(" ", 120-len(exact)-2) + " 7\n"
	_, err = NewReader(strings.NewReader(exact)).Read()
	if !errors.As(err, &pe) || pe.Text != exact[:120] {
		t.Errorf("line of 120 bytes: %v, want it whole", err)
	}
}
