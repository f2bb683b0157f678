package resample_test

import (
	"math"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/trace"
)

// manyTemporary is a 30-week log with the long-term users of spans30 and
// 60 temporary users, active from week 6 to 18 for 1 to 7 weeks each, far
// from both ends of the log.
func manyTemporary(t *testing.T) *resample.Pools {
	t.Helper()
	spans := map[int32][2]int{1: {0, 29}, 2: {2, 20}, 3: {10, 29}, 4: {0, 13}}
	for u := int32(5); u < 65; u++ {
		a := 6 + int(u*7)%13
		spans[u] = [2]int{a, a + int(u)%7}
	}
	p, err := resample.Classify(synth(30, "UTC", spans), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.LongTerm) != 4 || len(p.Temporary) != 60 {
		t.Fatalf("%d long-term and %d temporary users, want 4 and 60", len(p.LongTerm), len(p.Temporary))
	}
	return p
}

// arrivalWeek returns the week in which a temporary copy's user starts:
// 0 or less for the users present at the start (drawn from a week of
// their activity moved to week 0), k >= 1 for an arrival of week k.
func arrivalWeek(c *resample.Copy) int { return c.Shift + c.Sub().FirstWeek }

// TestTemporaryArrivals checks that new temporary users arrive every week
// of the generated period, r_T' = f |T| / L_w of them on average (Zakay's
// thesis, chapter 3, section 4), at load factors 1 and 2.5. Arrivals of
// one week are a sum of Bernoulli draws, so their total over K weeks and S
// streams has a variance at most its mean m: the tolerance is 4 sqrt(m).
func TestTemporaryArrivals(t *testing.T) {
	p := manyTemporary(t)
	const streams = 10
	for _, f := range []float64{1, 2.5} {
		var got, firstHalf, want float64
		for s := uint64(0); s < streams; s++ {
			w, err := p.Generate(resample.Options{Seed: 5, Stream: s, LoadFactor: f, Duration: 104 * week})
			if err != nil {
				t.Fatal(err)
			}
			if r := f * float64(len(p.Temporary)) / float64(p.Weeks()); w.Params.WeeklyRate != r {
				t.Fatalf("load factor %v: weekly rate %v, want f |T| / L_w = %v", f, w.Params.WeeklyRate, r)
			}
			// Weeks 1 to k hold every job of their arrivals; arrivals of
			// the last, partial week may fall after the end.
			k := 0
			for w.WeekStart(k+2) <= w.Params.Duration {
				k++
			}
			want += w.Params.WeeklyRate * float64(k)
			for i := range w.Copies {
				c := &w.Copies[i]
				if a := arrivalWeek(c); c.Class == resample.Temporary && a >= 1 && a <= k {
					got++
					if a <= k/2 {
						firstHalf++
					}
				}
			}
		}
		tol := 4 * math.Sqrt(want)
		t.Logf("load factor %v: %.0f arrivals in weeks 1 to the last whole week, want %.1f ± %.1f", f, got, want, tol)
		if !(math.Abs(got-want) <= tol) {
			t.Errorf("load factor %v: %.0f temporary arrivals, want %.1f ± %.1f", f, got, want, tol)
		}
		// Half of them in each half of the period (a binomial proportion
		// of about got trials, tolerance four standard errors).
		if h, tol := firstHalf/got, 4*math.Sqrt(0.25/got); !(math.Abs(h-0.5) <= tol+1/got) {
			t.Errorf("load factor %v: %.3f of the arrivals in the first half of the weeks, want 0.5 ± %.3f", f, h, tol)
		}
	}
}

// TestInitialTemporaryScalesWithLoad checks that the temporary users
// present at the start number f N_T0 on average, N_T0 the mean number of
// temporary users active in a week of the log (the sum of their weeks
// active over L_w). Each generation draws a Poisson number, so the total
// over S streams is Poisson: the tolerance is 4 sqrt(mean).
func TestInitialTemporaryScalesWithLoad(t *testing.T) {
	p := manyTemporary(t)
	active := 0
	for _, u := range p.Temporary {
		active += u.WeeksActive
	}
	nt0 := float64(active) / float64(p.Weeks())
	const streams = 40
	for _, f := range []float64{1, 3} {
		got := 0.0
		for s := uint64(0); s < streams; s++ {
			w, err := p.Generate(resample.Options{Seed: 9, Stream: s, LoadFactor: f, Duration: 2 * week})
			if err != nil {
				t.Fatal(err)
			}
			if w.Params.InitialTemporary != f*nt0 {
				t.Fatalf("load factor %v: n_t0 %v, want %v", f, w.Params.InitialTemporary, f*nt0)
			}
			for i := range w.Copies {
				if c := &w.Copies[i]; c.Class == resample.Temporary && arrivalWeek(c) <= 0 {
					got++
				}
			}
		}
		want := streams * f * nt0
		tol := 4 * math.Sqrt(want)
		t.Logf("load factor %v: %.0f initial temporary users over %d streams, want %.1f ± %.1f", f, got, streams, want, tol)
		if !(math.Abs(got-want) <= tol) {
			t.Errorf("load factor %v: %.0f initial temporary users over %d streams, want %.1f ± %.1f", f, got, streams, want, tol)
		}
	}
}

