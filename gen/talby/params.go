package talby

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/hpcwl/hpcwl/internal/inputlimit"
	"github.com/hpcwl/hpcwl/metamodel"
	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/userclass"
)

// ErrInvalidParams reports a parameter set that fails validation; the
// message names the field and its expected range.
var ErrInvalidParams = errors.New("invalid Talby model parameters")

// NumUserClasses and NumSessionClasses are the sizes of the class arrays
// of Params: user classes in the order LTLU, LTHU, STWE, STWD (Talby
// (2006), Table 23) and session classes in the order IWD, IWN, IW, BHP,
// BHD (Table 21).
const (
	NumUserClasses    = int(userclass.NumClasses)
	NumSessionClasses = int(sessionclass.NumClasses)
)

// Params are the parameters of Talby's generative model of users, sessions
// and jobs (D. Talby, User Modeling of Parallel Workloads, PhD thesis,
// Hebrew University, 2006, chapters 11-13). DefaultParams holds the
// published values; Fit estimates them from a log.
type Params struct {
	// Source names the log the parameters were fitted to (absent for the
	// published ones).
	Source *Source `json:"source,omitempty"`
	// Notes say which parts of a fit kept the published values, and why.
	Notes []string `json:"notes,omitempty"`

	Machine         Machine         `json:"machine"`
	NewUsers        LogLogistic     `json:"new_users"`
	StartupUsers    StartupUsers    `json:"startup_users"`
	UserClasses     UserClasses     `json:"user_classes"`
	Inactivity      Inactivity      `json:"inactivity"`
	SessionsPerWeek SessionsPerWeek `json:"sessions_per_week"`
	SessionClasses  SessionClasses  `json:"session_classes"`
	Placement       Placement       `json:"placement"`
	// Jobs is the job layer of each session class (IWD, IWN, IW, BHP,
	// BHD).
	Jobs [NumSessionClasses]JobClass `json:"jobs"`
}

// Source records where fitted parameters came from.
type Source struct {
	Log     string `json:"log"`
	SHA256  string `json:"sha256,omitempty"`
	Version string `json:"version,omitempty"`
	Command string `json:"command,omitempty"`
	// Weeks is the number of full weeks of the log the fit used.
	Weeks int `json:"weeks"`
}

// Machine holds the model's inputs (Talby (2006), section 11.1): the
// machine size, the median CPU work and the CPU load. Given only a size,
// Cm and CL follow from Table 28 (metamodel.MachineCm and MachineCL).
type Machine struct {
	Procs int     `json:"procs"`
	Cm    float64 `json:"cm_s"`
	CL    float64 `json:"cl"`
}

// LogLogistic is the number of new users per week: ln N follows a
// logistic distribution of location Mu and scale Sigma, and N is rounded
// to an integer (Talby (2006), section 11.2).
type LogLogistic struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// StartupUsers is the number of users active when the model starts,
// AUS = Slope·CL + Intercept + U(−Noise, Noise), rounded and clipped at 0
// (Talby (2006), section 11.3, Eq. 13); MaxWoA bounds their week of
// activity (section 12.4, Eq. 17).
//
// Activity selects how start-up users are active. StartupThesis (or
// empty) is the thesis' rule: each gets a week of activity from Eqs. 16-17
// and then the inactivity and sessions per week of a user of that age
// (Eq. 14, Tables 33-34). StartupFitted is our extension for fitted
// parameters: the week of activity still sets the session classes (Table
// 36), but whether a start-up user is active in model week x (x = 1 for
// the first week) and how many sessions it then has follow Inactivity and
// Sessions, lines in ln x and x fitted to the start-up users of a log
// (Fit). The thesis' rule fits its data only through users whose first
// week is known; on logs whose start-up users stay more active than new
// users of their age (KTH-SP2: 74 % of the sessions come from users
// first seen before week 12), it gives far fewer sessions than the log.
type StartupUsers struct {
	Slope     float64 `json:"slope"`
	Intercept float64 `json:"intercept"`
	Noise     float64 `json:"noise"`
	MaxWoA    int     `json:"max_woa"`
	// Activity is StartupThesis (or empty) or StartupFitted.
	Activity string `json:"activity,omitempty"`
	// Inactivity is P(no session in model week x) = A·ln x + B of a
	// start-up user of each class, clipped to [0, Inactivity.Max]
	// (StartupFitted only).
	Inactivity *[NumUserClasses]InactivityLine `json:"inactivity,omitempty"`
	// Sessions is the generalized Pareto of the sessions of an active
	// start-up user of each class in model week x, shape and scale linear
	// in x (the first_week fields unused; StartupFitted only).
	Sessions *[NumUserClasses]GPDLine `json:"sessions,omitempty"`
}

