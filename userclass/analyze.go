package userclass

import (
	"fmt"

	"github.com/hpcwl/hpcwl/pca"
	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/trace"
)

// Options control [Analyze].
type Options struct {
	// Threshold is the think time that starts a session, s; 0 means 1200.
	Threshold int64
	// Procs overrides every log's machine size when > 0.
	Procs int
	// Classify holds the k-means seed, restarts, transform and the
	// clipping of the users' z-scores.
	Classify sessionclass.ClassifyOptions
	// SessionClip is the clipping of the sessions' z-scores
	// (sessionclass.ClassifyOptions.Clip); 0 means none.
	SessionClip float64
}

// LogSummary is what one log contributes.
type LogSummary struct {
	Name     string `json:"name"`
	Procs    int    `json:"procs"`
	Sessions int    `json:"sessions"`
	Users    int    `json:"users"`
	// Online compares the online classes of the log's sessions (from
	// their first jobs, sessionclass.Online with DefaultOnline's
	// thresholds) with their k-means classes.
	Online           sessionclass.Agreement     `json:"online"`
	OnlineThresholds sessionclass.OnlineOptions `json:"online_thresholds"`
}

// Report is Talby's analysis of sessions and users (chapter 9) on one or
// more logs pooled.
type Report struct {
	Logs           []LogSummary          `json:"logs"`
	Sessions       int                   `json:"sessions"`
	Users          int                   `json:"users"`
	SessionPCA     *pca.Result           `json:"session_pca"`
	SessionClasses *sessionclass.Classes `json:"session_classes"`
	UserPCA        *pca.Result           `json:"user_pca"`
	UserClasses    *Classes              `json:"user_classes"`

	sessions []sessionclass.Session
	online   []sessionclass.Class
	users    []User
}

// SessionRows returns every session with its online class (indexed alike).
func (r *Report) SessionRows() ([]sessionclass.Session, []sessionclass.Class) {
	return r.sessions, r.online
}

// UserRows returns every user.
func (r *Report) UserRows() []User { return r.users }

// Analyze pools the sessions and the users of the logs, as Talby pools his
// seven logs so that the classes do not belong to one site (section
// 9.1): it computes the session variables, their PCA and five classes,
// then the user variables, their PCA and four classes, and compares each
// session's online class with its k-means class.
func Analyze(traces []*trace.Trace, opt Options) (*Report, error) {
	r := &Report{}
	per := make([]int, len(traces))
	procs := make([]int, len(traces))
	for i, t := range traces {
		ss, _, err := sessionclass.Compute(t, i, sessionclass.Options{Threshold: opt.Threshold, Procs: opt.Procs})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		procs[i] = opt.Procs
		if procs[i] <= 0 {
			procs[i], _ = t.MachineSize() // Compute checked it
		}
		per[i] = len(ss)
		r.sessions = append(r.sessions, ss...)
	}
	r.Sessions = len(r.sessions)
	var err error
	if r.SessionPCA, err = sessionclass.PCA(r.sessions); err != nil {
		return nil, err
	}
	so := opt.Classify
	so.Clip = opt.SessionClip
	if r.SessionClasses, err = sessionclass.Classify(r.sessions, so); err != nil {
		return nil, err
	}
	off := 0
	for i, t := range traces {
		ss := r.sessions[off : off+per[i]]
		off += per[i]
		us, err := Compute(t, i, ss, procs[i])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		r.users = append(r.users, us...)
		on, err := sessionclass.DefaultOnline(t)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		if opt.Procs > 0 {
			on.WideProcs = opt.Procs / 2
		}
		oc := sessionclass.OnlineClasses(t, ss, on)
		r.online = append(r.online, oc...)
		r.Logs = append(r.Logs, LogSummary{Name: t.Name, Procs: procs[i], Sessions: per[i], Users: len(us),
			Online: sessionclass.Agree(ss, oc), OnlineThresholds: on})
	}
	r.Users = len(r.users)
	if r.UserPCA, err = PCA(r.users); err != nil {
		return nil, err
	}
	if r.UserClasses, err = Classify(r.users, opt.Classify); err != nil {
		return nil, err
	}
	return r, nil
}

// Labeled returns the report of one log whose sessions and users already
// carry classes, as a generated workload does (Talby (2006), chapters
// 11-13): sessions are found by the think-time rule (threshold 0: 20
// minutes), each session takes the class sessionClass gives its first
// job (an index into t.Jobs; a negative class leaves it unclassified),
// and each user the class userClass gives its ID. No PCA or k-means is
// run: SessionPCA, SessionClasses, UserPCA and UserClasses are nil. The
// report serves the writers of package extswf.
func Labeled(t *trace.Trace, procs int, sessionClass func(job int) sessionclass.Class, userClass func(id int32) Class) (*Report, error) {
	ss, _, err := sessionclass.Compute(t, 0, sessionclass.Options{Procs: procs})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	for i := range ss {
		ss[i].Class = sessionClass(int(ss[i].Jobs[0]))
	}
	if procs <= 0 {
		procs, _ = t.MachineSize() // Compute checked it
	}
	us, err := Compute(t, 0, ss, procs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	for i := range us {
		us[i].Class = userClass(us[i].ID)
	}
	r := &Report{Sessions: len(ss), Users: len(us), sessions: ss, users: us}
	r.Logs = []LogSummary{{Name: t.Name, Procs: procs, Sessions: len(ss), Users: len(us)}}
	return r, nil
}
