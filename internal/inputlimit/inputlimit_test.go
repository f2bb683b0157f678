package inputlimit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// endless yields an unbounded run of one byte: a reader that waited for the
// end of the line would never return.
type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

func TestLines(t *testing.T) {
	long := strings.Repeat("x", 11)
	tests := []struct {
		name, in string
		line     int // 0: no error
	}{
		{"short lines", "abc\ndefghij\n", 0},
		{"exactly the limit", strings.Repeat("y", 10) + "\n" + strings.Repeat("z", 10), 0},
		{"first line too long", long + "\nok\n", 1},
		{"third line too long", "a\n\nb" + long, 3},
		{"carriage return counts", strings.Repeat("y", 10) + "\r\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := io.ReadAll(Lines(strings.NewReader(tt.in), "f.swf", 10))
			if tt.line == 0 {
				if err != nil || string(out) != tt.in {
					t.Fatalf("got %q, %v; want the input back", out, err)
				}
				return
			}
			var le *Error
			if !errors.As(err, &le) || !errors.Is(err, ErrTooLong) {
				t.Fatalf("err = %v, want an *Error wrapping ErrTooLong", err)
			}
			if le.Line != tt.line || le.File != "f.swf" || le.What != "line" || le.Limit != 10 {
				t.Errorf("error %+v, want line %d of f.swf", *le, tt.line)
			}
			if !strings.Contains(err.Error(), "f.swf: line") {
				t.Errorf("message %q does not name file and line", err)
			}
		})
	}
}

func TestLinesEndlessInputStops(t *testing.T) {
	n, err := io.Copy(io.Discard, Lines(endless('7'), "big.swf.gz", MaxLine))
	if !errors.Is(err, ErrTooLong) {
		t.Fatalf("err = %v", err)
	}
	if n != MaxLine {
		t.Errorf("passed %d bytes before refusing, want exactly the limit %d", n, MaxLine)
	}
}

func TestJSONValues(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		what     string
	}{
		{"short values on one line", `{"a":"abc","b":[1,2.5e3,-4],"c":"x\"y"}`, 0, ""},
		{"long string", "{\n\"a\":\"" + strings.Repeat("s", 9) + `"}`, 2, "JSON string"},
		{"long number", "[1,\n\n" + strings.Repeat("9", 9) + "]", 3, "JSON number"},
		{"escaped quote does not end the string", `["` + strings.Repeat(`\"`, 5) + `"]`, 1, "JSON string"},
		{"many short values add up to nothing", `[` + strings.Repeat(`"abcd",12345,`, 1000) + `0]`, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := io.ReadAll(JSONValues(strings.NewReader(tt.in), "w.json", 8))
			if tt.line == 0 {
				if err != nil || string(out) != tt.in {
					t.Fatalf("got %q, %v; want the input back", out, err)
				}
				return
			}
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want an *Error", err)
			}
			if le.Line != tt.line || le.What != tt.what {
				t.Errorf("error %+v, want %s at line %d", *le, tt.what, tt.line)
			}
		})
	}
}

func TestJSONValuesUnderDecoder(t *testing.T) {
	in := `{"jobs":[{"id":1,"subtime":` + strings.Repeat("1", 100) + `}]}`
	var v any
	err := json.NewDecoder(JSONValues(strings.NewReader(in), "w.json", 64)).Decode(&v)
	if !errors.Is(err, ErrTooLong) {
		t.Fatalf("decoder error %v, want ErrTooLong through it", err)
	}
	var ok any
	if err := json.NewDecoder(JSONValues(bytes.NewReader([]byte(`{"a":[1,2,"x"]}`)), "", 64)).Decode(&ok); err != nil {
		t.Fatal(err)
	}
}

func TestJSONValuesEndlessNumberStops(t *testing.T) {
	n, err := io.Copy(io.Discard, JSONValues(endless('5'), "w.json", MaxToken))
	if !errors.Is(err, ErrTooLong) || n != MaxToken {
		t.Fatalf("passed %d bytes, err %v; want %d and ErrTooLong", n, err, MaxToken)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small, big := dir+"/small.json", dir+"/big.json"
	if err := os.WriteFile(small, []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, bytes.Repeat([]byte(" "), 101), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(small, 100); err != nil || string(data) != `{"a":1}` {
		t.Errorf("small file: %q, %v", data, err)
	}
	if _, err := ReadFile(big, 100); !errors.Is(err, ErrTooLong) || !strings.Contains(err.Error(), big) {
		t.Errorf("big file: %v, want ErrTooLong naming the file", err)
	}
	if _, err := ReadFile(dir+"/absent.json", 100); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent file: %v", err)
	}
}