// Start-up activity rules (StartupUsers.Activity).
const (
	// StartupThesis is Talby's (2006) rule, Eqs. 16-17.
	StartupThesis = "thesis"
	// StartupFitted is our extension: the activity of start-up users fitted
	// to a log's start-up users.
	StartupFitted = "fitted"
)

// ShareLine is one user class's share as a linear function of the median
// CPU work (s) and the CPU load (Talby (2006), Table 30).
type ShareLine struct {
	Cm        float64 `json:"cm"`
	CL        float64 `json:"cl"`
	Intercept float64 `json:"intercept"`
}

// UserClasses draws each new user's class: with probability Repeat the
// previous user's class, otherwise from the shares (Talby (2006), section
// 11.4, Tables 30 and 31).
type UserClasses struct {
	Share  [NumUserClasses]ShareLine `json:"share"`
	Repeat float64                   `json:"repeat"`
}

// InactivityLine is P(no session in a week) = A·ln(WoA) + B for one user
// class (Talby (2006), Table 32).
type InactivityLine struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

// Inactivity is the probability that a user has no session in a week of
// activity (Talby (2006), section 12.2, Eq. 14): 0 in week 1;
// A·ln(WoA) + B + Week2 in week 2; + Weeks3to5 in weeks 3-5; and
// min(A·ln(WoA) + B, Max) later.
type Inactivity struct {
	Class     [NumUserClasses]InactivityLine `json:"class"`
	Week2     float64                        `json:"week2"`
	Weeks3to5 float64                        `json:"weeks3to5"`
	Max       float64                        `json:"max"`
}

// GPDLine is the generalized Pareto shape K and scale Sigma of one user
// class's sessions per active week, each linear in the week of activity
// (Talby (2006), Table 33), with separate values for week 1 (Table 34).
type GPDLine struct {
	KSlope         float64 `json:"k_slope"`
	KIntercept     float64 `json:"k_intercept"`
	SigmaSlope     float64 `json:"sigma_slope"`
	SigmaIntercept float64 `json:"sigma_intercept"`
	FirstK         float64 `json:"first_week_k"`
	FirstSigma     float64 `json:"first_week_sigma"`
}

// SessionsPerWeek is the number of sessions of an active user in a week:
// a generalized Pareto of location Mu, rounded, at least 1 and at most
// Max (Talby (2006), section 12.3, Eq. 15). FirstWeek uses the week-1
// values of Table 34; SigmaFloor keeps the scale positive where the
// linear fit of Table 33 reaches 0.
type SessionsPerWeek struct {
	Mu         float64                 `json:"mu"`
	Class      [NumUserClasses]GPDLine `json:"class"`
	FirstWeek  bool                    `json:"first_week"`
	SigmaFloor float64                 `json:"sigma_floor"`
	Max        int                     `json:"max"`
}

// WoALine is one session class's share as a linear function of the week of
// activity (Talby (2006), Table 36).
type WoALine struct {
	Slope     float64 `json:"slope"`
	Intercept float64 `json:"intercept"`
}

// SessionClasses draws a session's class from the previous session's class
// of the same user, the user's class and week of activity (Talby (2006),
// section 12.5, Eq. 18): P(SC | WoA) + P(SC | UC, PSC) − P(SC), negative
// values clipped and the rest renormalized. Chain[u][prev][this] is Table
// 35 (rows previous class, columns this one, both in the order IWD, IWN,
// IW, BHP, BHD); WoA is Table 36; Global is P(SC).
type SessionClasses struct {
	Chain  [NumUserClasses][NumSessionClasses][NumSessionClasses]float64 `json:"chain"`
	WoA    [NumSessionClasses]WoALine                                    `json:"woa"`
	Global [NumSessionClasses]float64                                    `json:"global"`
}

