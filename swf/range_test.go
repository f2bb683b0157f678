package swf

import (
	"errors"
	"strings"
	"testing"
)

// lineWith returns goodLine with field i (0-based) set to v.
func lineWith(i int, v string) string {
	f := strings.Fields(goodLine)
	f[i] = v
	return strings.Join(f, " ") + "\n"
}

// TestBelowMinusOne: -1 (unknown) is the only negative value the standard
// allows, except in the think time (field 18), where a negative value is a
// dependency on a job that ended later. Every other field rejects -2, as an
// integer ("-2") or written as a decimal ("-2.0", "-1.5"), with its field
// number; the lenient reader reads it as -1 and counts it.
func TestBelowMinusOne(t *testing.T) {
	for i := range NumFields {
		for _, v := range []string{"-2", "-2.0", "-1.5", "-1000000"} {
			if !floatField(i) && v == "-1.5" {
				continue // a fraction in an integer field fails for another reason
			}
			line := lineWith(i, v)
			r := NewReader(strings.NewReader(line))
			j, err := r.Read()
			if negativeAllowed(i) {
				if err != nil {
					t.Errorf("field %d = %s: %v", i+1, v, err)
				} else if want := mustInt(t, v); j.ThinkTime != want {
					t.Errorf("think time %s read as %d", v, j.ThinkTime)
				}
				continue
			}
			var pe *ParseError
			if !errors.Is(err, ErrNegative) || !errors.As(err, &pe) || pe.Field != i+1 || pe.Text != v {
				t.Errorf("field %d = %s: err %v, want %v at field %d", i+1, v, err, ErrNegative, i+1)
			}
			r = NewReader(strings.NewReader(line))
			r.Lenient = true
			j, err = r.Read()
			if err != nil {
				t.Errorf("lenient, field %d = %s: %v", i+1, v, err)
				continue
			}
			var want [NumFields]int
			want[i] = 1
			if r.Replaced() != want || jobFields(j)[i] != Unknown {
				t.Errorf("lenient, field %d = %s: read %v, replaced %v", i+1, v, jobFields(j)[i], r.Replaced())
			}
		}
	}
}

// TestMinusOneAndSmallValues: -1, 0 and values between -1 and 0 in the
// real-valued fields are read as they are.
func TestMinusOneAndSmallValues(t *testing.T) {
	for _, c := range []struct {
		field int
		v     string
		want  float64
	}{
		{5, "-1", -1}, {5, "-1.0", -1}, {5, "0.5", 0.5}, {5, "-0.5", -0.5}, {6, "0", 0}, {9, "0.25", 0.25},
		{3, "-1.0", -1}, {3, "0", 0}, {17, "-7", -7}, {17, "-1", -1}, {16, "-1", -1},
	} {
		j, err := NewReader(strings.NewReader(lineWith(c.field, c.v))).Read()
		if err != nil {
			t.Errorf("field %d = %s: %v", c.field+1, c.v, err)
			continue
		}
		if got := jobFields(j)[c.field]; got != c.want {
			t.Errorf("field %d = %s read as %v", c.field+1, c.v, got)
		}
	}
}

// TestIndentedComments: a line whose first non-blank character is ';' is a
// comment wherever it is, indented by spaces or tabs; blank lines (also of
// blanks only) and CR LF endings are skipped.
func TestIndentedComments(t *testing.T) {
	in := "  ; MaxProcs: 8\r\n\t; Note: indented by a tab\n \t \n" + goodLine + "   ; a comment between jobs\n\n" +
		strings.Replace(goodLine, "1 0 10", "2 5 10", 1) + "\t;\n"
	r := NewReader(strings.NewReader(in))
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 || jobs[1].ID != 2 || jobs[1].Submit != 5 {
		t.Fatalf("read %d jobs %+v, want 2", len(jobs), jobs)
	}
	h, _ := r.Header()
	if p, ok := h.MaxProcs(); !ok || p != 8 {
		t.Errorf("MaxProcs %d %v, want 8", p, ok)
	}
	var got []string
	for _, l := range h.Lines {
		got = append(got, l.Raw)
	}
	want := []string{"; MaxProcs: 8", "; Note: indented by a tab", "; a comment between jobs", ";"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("header lines %q, want %q", got, want)
	}
	if r.Line() != 8 {
		t.Errorf("line %d, want 8", r.Line())
	}
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	f, ok := parseDecimal([]byte(s))
	if !ok {
		t.Fatalf("parseDecimal(%q) failed", s)
	}
	return int64(f)
}

// jobFields returns the fields of j in file order, as float64.
func jobFields(j Job) [NumFields]float64 {
	return [NumFields]float64{float64(j.ID), float64(j.Submit), float64(j.Wait), float64(j.Runtime), float64(j.Procs),
		j.AvgCPU, j.UsedMem, float64(j.ReqProcs), float64(j.ReqTime), j.ReqMem, float64(j.Status), float64(j.User),
		float64(j.Group), float64(j.App), float64(j.Queue), float64(j.Partition), float64(j.Preceding), float64(j.ThinkTime)}
}
