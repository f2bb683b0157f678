package talby

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/hpcwl/hpcwl/userclass"
)

// Version names the generator in output headers; it changes whenever the
// same parameters and seed would give other jobs.
const Version = "talby 1"

// StartTime is the Unix time of generated time 0: Monday 1 January 2024,
// 00:00 UTC, so that model weeks are calendar weeks (Talby (2006), section
// 12.1).
const StartTime = 1704067200

// SWF returns the jobs as SWF records numbered from 1: completed, wait
// unknown (a scheduler simulation sets it), requested processors equal to
// the allocated ones, requested time unknown (the thesis models no
// estimates), and the user ID in field 12. Fields 17 and 18 carry the
// order of the jobs in their session: a job submitted when an earlier job
// of its session has ended names, of those, the one that ended last (the
// job whose end released it; of jobs that ended at the same second, the
// later one) and the think time from that end (0 for a job submitted at
// the second it was released); the jobs of a session's first burst,
// submitted before any of its jobs ended, have -1, as the first job of
// every session does (sessions start independently of one another in the
// model).
func (w *Workload) SWF() []swf.Job {
	out := make([]swf.Job, len(w.Jobs))
	links := sessionLinks{}
	for i := range w.Jobs {
		out[i] = w.Jobs[i].record(int64(i + 1))
		links.link(&w.Jobs[i], &out[i])
	}
	return out
}

// record returns the job as the SWF record numbered id, without the
// fields that link it to the other jobs of its session (17 and 18).
func (j *Job) record(id int64) swf.Job {
	s := swf.NewJob()
	s.ID = id
	s.Submit = j.Submit
	s.Runtime = j.Runtime
	s.Procs = int64(j.Procs)
	s.ReqProcs = int64(j.Procs)
	s.Status = 1
	s.User = int64(j.User)
	return s
}

// sessionLinks holds the numbers and end times of the jobs of each
// session written so far.
type sessionLinks map[int][]jobEnd

type jobEnd struct{ id, end int64 }

// link sets fields 17 and 18 of rec, job j's record, from the jobs of j's
// session written before it ([Workload.SWF]), and records j.
func (l sessionLinks) link(j *Job, rec *swf.Job) {
	prev, end := int64(-1), int64(-1)
	for _, k := range l[j.Session] {
		if k.end <= j.Submit && k.end >= end {
			prev, end = k.id, k.end
		}
	}
	if prev >= 0 {
		rec.Preceding, rec.ThinkTime = prev, j.Submit-end
	}
	l[j.Session] = append(l[j.Session], jobEnd{rec.ID, j.Submit + j.Runtime})
}

// Header returns the SWF header of a run: the machine, the start time and
// zone, and notes recording the model, seed, weeks, counts and the full
// parameter set as JSON, so that the run can be reproduced from the file.
func (w *Workload) Header(p Params, cfg Config) swf.Header {
	var h swf.Header
	h.Add("Version", "2")
	h.Add("Computer", "synthetic (Talby user and session model)")
	h.Add("Acknowledge", "David Talby, Hebrew University (model: User Modeling of Parallel Workloads, PhD thesis, 2006)")
	h.Add("Conversion", "hpcwl gen/talby "+Version)
	h.Add("UnixStartTime", strconv.FormatInt(StartTime, 10))
	h.Add("TimeZoneString", "UTC")
	n := len(w.Jobs) + w.streamed
	h.Add("MaxJobs", strconv.Itoa(n))
	h.Add("MaxRecords", strconv.Itoa(n))
	h.Add("MaxNodes", strconv.Itoa(p.Machine.Procs))
	h.Add("MaxProcs", strconv.Itoa(p.Machine.Procs))
	h.Add("MaxUsers", strconv.Itoa(w.Users))
	h.AddNote("Model: Talby, User Modeling of Parallel Workloads, PhD thesis, Hebrew University 2006, chapters 11-13")
	h.AddNote("Generator: " + Version)
	h.AddNote("Seed: " + strconv.FormatUint(cfg.Seed, 10))
	h.AddNote(fmt.Sprintf("Weeks: %d (time 0 is Monday 00:00)", cfg.Weeks))
	h.AddNote(fmt.Sprintf("Users: %d created (%d active at start-up), %d with at least one job; classes of the created users LTLU %d, LTHU %d, STWE %d, STWD %d",
		w.Users, w.StartupUsers, w.UsersWithJobs, w.UserClasses[0], w.UserClasses[1], w.UserClasses[2], w.UserClasses[3]))
	h.AddNote("Fields 17-18: the job of the same session whose end released this one, and the think time from that end (-1: a session's first burst)")
	h.AddNote(fmt.Sprintf("Sessions: %d; classes IWD %d, IWN %d, IW %d, BHP %d, BHD %d; %d dropped (could not be placed apart)",
		w.Sessions, w.SessionClasses[0], w.SessionClasses[1], w.SessionClasses[2], w.SessionClasses[3], w.SessionClasses[4], w.Dropped))
	js, _ := json.Marshal(p) // cannot fail: plain numbers and strings
	h.AddNote("Parameters: " + string(js))
	return h
}

// Trace returns the workload as an in-memory trace with the header of
// Header, as reading its SWF file back would give.
func (w *Workload) Trace(p Params, cfg Config) (*trace.Trace, error) {
	js := w.SWF()
	tj := make([]trace.Job, len(js))
	for i := range js {
		j, err := trace.FromSWF(&js[i])
		if err != nil {
			return nil, fmt.Errorf("job %d: %w", js[i].ID, err)
		}
		tj[i] = j
	}
	return trace.New(w.Header(p, cfg), tj, trace.Options{}), nil
}

// Labels returns the report of t, the trace of this workload (Trace, or
// its SWF read back), with the generated session and user classes rather
// than classes found by k-means, for package extswf's extended formats
// (Talby (2006), appendix D). Sessions are found by the think-time rule,
// which finds the generated ones when jobs do not wait; each takes the
// class of its first job's generated session.
func (w *Workload) Labels(t *trace.Trace, p Params) (*userclass.Report, error) {
	if len(t.Jobs) != len(w.Jobs) {
		return nil, fmt.Errorf("talby: a trace of %d jobs for a workload of %d", len(t.Jobs), len(w.Jobs))
	}
	users := map[int32]userclass.Class{}
	for _, j := range w.Jobs {
		users[int32(j.User)] = j.UserClass
	}
	for i := range t.Jobs {
		if id := t.Jobs[i].ID; id < 1 || id > int64(len(w.Jobs)) {
			return nil, fmt.Errorf("talby: job %d of the trace is not one of the workload's 1..%d", id, len(w.Jobs))
		}
	}
	return userclass.Labeled(t, p.Machine.Procs,
		func(k int) sessionclass.Class { return w.Jobs[t.Jobs[k].ID-1].SessionClass },
		func(id int32) userclass.Class {
			if c, ok := users[id]; ok {
				return c
			}
			return -1
		})
}