// Placement places a user's sessions in a week by rejection (Talby (2006),
// section 12.6, Listing 5): sessions of a user must be at least Gap
// seconds apart; a week's sessions are drawn up to Attempts times for one
// draw of their classes, the classes are drawn up to Redraws times, and
// then the week loses sessions (as many as the best attempt could not
// place, at least one) and starts again. The thesis redraws classes until
// the week fits; Redraws and the loss of sessions are our guards, needed
// because some weeks cannot fit.
//
// Redraw says what an attempt draws again. PlacementSessions (or empty),
// Listing 5's rule, draws whole sessions again, start and jobs: the
// accepted sessions are then biased towards short ones (a long session
// collides more often), so a fitted job layer comes back with shorter
// runtimes than the log's (on KTH-SP2 the median runtime of IWN sessions'
// jobs falls from 6,492 s to 2,830 s). PlacementStarts, our extension,
// draws the sessions' jobs once per draw of their classes and only their
// start times again, so that the jobs keep their class's distribution.
type Placement struct {
	Gap      int64  `json:"gap_s"`
	Attempts int    `json:"attempts"`
	Redraws  int    `json:"redraws"`
	Redraw   string `json:"redraw,omitempty"`
}

// Placement rules (Placement.Redraw).
const (
	// PlacementSessions draws whole sessions again (Talby (2006), Listing
	// 5).
	PlacementSessions = "sessions"
	// PlacementStarts draws only the start times again (our extension).
	PlacementStarts = "starts"
)

// Zipf is a Zipf-like count on 1..Max: P(n) ∝ n^−A.
type Zipf struct {
	A   float64 `json:"a"`
	Max int     `json:"max"`
}

// Runtime draws job runtimes by nesting: a session's centre is lognormal
// (Mu, Session); each new sequence of repeated jobs moves from it by a
// lognormal factor of log-sd Sequence and each job from its sequence by
// one of log-sd Job. Runtimes are at most Max seconds.
//
// Quantiles, when given, make the runtimes follow an empirical
// distribution instead of the lognormal (our extension, written by Fit):
// the nested normal draw x above is standardized, z = (x − Mu)/sd with sd
// the root of the three variances, and the runtime is the quantile Φ(z)
// of the distribution whose quantiles at 0, 1/(n−1), ..., 1 are the n
// values given, interpolated linearly in ln runtime. The jobs of a session
// and of a sequence stay alike as before (a Gaussian copula), and the
// runtimes of a class's jobs follow the log's, whose bounded, uneven
// shape a lognormal misses (its tail inflates the CPU load).
type Runtime struct {
	Mu        float64   `json:"mu"`
	Session   float64   `json:"session_sd"`
	Sequence  float64   `json:"sequence_sd"`
	Job       float64   `json:"job_sd"`
	Max       int64     `json:"max_s"`
	Quantiles []float64 `json:"quantiles,omitempty"`
}

// runtimeQuantiles is the number of quantiles Fit keeps of a class's
// runtimes.
const runtimeQuantiles = 201

// Size is one job size of a session class's distribution, in processors
// normalized to a 128-processor machine (p·128/MS, Talby (2006), Table 21
// Pm), with its probability.
type Size struct {
	Norm float64 `json:"norm"`
	P    float64 `json:"p"`
}

