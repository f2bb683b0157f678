package swf

import (
	"errors"
	"strings"
	"testing"
)

func TestLenientOutOfRange(t *testing.T) {
	tests := []struct {
		name     string
		lenient  bool
		wantErr  error
		wantLine int
		field    int
	}{
		{"strict rejects status -4 with its position", false, ErrNegative, 11, 11},
		{"lenient reads it as unknown", true, nil, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Open("../internal/testdata/odd/status.swf")
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			f.Lenient = tc.lenient
			jobs, err := f.ReadAll()
			if tc.wantErr != nil {
				var pe *ParseError
				if !errors.Is(err, tc.wantErr) || !errors.As(err, &pe) || pe.Line != tc.wantLine || pe.Field != tc.field {
					t.Fatalf("err = %v, want %v at line %d field %d", err, tc.wantErr, tc.wantLine, tc.field)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(jobs) != 8 {
				t.Fatalf("read %d jobs, want 8", len(jobs))
			}
			if jobs[2].Status != Unknown || jobs[4].Status != Unknown || jobs[4].Runtime != Unknown {
				t.Errorf("out-of-range values not unknown: job 3 status %d, job 5 status %d run %d",
					jobs[2].Status, jobs[4].Status, jobs[4].Runtime)
			}
			if jobs[5].Status != 7 {
				t.Errorf("status 7 (readable) = %d, want kept", jobs[5].Status)
			}
			var want [NumFields]int
			want[3], want[10] = 1, 2
			if got := f.Replaced(); got != want {
				t.Errorf("Replaced() = %v, want %v", got, want)
			}
		})
	}
}

func TestLenientStillRejectsMalformed(t *testing.T) {
	for _, line := range []string{
		"1 0 10 100 4 -1 -1 4 3600 -1 1 1 1 -1 -1 -1 -1",    // 17 fields
		"1 0 10 abc 4 -1 -1 4 3600 -1 1 1 1 -1 -1 -1 -1 -1", // text
		"1 0 10 1.5 4 -1 -1 4 3600 -1 1 1 1 -1 -1 -1 -1 -1", // fraction in an integer field
	} {
		r := NewReader(strings.NewReader(line + "\n"))
		r.Lenient = true
		if _, err := r.Read(); err == nil {
			t.Errorf("lenient read of %q: no error", line)
		}
	}
}
