package resample_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/trace"
)

func TestParseRarePeriod(t *testing.T) {
	for _, c := range []struct {
		in   string
		want resample.RarePeriod
	}{
		{"12", resample.RarePeriod{User: 12, Begin: 0, End: 1<<62 - 1}},
		{"0:100-200", resample.RarePeriod{User: 0, Begin: 100, End: 200}},
		{"7:5-5", resample.RarePeriod{User: 7, Begin: 5, End: 5}},
	} {
		got, err := resample.ParseRarePeriod(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseRarePeriod(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if back, err := resample.ParseRarePeriod(got.String()); err != nil || back != got {
			t.Errorf("%q: String %q reads back as %+v, %v", c.in, got.String(), back, err)
		}
	}
	for _, in := range []string{"", "x", "-1", "12:", "12:100", "12:200-100", "12:a-2", "12:1-b", "99999999999"} {
		if r, err := resample.ParseRarePeriod(in); err == nil || !strings.Contains(err.Error(), "USER:BEGIN-END") {
			t.Errorf("ParseRarePeriod(%q) = %+v, %v; want an error showing the form", in, r, err)
		}
	}
}

// withFlurries adds n jobs of user u in week w of a synth log, on Tuesday
// from 10:00, one a second.
func withFlurries(tr *trace.Trace, flurries ...[3]int) *trace.Trace {
	for _, f := range flurries {
		u, w, n := int32(f[0]), f[1], f[2]
		for i := range n {
			j := tr.Jobs[0]
			j.User, j.Submit = u, int64(w*week+day+10*3600+i)
			tr.Jobs = append(tr.Jobs, j)
		}
	}
	tr.SortBySubmit()
	for i := range tr.Jobs {
		tr.Jobs[i].ID = int64(i + 1)
	}
	return tr
}

// TestDetectRare checks the detector's rule: a user-week with more than
// Factor times the user's median weekly count and more than MinJobs jobs
// is rare, and adjacent rare weeks of a user make one period. Every user
// of the synth log has 5 jobs a week.
func TestDetectRare(t *testing.T) {
	for _, c := range []struct {
		name     string
		det      resample.RareDetector
		flurries [][3]int // user, week, extra jobs
		want     []resample.RarePeriod
	}{
		// Factor 5 (25 jobs): user 1's weeks 15 and 16 (26 jobs) are rare
		// and merge; user 2's week 20 (25 jobs) is not.
		{"factor", resample.RareDetector{Factor: 5, MinJobs: 10}, [][3]int{{1, 15, 21}, {1, 16, 21}, {2, 20, 20}},
			[]resample.RarePeriod{{User: 1, Begin: 15 * week, End: 17*week - 1}}},
		// MinJobs 30: user 1's week 15 (31 jobs) is rare, user 3's week 10
		// (30 jobs) is not.
		{"least jobs", resample.RareDetector{Factor: 2, MinJobs: 30}, [][3]int{{1, 15, 26}, {3, 10, 25}},
			[]resample.RarePeriod{{User: 1, Begin: 15 * week, End: 16*week - 1}}},
		{"two periods", resample.RareDetector{Factor: 5, MinJobs: 20}, [][3]int{{1, 15, 60}, {1, 17, 60}, {2, 20, 22}},
			[]resample.RarePeriod{{User: 1, Begin: 15 * week, End: 16*week - 1}, {User: 1, Begin: 17 * week, End: 18*week - 1},
				{User: 2, Begin: 20 * week, End: 21*week - 1}}},
		// The defaults: more than 10 times the median and more than 500
		// jobs.
		{"defaults", resample.RareDetector{}, [][3]int{{1, 15, 496}, {2, 5, 495}, {3, 12, 40}},
			[]resample.RarePeriod{{User: 1, Begin: 15 * week, End: 16*week - 1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := withFlurries(synth(30, "UTC", spans30), c.flurries...)
			p, err := resample.Classify(tr, resample.ClassifyOptions{Detect: &c.det})
			if err != nil {
				t.Fatal(err)
			}
			var got []resample.RarePeriod
			for _, u := range p.Rare {
				got = append(got, *u.Period)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("rare periods %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestRarePeriodBackwards(t *testing.T) {
	_, err := resample.Classify(synth(30, "UTC", spans30), resample.ClassifyOptions{Rare: []resample.RarePeriod{{User: 1, Begin: 10, End: 9}}})
	if err == nil || !strings.Contains(err.Error(), "ends before it begins") {
		t.Errorf("error %v, want one saying the period ends before it begins", err)
	}
}

// TestDetectRareUserZero: user 0 is a user like any other for the
// detector: its week 15 (26 jobs against 5 a week) is rare.
func TestDetectRareUserZero(t *testing.T) {
	tr := synth(30, "UTC", spans30)
	for i := range tr.Jobs {
		if tr.Jobs[i].User == 1 {
			tr.Jobs[i].User = 0
		}
	}
	tr = withFlurries(tr, [3]int{0, 15, 21})
	p, err := resample.Classify(tr, resample.ClassifyOptions{Detect: &resample.RareDetector{Factor: 5, MinJobs: 10}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rare) != 1 || *p.Rare[0].Period != (resample.RarePeriod{User: 0, Begin: 15 * week, End: 16*week - 1}) {
		t.Errorf("%d rare behaviours, want user 0's week 15", len(p.Rare))
	}
}

// TestDetectRareEvenMedian: the median of an even number of weekly counts
// is the mean of the two middle ones. User 6 of spans30 (5 jobs in weeks
// 12 and 14) is given 10 jobs in week 13 and 18 in week 20: counts 5, 5,
// 10, 18, median 7.5; with factor 2 week 20 is rare (18 > 15), which the
// upper middle count alone (10, 20) would not make it.
func TestDetectRareEvenMedian(t *testing.T) {
	tr := withFlurries(synth(30, "UTC", spans30), [3]int{6, 13, 5}, [3]int{6, 20, 18})
	p, err := resample.Classify(tr, resample.ClassifyOptions{Detect: &resample.RareDetector{Factor: 2, MinJobs: 10}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rare) != 1 || *p.Rare[0].Period != (resample.RarePeriod{User: 6, Begin: 20 * week, End: 21*week - 1}) {
		t.Errorf("%d rare behaviours, want user 6's week 20", len(p.Rare))
	}
}