// Gap is the time between consecutive submits of a session: 0 with
// probability Zero, else lognormal (Mu, Sigma) seconds.
type Gap struct {
	Zero  float64 `json:"zero"`
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// JobClass is the job layer of one session class (Talby (2006), section
// 13.2: every job attribute depends only on the session class, and jobs
// repeat). Days and HalfHours are the session start's day of week (Monday
// first) and half-hour of day; Jobs the jobs per session; Repeat the
// probability that a job repeats the previous job's sequence (same size,
// runtime near the sequence's); Sizes the sizes of new sequences.
type JobClass struct {
	Days      [7]float64  `json:"days"`
	HalfHours [48]float64 `json:"half_hours"`
	Jobs      Zipf        `json:"jobs"`
	Repeat    float64     `json:"repeat"`
	Runtime   Runtime     `json:"runtime"`
	Sizes     []Size      `json:"sizes"`
	Gap       Gap         `json:"gap"`
}

// tableOrder maps the column order of Talby's Table 35 (IW, BHP, IWN, BHD,
// IWD) to our session classes.
var tableOrder = [NumSessionClasses]sessionclass.Class{sessionclass.IW, sessionclass.BHP, sessionclass.IWN, sessionclass.BHD, sessionclass.IWD}

// table35 holds Talby's Table 35b-e in percent (rows previous class,
// columns this class, both in the table's order IW, BHP, IWN, BHD, IWD),
// per user class LTLU, LTHU, STWE, STWD.
var table35 = [NumUserClasses][NumSessionClasses][NumSessionClasses]float64{
	{ // Table 35b, LTLU
		{27, 2, 24, 1, 46}, {12, 31, 19, 2, 35}, {21, 3, 39, 2, 35}, {17, 5, 33, 23, 21}, {19, 2, 17, 1, 62},
	},
	{ // Table 35c, LTHU
		{26, 3, 39, 4, 29}, {7, 58, 16, 4, 15}, {20, 3, 53, 7, 17}, {8, 3, 28, 53, 7}, {23, 4, 25, 2, 46},
	},
	{ // Table 35d, STWE
		{46, 1, 21, 1, 30}, {23, 20, 37, 7, 13}, {25, 2, 42, 3, 28}, {28, 3, 33, 18, 20}, {27, 1, 20, 1, 51},
	},
	{ // Table 35e, STWD
		{29, 1, 46, 1, 24}, {16, 22, 27, 7, 28}, {21, 1, 53, 1, 23}, {17, 5, 35, 22, 21}, {18, 1, 40, 1, 39},
	},
}

// table35aCounts are the session counts of Talby's Table 35a by previous
// class (IW, BHP, IWN, BHD, IWD), whose shares are P(SC) of Eq. 18.
var table35aCounts = [NumSessionClasses]float64{30220, 5682, 41269, 4192, 61811}

// DefaultProcs is the machine size of DefaultParams when none is given.
const DefaultProcs = 128

// DefaultParams returns the published parameters of Talby (2006) for a
// machine of procs processors (DefaultProcs when procs <= 0), with the
// median CPU work and CPU load of Table 28 for that size, and the job
// layer derived from Table 21 (DefaultJobs). It fails only when Table 28
// gives no positive load for the size.
func DefaultParams(procs int) (Params, error) {
	if procs <= 0 {
		procs = DefaultProcs
	}
	cl := metamodel.MachineCL(float64(procs))
	if !(cl > 0) {
		return Params{}, fmt.Errorf("%w: machine.procs = %d: Table 28 gives a CPU load %.3g <= 0; give cm and cl", ErrInvalidParams, procs, cl)
	}
	p := Params{
		Machine: Machine{Procs: procs, Cm: metamodel.MachineCm(float64(procs)), CL: cl},
		// Section 11.2: log-logistic, μ = 1.25, σ = 0.2214.
		NewUsers: LogLogistic{Mu: 1.25, Sigma: 0.2214},
		// Eq. 13: AUS = −543.37·CL + 481.77 + U(−85, 85); Eq. 17: WoA ≤ 52.
		StartupUsers: StartupUsers{Slope: -543.37, Intercept: 481.77, Noise: 85, MaxWoA: 52},
		UserClasses: UserClasses{
			// Table 30 (Cm coefficients ×10⁻⁵ in the thesis).
			Share: [NumUserClasses]ShareLine{
				{Cm: -26.2512e-5, CL: -0.53006, Intercept: 0.944925}, // LTLU
				{Cm: 5.979147e-5, CL: 0.45250, Intercept: -0.084420}, // LTHU
				{Cm: 21.47628e-5, CL: -0.08845, Intercept: 0.087351}, // STWE
				{Cm: -1.20394e-5, CL: 0.16601, Intercept: 0.052141},  // STWD
			},
			// Section 11.4: the previous user's class with probability 0.10.
			Repeat: 0.10,
		},
		Inactivity: Inactivity{
			// Table 32.
			Class: [NumUserClasses]InactivityLine{
				{A: 0.0683, B: 0.5594}, // LTLU
				{A: 0.0895, B: 0.4149}, // LTHU
				{A: 0.0451, B: 0.8201}, // STWE
				{A: 0.0254, B: 0.8164}, // STWD
			},
			// Eq. 14.
			Week2: -0.18, Weeks3to5: -0.07, Max: 0.97,
		},
		SessionsPerWeek: SessionsPerWeek{
			Mu: 0.6, // section 12.3: location fixed at 0.6
			Class: [NumUserClasses]GPDLine{
				// Table 33 (k and σ linear in WoA) and Table 34 (week 1).
				{KSlope: 0, KIntercept: 0.11, SigmaSlope: -0.0097, SigmaIntercept: 4.74, FirstK: 0.1795, FirstSigma: 2.5012},         // LTLU
				{KSlope: 0.00076, KIntercept: 0.013, SigmaSlope: -0.0166, SigmaIntercept: 3.31, FirstK: 0.0557, FirstSigma: 2.8330},  // LTHU
				{KSlope: -0.0251, KIntercept: -0.147, SigmaSlope: 0.0168, SigmaIntercept: 3.806, FirstK: 0.3008, FirstSigma: 1.1597}, // STWE
				{KSlope: -0.0178, KIntercept: 0.337, SigmaSlope: -0.1030, SigmaIntercept: 2.897, FirstK: 0.4661, FirstSigma: 1.2969}, // STWD
			},
			FirstWeek: true, SigmaFloor: 0.05, Max: 100,
		},
		// Listing 5: 20-minute separation, 100 attempts; the redraw bound
		// is ours.
		Placement: Placement{Gap: 1200, Attempts: 100, Redraws: 2},
	}
	var sum float64
	for _, c := range table35aCounts {
		sum += c
	}
	for i, c := range tableOrder {
		p.SessionClasses.Global[c] = table35aCounts[i] / sum
	}
	// Table 36.
	p.SessionClasses.WoA[sessionclass.IWD] = WoALine{Slope: -0.0022, Intercept: 0.5107}
	p.SessionClasses.WoA[sessionclass.IWN] = WoALine{Slope: 0.0011, Intercept: 0.2437}
	p.SessionClasses.WoA[sessionclass.IW] = WoALine{Slope: 0, Intercept: 0.2161}
	p.SessionClasses.WoA[sessionclass.BHP] = WoALine{Slope: 0.0006, Intercept: 0.0182}
	p.SessionClasses.WoA[sessionclass.BHD] = WoALine{Slope: 0.0005, Intercept: 0.0113}
	for u := range table35 {
		for i, prev := range tableOrder {
			var row float64
			for _, v := range table35[u][i] {
				row += v
			}
			for j, this := range tableOrder {
				p.SessionClasses.Chain[u][prev][this] = table35[u][i][j] / row
			}
		}
	}
	p.Jobs = DefaultJobs()
	return p, nil
}

// ReadParams decodes a JSON parameter file (as WriteParams writes it),
// refusing unknown fields and values too long for a parameter file, and
// validates it field by field. Fields absent from the file keep the
// published values for a machine of DefaultProcs processors.
func ReadParams(r io.Reader) (Params, error) {
	p, err := DefaultParams(0)
	if err != nil {
		return p, err
	}
	p.Jobs = [NumSessionClasses]JobClass{}
	def := DefaultJobs()
	var raw struct {
		Params
		Jobs *[NumSessionClasses]json.RawMessage `json:"jobs"`
	}
	raw.Params = p
	dec := json.NewDecoder(inputlimit.JSONValues(r, "", inputlimit.MaxToken))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		if errors.Is(err, inputlimit.ErrTooLong) {
			return p, fmt.Errorf("%w: %w", ErrInvalidParams, err)
		}
		return p, fmt.Errorf("%w: decoding parameters: %v", ErrInvalidParams, err)
	}
	p = raw.Params
	for c := range p.Jobs {
		p.Jobs[c] = def[c]
		if raw.Jobs == nil || len(raw.Jobs[c]) == 0 || string(raw.Jobs[c]) == "null" {
			continue
		}
		jc := def[c]
		jc.Sizes = nil
		d := json.NewDecoder(bytes.NewReader(raw.Jobs[c]))
		d.DisallowUnknownFields()
		if err := d.Decode(&jc); err != nil {
			return p, fmt.Errorf("%w: jobs[%d] (%s): %v", ErrInvalidParams, c, sessionclass.Class(c), err)
		}
		if jc.Sizes == nil {
			jc.Sizes = def[c].Sizes
		}
		p.Jobs[c] = jc
	}
	return p, p.Validate()
}

