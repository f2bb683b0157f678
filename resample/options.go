package resample

import (
	"fmt"
	"math"
	"strconv"
)

// Ranges of the generator's options.
const (
	// MaxLoadFactor is the largest load factor accepted.
	MaxLoadFactor = 100
	// MinDuration and MaxDuration bound the generated duration, in seconds:
	// one week to 5200 weeks (99.7 years of 365.25 days).
	MinDuration = Week
	MaxDuration = 100 * 52 * Week
)

// Options control [Pools.Generate]. The zero value of each field means its
// documented default.
type Options struct {
	// Duration is the length of the generated workload in seconds, from
	// relative time 0; 0 means the log's length (Pools.End - Pools.Start).
	// Valid: MinDuration to MaxDuration.
	Duration int64
	// LoadFactor scales the number of users: long-term users, temporary
	// users at the start and the weekly arrival rate of temporary users
	// (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 3, section 6). 0 means 1; valid: above 0 up to MaxLoadFactor.
	LoadFactor float64
	// RBNPW is the expected number of rare behaviours started per week, in
	// place of that many temporary users (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 3, section 6); default 0.
	// Valid: 0 to the weekly arrival rate of temporary users.
	RBNPW float64
	// Seed and Stream select the PCG random stream; replications use one
	// stream per variant.
	Seed, Stream uint64
	// WeekZeroArrivals also draws weekly temporary arrivals in week 0, on top
	// of the initial temporary users; default no (our choice where the thesis
	// leaves it open: initialization stands for the users already present).
	WeekZeroArrivals bool
	// InnerRate computes the weekly arrival rate over the weeks between the
	// boundary windows, |T| / (L_w - 2 boundary), instead of |T| / L_w (an
	// alternative reading of Zakay's thesis, chapter 3, section 4).
	InnerRate bool
	// AlignLongTerm starts every long-term user at one common random week
	// instead of each at an independent one, so the long-term users keep
	// the relative timing they had in the log (the log's workload rotated
	// by whole weeks, with resampled temporary users). It is a diagnostic,
	// not the thesis's method: comparing it with the default isolates what
	// independent starts do to the overlap of heavy users.
	AlignLongTerm bool
	// CyclePhase starts every long-term user at a uniformly random week of
	// its whole cycle (the log period), which may fall in its
	// off-activity gap, instead of at a random week of its activity. A
	// periodic process with a uniform random phase is stationary, so the
	// long-term users' load no longer peaks in the first weeks and again
	// every cycle: our choice for long stationary workloads (Zakay's
	// thesis, chapter 3, section 4, starts each long-term user inside its
	// activity, which puts every one of them to work at time 0).
	CyclePhase bool
	// Prefer, when not nil, biases the choice of users towards a class
	// (selective resampling; see [Preference] for the weighting).
	Prefer *Preference
}