// TestWeeksStartOnMonday checks that the weeks of a generated workload
// begin at Monday 00:00 local time, across daylight-saving changes, for a
// log that starts on a Thursday afternoon in Stockholm.
func TestWeeksStartOnMonday(t *testing.T) {
	tr := synth(30, "Europe/Stockholm", spans30)
	// Thursday 4 January 2001, 14:30:20 UTC: 15:30:20 in Stockholm.
	tr.Header.Set("UnixStartTime", "978618620")
	p, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := p.Generate(resample.Options{Seed: 1, Duration: 60 * week})
	if err != nil {
		t.Fatal(err)
	}
	// Week 0 began on Monday 1 January, 00:00 local: 3 days, 15 h 30 min
	// 20 s before time 0.
	if got, want := w.WeekStart(0), -int64(3*day+15*3600+30*60+20); got != want {
		t.Errorf("week 0 starts at %d, want %d", got, want)
	}
	// 60 weeks from a Thursday touch 61 weeks.
	if w.Params.Weeks != 61 {
		t.Errorf("%d weeks, want 61", w.Params.Weeks)
	}
	clk := tr.Clock()
	for k := 0; k <= w.Params.Weeks; k++ {
		s := clk.Time(w.WeekStart(k))
		if s.Weekday() != time.Monday || s.Hour() != 0 || s.Minute() != 0 || s.Second() != 0 {
			t.Errorf("week %d starts %v, not on Monday 00:00", k, s)
		}
	}
	checkAligned(t, tr, w)
}

// TestKTHTwoYears pins a deterministic result: KTH-SP2 resampled for 104
// weeks at seed 1 (stream 0) with the default options gives 57,401 jobs
// from 471 copies of users. Any change to the draws, the classification or
// the calendar moves it.
func TestKTHTwoYears(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := resample.Generate(tr, resample.ClassifyOptions{}, resample.Options{Seed: 1, Duration: 104 * week})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Jobs) != 57401 || len(w.Copies) != 471 {
		t.Errorf("%d jobs from %d copies, want 57401 from 471", len(w.Jobs), len(w.Copies))
	}
}

// TestArrivalsWithPreferenceAndRare: with a preference the weekly arrivals
// still number r_T' a week on average, also when a preferred user's share
// of the weights times r_T' exceeds 1 (several rounds of draws a week);
// with rare behaviours, RB_NPW of them a week replace temporary arrivals.
// Both counts over 10 streams of 20 weeks are sums of Bernoulli draws:
// tolerance four standard errors, 4 sqrt(mean).
func TestArrivalsWithPreferenceAndRare(t *testing.T) {
	spans := map[int32][2]int{1: {0, 29}, 2: {2, 20}, 3: {10, 29}, 4: {0, 13}}
	for u := int32(5); u < 65; u++ {
		a := 6 + int(u*7)%13
		spans[u] = [2]int{a, a + int(u)%7}
	}
	p, err := resample.Classify(synth(30, "UTC", spans), resample.ClassifyOptions{
		Rare: []resample.RarePeriod{{User: 1, Begin: 3 * week, End: 4 * week}}})
	if err != nil {
		t.Fatal(err)
	}
	pref := &resample.Preference{Feature: resample.FeatureJobs, High: true, Bias: 20}
	const streams = 10
	var got, rare, want, wantRare float64
	minRare, maxRare, last := 1<<30, 0, 0 // rare arrival weeks, last whole week
	for s := uint64(0); s < streams; s++ {
		w, err := p.Generate(resample.Options{Seed: 5, Stream: s, LoadFactor: 20, RBNPW: 1, Prefer: pref, Duration: 20 * week})
		if err != nil {
			t.Fatal(err)
		}
		if s == 0 {
			wt := p.Weights(p.Temporary, pref)
			sum, hi := 0.0, 0.0
			for _, x := range wt {
				sum, hi = sum+x, max(hi, x)
			}
			if r := w.Params.WeeklyRate * hi / sum; r <= 1 {
				t.Fatalf("r_T' times the largest share %v: want above 1, for several rounds", r)
			}
		}
		k := 0
		for w.WeekStart(k+2) <= w.Params.Duration {
			k++
		}
		want += w.Params.WeeklyRate * float64(k)
		wantRare += float64(k)
		last = k
		for i := range w.Copies {
			c := &w.Copies[i]
			if c.Class != resample.LongTerm && c.Slot != -1 {
				t.Fatalf("a %s copy in slot %d: only long-term copies have a slot", c.Class, c.Slot)
			}
			if a := arrivalWeek(c); c.Class != resample.LongTerm && a >= 1 && a <= k {
				got++
				if c.Class == resample.Rare {
					rare++
					minRare, maxRare = min(minRare, a), max(maxRare, a)
				}
			}
		}
	}
	if tol := 4 * math.Sqrt(want); !(math.Abs(got-want) <= tol) {
		t.Errorf("%.0f arrivals, want %.1f ± %.1f", got, want, tol)
	}
	if tol := 4 * math.Sqrt(wantRare); !(math.Abs(rare-wantRare) <= tol) {
		t.Errorf("%.0f rare behaviours, want %.1f ± %.1f", rare, wantRare, tol)
	}
	// About 19 a week over 10 streams: some in week 1 and in the last.
	if minRare != 1 || maxRare != last {
		t.Errorf("rare behaviours arrive in weeks %d to %d, want 1 to %d", minRare, maxRare, last)
	}
}
