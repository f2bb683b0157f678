package lublin

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestNewStartHourBounds checks the start hour's range [0, 24): 0 and 23.99
// are accepted, 24 and −0.01 refused with the value named.
func TestNewStartHourBounds(t *testing.T) {
	for _, c := range []struct {
		hour float64
		err  string
	}{
		{0, ""}, {23.99, ""},
		{24, "start hour 24: must be in [0, 24)"},
		{-0.01, "start hour -0.01: must be in [0, 24)"},
	} {
		_, err := New(Config{Params: DefaultParams(Whole), Jobs: 1, StartHour: c.hour})
		if c.err == "" {
			if err != nil {
				t.Errorf("start hour %v: %v", c.hour, err)
			}
			continue
		}
		if !errors.Is(err, ErrInvalidParams) || !strings.HasSuffix(err.Error(), c.err) {
			t.Errorf("start hour %v: err = %v, want %q", c.hour, err, c.err)
		}
	}
}

// TestHeaderOptionalNotes checks that the header notes the machine size and
// the load target only when they were given: a run of the default
// parameters with neither has no "Machine:" and no "Load:" note, one on 64
// processors at load 0.7 has both.
func TestHeaderOptionalNotes(t *testing.T) {
	for _, c := range []struct {
		procs int
		load  float64
		want  []string // note prefixes present; the others absent
	}{
		{0, 0, nil},
		{64, 0, []string{"Machine: 64 processors"}},
		{0, 0.7, []string{"Load: target 0.7, a_arr multiplied by "}},
		{64, 0.7, []string{"Machine: 64 processors", "Load: target 0.7, a_arr multiplied by "}},
	} {
		h, _, err := Generate(Config{Params: DefaultParams(Whole), Jobs: 5, Seed: 1, Procs: c.procs, Load: c.load})
		if err != nil {
			t.Fatal(err)
		}
		notes := h.GetAll("Note")
		for _, prefix := range []string{"Machine: 64 processors", "Load: target 0.7, a_arr multiplied by "} {
			kind := strings.SplitN(prefix, ":", 2)[0] + ":"
			var got []string
			for _, n := range notes {
				if strings.HasPrefix(n, kind) {
					got = append(got, n)
				}
			}
			if !slices.Contains(c.want, prefix) {
				if len(got) != 0 {
					t.Errorf("procs %d, load %v: notes %q", c.procs, c.load, got)
				}
				continue
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], prefix) {
				t.Errorf("procs %d, load %v: notes %q, want one %q", c.procs, c.load, got, prefix)
			}
		}
	}
}
