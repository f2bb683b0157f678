package swf

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/hpcwl/hpcwl/internal/inputlimit"
)

// Causes of a [ParseError]; test for them with errors.Is.
var (
	ErrFieldCount = errors.New("wrong number of fields")
	ErrNotInteger = errors.New("expected an integer")
	ErrNotNumber  = errors.New("expected a number")
	ErrNegative   = errors.New("expected -1 (unknown) or a value >= 0")
	ErrEmpty      = errors.New("empty input: no header and no jobs")
	// ErrLineTooLong: a line longer than 1 MiB (inputlimit.MaxLine). An SWF
	// job line is about 100 bytes; the reader stops at the limit instead of
	// reading the rest of the line into memory.
	ErrLineTooLong = fmt.Errorf("line longer than %d bytes (is this an SWF log?): %w",
		inputlimit.MaxLine, inputlimit.ErrTooLong)
)

// ParseError reports malformed input with its position.
type ParseError struct {
	File  string // file name, or "" when unknown
	Line  int    // 1-based line number
	Field int    // 1-based SWF field number, or 0 when the error is not about one field
	Text  string // the offending text (a field's value, or the line)
	Err   error  // the cause, often one of the Err... sentinels
}

// Error formats the error as "file: line N: field F (Name): "text": cause".
func (e *ParseError) Error() string {
	s := ""
	if e.File != "" {
		s = e.File + ": "
	}
	if e.Line > 0 {
		s += fmt.Sprintf("line %d: ", e.Line)
	}
	if e.Field > 0 && e.Field <= NumFields {
		s += fmt.Sprintf("field %d (%s): ", e.Field, FieldNames[e.Field-1])
	}
	if e.Text != "" {
		s += quotePrefix(e.Text) + ": "
	}
	return s + e.Err.Error()
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// maxQuoted is the longest text an error message quotes whole.
const maxQuoted = 80

// quotePrefix quotes text, or only its first bytes and its length when it is
// long, so that a malformed multi-megabyte line does not flood the terminal.
func quotePrefix(text string) string {
	if len(text) <= maxQuoted {
		return fmt.Sprintf("%q", text)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return fmt.Sprintf("%q... (%d bytes)", text[:cut], len(text))
}