// WriteParams encodes p as indented JSON.
func WriteParams(w io.Writer, p Params) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(p)
}

// field is one number to validate: its JSON path, value and range.
type field struct {
	name   string
	v      float64
	lo, hi float64
	openLo bool // lo excluded
}

func (f field) check() error {
	ok := f.v >= f.lo && f.v <= f.hi && !math.IsNaN(f.v)
	if f.openLo && f.v == f.lo {
		ok = false
	}
	if ok {
		return nil
	}
	lb := "["
	if f.openLo {
		lb = "("
	}
	return fmt.Errorf("%w: %s = %v: must be in %s%g, %g]", ErrInvalidParams, f.name, f.v, lb, f.lo, f.hi)
}

// Validate checks every field of p against its expected range and
// returns an error naming the first field out of range.
func (p Params) Validate() error {
	inf := math.Inf(1)
	fs := []field{
		{name: "machine.procs", v: float64(p.Machine.Procs), lo: 1, hi: 1 << 24},
		{name: "machine.cm_s", v: p.Machine.Cm, lo: 0, hi: 1e8, openLo: true},
		{name: "machine.cl", v: p.Machine.CL, lo: 0, hi: 1.5, openLo: true},
		{name: "new_users.mu", v: p.NewUsers.Mu, lo: -10, hi: 10},
		{name: "new_users.sigma", v: p.NewUsers.Sigma, lo: 0, hi: 1, openLo: true},
		{name: "startup_users.slope", v: p.StartupUsers.Slope, lo: -1e5, hi: 1e5},
		{name: "startup_users.intercept", v: p.StartupUsers.Intercept, lo: -1e5, hi: 1e5},
		{name: "startup_users.noise", v: p.StartupUsers.Noise, lo: 0, hi: 1e5},
		{name: "startup_users.max_woa", v: float64(p.StartupUsers.MaxWoA), lo: 1, hi: 520},
		{name: "user_classes.repeat", v: p.UserClasses.Repeat, lo: 0, hi: 1},
		{name: "inactivity.week2", v: p.Inactivity.Week2, lo: -1, hi: 1},
		{name: "inactivity.weeks3to5", v: p.Inactivity.Weeks3to5, lo: -1, hi: 1},
		{name: "inactivity.max", v: p.Inactivity.Max, lo: 0, hi: 0.999},
		{name: "sessions_per_week.mu", v: p.SessionsPerWeek.Mu, lo: 0, hi: 1.49},
		{name: "sessions_per_week.sigma_floor", v: p.SessionsPerWeek.SigmaFloor, lo: 0, hi: 100, openLo: true},
		{name: "sessions_per_week.max", v: float64(p.SessionsPerWeek.Max), lo: 1, hi: 504},
		{name: "placement.gap_s", v: float64(p.Placement.Gap), lo: 0, hi: 86400},
		{name: "placement.attempts", v: float64(p.Placement.Attempts), lo: 1, hi: 1e6},
		{name: "placement.redraws", v: float64(p.Placement.Redraws), lo: 1, hi: 1e6},
	}
	for u := range NumUserClasses {
		uc := fmt.Sprintf("[%d] (%s)", u, userclass.Class(u))
		s, in, g := p.UserClasses.Share[u], p.Inactivity.Class[u], p.SessionsPerWeek.Class[u]
		fs = append(fs,
			field{name: "user_classes.share" + uc + ".cm", v: s.Cm, lo: -1, hi: 1},
			field{name: "user_classes.share" + uc + ".cl", v: s.CL, lo: -10, hi: 10},
			field{name: "user_classes.share" + uc + ".intercept", v: s.Intercept, lo: -10, hi: 10},
			field{name: "inactivity.class" + uc + ".a", v: in.A, lo: -1, hi: 1},
			field{name: "inactivity.class" + uc + ".b", v: in.B, lo: -1, hi: 2},
			field{name: "sessions_per_week.class" + uc + ".k_slope", v: g.KSlope, lo: -1, hi: 1},
			field{name: "sessions_per_week.class" + uc + ".k_intercept", v: g.KIntercept, lo: -5, hi: 5},
			field{name: "sessions_per_week.class" + uc + ".sigma_slope", v: g.SigmaSlope, lo: -10, hi: 10},
			field{name: "sessions_per_week.class" + uc + ".sigma_intercept", v: g.SigmaIntercept, lo: -100, hi: 1000},
			field{name: "sessions_per_week.class" + uc + ".first_week_k", v: g.FirstK, lo: -5, hi: 5},
			field{name: "sessions_per_week.class" + uc + ".first_week_sigma", v: g.FirstSigma, lo: 0, hi: 1000, openLo: true},
		)
		for prev := range NumSessionClasses {
			for this := range NumSessionClasses {
				fs = append(fs, field{name: fmt.Sprintf("session_classes.chain%s[%d][%d] (%s after %s)", uc, prev, this, sessionclass.Class(this), sessionclass.Class(prev)),
					v: p.SessionClasses.Chain[u][prev][this], lo: 0, hi: 1})
			}
		}
	}
	for c := range NumSessionClasses {
		sc := fmt.Sprintf("[%d] (%s)", c, sessionclass.Class(c))
		w := p.SessionClasses.WoA[c]
		fs = append(fs,
			field{name: "session_classes.woa" + sc + ".slope", v: w.Slope, lo: -1, hi: 1},
			field{name: "session_classes.woa" + sc + ".intercept", v: w.Intercept, lo: -1, hi: 2},
			field{name: "session_classes.global" + sc, v: p.SessionClasses.Global[c], lo: 0, hi: 1},
		)
		j := p.Jobs[c]
		jp := "jobs" + sc + "."
		fs = append(fs,
			field{name: jp + "jobs.a", v: j.Jobs.A, lo: 0, hi: 20},
			field{name: jp + "jobs.max", v: float64(j.Jobs.Max), lo: 1, hi: 1e6},
			field{name: jp + "repeat", v: j.Repeat, lo: 0, hi: 1},
			field{name: jp + "runtime.mu", v: j.Runtime.Mu, lo: -5, hi: 20},
			field{name: jp + "runtime.session_sd", v: j.Runtime.Session, lo: 0, hi: 10},
			field{name: jp + "runtime.sequence_sd", v: j.Runtime.Sequence, lo: 0, hi: 10},
			field{name: jp + "runtime.job_sd", v: j.Runtime.Job, lo: 0, hi: 10},
			field{name: jp + "runtime.max_s", v: float64(j.Runtime.Max), lo: 1, hi: 1e9},
			field{name: jp + "gap.zero", v: j.Gap.Zero, lo: 0, hi: 1},
			field{name: jp + "gap.mu", v: j.Gap.Mu, lo: -5, hi: 20},
			field{name: jp + "gap.sigma", v: j.Gap.Sigma, lo: 0, hi: 10},
		)
		for i, v := range j.Runtime.Quantiles {
			lo := 1.0
			if i > 0 {
				lo = j.Runtime.Quantiles[i-1]
			}
			fs = append(fs, field{name: fmt.Sprintf("%sruntime.quantiles[%d]", jp, i), v: v, lo: lo, hi: 1e9})
		}
		if n := len(j.Runtime.Quantiles); n == 1 {
			return fmt.Errorf("%w: %sruntime.quantiles: 1 value; give none or at least 2 (ascending runtimes, s)", ErrInvalidParams, jp)
		}
		for d, v := range j.Days {
			fs = append(fs, field{name: fmt.Sprintf("%sdays[%d]", jp, d), v: v, lo: 0, hi: inf})
		}
		for h, v := range j.HalfHours {
			fs = append(fs, field{name: fmt.Sprintf("%shalf_hours[%d]", jp, h), v: v, lo: 0, hi: inf})
		}
		for i, s := range j.Sizes {
			fs = append(fs,
				field{name: fmt.Sprintf("%ssizes[%d].norm", jp, i), v: s.Norm, lo: 0, hi: 1 << 24, openLo: true},
				field{name: fmt.Sprintf("%ssizes[%d].p", jp, i), v: s.P, lo: 0, hi: inf})
		}
	}
	switch p.Placement.Redraw {
	case "", PlacementSessions, PlacementStarts:
	default:
		return fmt.Errorf("%w: placement.redraw = %q: must be %q or %q", ErrInvalidParams, p.Placement.Redraw, PlacementSessions, PlacementStarts)
	}
	switch p.StartupUsers.Activity {
	case "", StartupThesis:
	case StartupFitted:
		if p.StartupUsers.Inactivity == nil || p.StartupUsers.Sessions == nil {
			return fmt.Errorf("%w: startup_users.activity = %q needs startup_users.inactivity and startup_users.sessions (fit talby writes them)", ErrInvalidParams, StartupFitted)
		}
	default:
		return fmt.Errorf("%w: startup_users.activity = %q: must be %q or %q", ErrInvalidParams, p.StartupUsers.Activity, StartupThesis, StartupFitted)
	}
	for u := range NumUserClasses {
		uc := fmt.Sprintf("[%d] (%s)", u, userclass.Class(u))
		if in := p.StartupUsers.Inactivity; in != nil {
			fs = append(fs,
				field{name: "startup_users.inactivity" + uc + ".a", v: in[u].A, lo: -1, hi: 1},
				field{name: "startup_users.inactivity" + uc + ".b", v: in[u].B, lo: -1, hi: 2})
		}
		if g := p.StartupUsers.Sessions; g != nil {
			sp := "startup_users.sessions" + uc
			fs = append(fs,
				field{name: sp + ".k_slope", v: g[u].KSlope, lo: -1, hi: 1},
				field{name: sp + ".k_intercept", v: g[u].KIntercept, lo: -5, hi: 5},
				field{name: sp + ".sigma_slope", v: g[u].SigmaSlope, lo: -10, hi: 10},
				field{name: sp + ".sigma_intercept", v: g[u].SigmaIntercept, lo: -100, hi: 1000})
		}
	}
	for _, f := range fs {
		if err := f.check(); err != nil {
			return err
		}
	}
	// Distributions must have some mass.
	for u := range NumUserClasses {
		for prev := range NumSessionClasses {
			if sum(p.SessionClasses.Chain[u][prev][:]) <= 0 {
				return fmt.Errorf("%w: session_classes.chain[%d][%d] (%s after %s): the row is all zero; it must hold probabilities", ErrInvalidParams, u, prev, userclass.Class(u), sessionclass.Class(prev))
			}
		}
	}
	if sum(p.SessionClasses.Global[:]) <= 0 {
		return fmt.Errorf("%w: session_classes.global: all zero; it must hold the classes' shares", ErrInvalidParams)
	}
	for c := range NumSessionClasses {
		j := p.Jobs[c]
		jp := fmt.Sprintf("jobs[%d] (%s).", c, sessionclass.Class(c))
		if sum(j.Days[:]) <= 0 {
			return fmt.Errorf("%w: %sdays: all zero; it must weigh the days of the week", ErrInvalidParams, jp)
		}
		if sum(j.HalfHours[:]) <= 0 {
			return fmt.Errorf("%w: %shalf_hours: all zero; it must weigh the half-hours of the day", ErrInvalidParams, jp)
		}
		var sp float64
		for _, s := range j.Sizes {
			sp += s.P
		}
		if len(j.Sizes) == 0 || sp <= 0 {
			return fmt.Errorf("%w: %ssizes: empty or all zero; it must hold at least one size with a positive probability", ErrInvalidParams, jp)
		}
	}
	return nil
}

func sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}