// Params are the generator's parameters as resolved for one run (Zakay's
// thesis, chapter 3, section 4), recorded in the output.
type Params struct {
	// Duration is the generated length in seconds; Weeks the number of
	// local weeks it touches.
	Duration int64 `json:"duration"`
	Weeks    int   `json:"weeks"`
	// LoadFactor is f.
	LoadFactor float64 `json:"load_factor"`
	// LongTerm is N_LT' = round(f N_LT), the constant number of long-term
	// copies.
	LongTerm int `json:"n_lt"`
	// InitialTemporary is f N_T0, the mean number of temporary users at
	// the start (drawn from a Poisson distribution).
	InitialTemporary float64 `json:"n_t0"`
	// WeeklyRate is r_T' = f r_T, the mean number of temporary users
	// arriving per week.
	WeeklyRate float64 `json:"r_t"`
	// RBNPW is the mean number of rare behaviours started per week.
	RBNPW float64 `json:"rb_npw"`
	// LogWeeks is L_w; CycleWeeks the period after which a long-term
	// user's activity repeats.
	LogWeeks   int `json:"log_weeks"`
	CycleWeeks int `json:"cycle_weeks"`
	// Seed and Stream select the random stream.
	Seed   uint64 `json:"seed"`
	Stream uint64 `json:"stream"`
	// WeekZeroArrivals and InnerRate echo the options.
	WeekZeroArrivals bool `json:"week_zero_arrivals"`
	InnerRate        bool `json:"inner_rate"`
	AlignLongTerm    bool `json:"align_long_term,omitempty"`
	CyclePhase       bool `json:"cycle_phase,omitempty"`
	// Prefer describes the selective-resampling preference, if any
	// (Preference.String); PreferredLongTerm and PreferredTemporary count
	// the preferred users of each pool.
	Prefer             string `json:"prefer,omitempty"`
	PreferredLongTerm  int    `json:"preferred_long_term,omitempty"`
	PreferredTemporary int    `json:"preferred_temporary,omitempty"`
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// params validates opt against the pools and resolves the parameters.
func (p *Pools) params(opt Options) (Params, error) {
	f := opt.LoadFactor
	if f == 0 {
		f = 1
	}
	if !(f > 0 && f <= MaxLoadFactor) {
		return Params{}, &RangeError{Name: "load factor", Value: fmtFloat(f), Min: "just above 0", Max: strconv.Itoa(MaxLoadFactor)}
	}
	d := opt.Duration
	if d == 0 {
		d = p.End - p.Start
	}
	if d < MinDuration || d > MaxDuration {
		return Params{}, &RangeError{Name: "duration", Value: strconv.FormatInt(d, 10) + " s",
			Min: "1 week (604800 s)", Max: "100 years (" + strconv.FormatInt(MaxDuration, 10) + " s)"}
	}
	lw := p.Weeks()
	rateWeeks := float64(lw)
	if opt.InnerRate {
		rateWeeks = math.Max(1, float64(lw)-2*float64(p.Options.Boundary)/Week)
	}
	sumActive := 0
	for _, u := range p.Temporary {
		sumActive += u.WeeksActive
	}
	pr := Params{
		Duration: d, Weeks: p.cal.week(d-1) + 1, LoadFactor: f,
		LongTerm:         int(math.Round(f * float64(len(p.LongTerm)))),
		InitialTemporary: f * float64(sumActive) / float64(lw),
		WeeklyRate:       f * float64(len(p.Temporary)) / rateWeeks,
		RBNPW:            opt.RBNPW, LogWeeks: lw, CycleWeeks: p.cycleWeeks(),
		Seed: opt.Seed, Stream: opt.Stream, WeekZeroArrivals: opt.WeekZeroArrivals, InnerRate: opt.InnerRate,
		AlignLongTerm: opt.AlignLongTerm, CyclePhase: opt.CyclePhase,
	}
	if opt.RBNPW < 0 || opt.RBNPW > pr.WeeklyRate || math.IsNaN(opt.RBNPW) {
		return Params{}, &RangeError{Name: "RB_NPW", Value: fmtFloat(opt.RBNPW), Min: "0", Max: fmtFloat(pr.WeeklyRate) + " (the weekly arrival rate of temporary users)"}
	}
	if pf := opt.Prefer; pf != nil {
		if !(pf.Bias > 0) || math.IsInf(pf.Bias, 0) {
			return Params{}, &RangeError{Name: "bias", Value: fmtFloat(pf.Bias), Min: "just above 0", Max: "any finite number"}
		}
		if pf.Users == nil && featureNames[pf.Feature] == "" {
			return Params{}, fmt.Errorf("resample: unknown feature %d", pf.Feature)
		}
		pr.Prefer = pf.String()
		for _, b := range p.Preferred(p.LongTerm, pf) {
			if b {
				pr.PreferredLongTerm++
			}
		}
		for _, b := range p.Preferred(p.Temporary, pf) {
			if b {
				pr.PreferredTemporary++
			}
		}
	}
	if opt.RBNPW > 0 && len(p.Rare) == 0 {
		return Params{}, ErrNoRare
	}
	return pr, nil
}
