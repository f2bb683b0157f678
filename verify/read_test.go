package verify_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/verify"
)

// TestReadJobsCSVEdges reads the limits of each column: a job of one
// processor, a start at time 0 and a job that ends when it starts (both
// valid), times rounded to the nearest second, times up to 10^15, an id
// "!7", a header with a byte-order mark and in another column order, and
// a range of one processor.
func TestReadJobsCSVEdges(t *testing.T) {
	in := "\ufefffinish_time,starting_time,job_id,requested_number_of_resources,submission_time,allocated_resources\n" +
		"0,0,!7,1,0,3-3\n" +
		"10.6,10.4,8,2,1000000000000000,0 1\n" +
		"5,-1,9,1,2,\n"
	es, err := verify.ReadJobsCSV(strings.NewReader(in), "jobs.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []verify.Entry{
		{ID: 7, Submit: 0, Procs: 1, Start: 0, End: 0, Line: 2, Alloc: []verify.Interval{{3, 3}}},
		{ID: 8, Submit: 1e15, Procs: 2, Start: 10, End: 11, Line: 3, Alloc: []verify.Interval{{0, 0}, {1, 1}}},
		{ID: 9, Submit: 2, Procs: 1, Start: -1, End: -1, Line: 4},
	}
	if !reflect.DeepEqual(es, want) {
		t.Fatalf("got %+v, want %+v", es, want)
	}
	head := "job_id,submission_time,requested_number_of_resources,starting_time,finish_time\n"
	for _, bad := range []struct{ in, msg string }{
		{head + "1,0,2.5,0,1\n", "line 2: column requested_number_of_resources=\"2.5\": expected a positive whole number"},
		{head + "1,0,0,0,1\n", "column requested_number_of_resources=\"0\": expected a positive whole number"},
		{head + "1,1000000000000001,1,0,1\n", "column submission_time=\"1000000000000001\": expected a number"},
		{head + "1,,1,0,1\n", "column submission_time=\"\": expected a number"},
		{head + "1,0,1,NaN,1\n", "column starting_time=\"NaN\": expected a number"},
		{head + "1,0,1,0,-Inf\n", "column finish_time=\"-Inf\": expected a number"},
		{head + "1,0,1,4,3\n", "line 2: column finish_time=\"3\": finishes before its start 4"},
		{"", "empty file"},
	} {
		if _, err := verify.ReadJobsCSV(strings.NewReader(bad.in), "j.csv"); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%q: got error %v, want one with %q", bad.in, err, bad.msg)
		}
	}
}

func TestParseIntervals(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []verify.Interval
		err  bool
	}{
		{"0", []verify.Interval{{0, 0}}, false},
		{"0-0 2-5  9", []verify.Interval{{0, 0}, {2, 5}, {9, 9}}, false},
		{"", nil, false},
		{"5-4", nil, true},
		{"-1", nil, true},
		{"a-2", nil, true},
		{"1-b", nil, true},
	} {
		got, err := verify.ParseIntervals(c.in)
		if (err != nil) != c.err || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseIntervals(%q) = %v, %v; want %v, error %v", c.in, got, err, c.want, c.err)
		}
	}
}
