// Package extswf writes the extended job, session and user formats in
// which Talby published the data set of his thesis (D. Talby, User
// Modeling of Parallel Workloads, PhD thesis, Hebrew University, 2006,
// appendix D, Table 41): text files in the manner of the Standard Workload
// Format, with the same ';' header comments, -1 for a missing value and 24
// numeric columns per line.
//
//   - Job format: the 18 SWF fields, then session ID, day of week and hour
//     of day at arrival (local time), session class, user class and log ID.
//   - Session format: session ID, arrival, duration, user, jobs, the
//     medians and 90% intervals of runtime, processors, inter-arrival and
//     think times, whether the session starts in daytime and the percent of
//     its span in daytime, the same for workdays, unique runtimes and
//     processor counts, day of week and hour of day at arrival, session
//     class, user class and log ID.
//   - User format: user ID, arrival, time in the system, sessions, jobs,
//     the medians and intervals of runtime, processors, inter-arrival and
//     think times and of the time between sessions, the percent of jobs in
//     daytime and on workdays, the percent of sessions of each class, user
//     class and log ID.
//
// The values come from packages sessionclass and userclass (a
// [userclass.Report] of one or more logs). Choices where the appendix is
// silent: arrival times are absolute (the log's UnixStartTime plus the
// submit time, or relative when the header has none); days of the week
// count 0 = Monday to 6 = Sunday; percentages are 0-100; processor medians
// and intervals are in processors of the job's own machine (the
// classification's are normalized to 128); classes are numbered as
// [SessionClassCodes] and [UserClassCodes] list them; session IDs number
// the sessions of all logs from 1 in the report's order; log IDs number
// the logs from 1 in the order given.
package extswf

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/hpcwl/hpcwl/userclass"
)

// Columns name the 24 columns of each format (Talby (2006), Table 41).
var (
	JobColumns = [24]string{"Job ID", "Submit time (absolute)", "Wait Time", "Run Time", "Used Processors",
		"Used CPU time", "Used memory", "Requested Processors", "Requested CPU time (estimate)", "Requested Memory",
		"Completion status", "User ID", "Group ID", "Executable ID", "Queue ID", "Partition ID", "Preceding Job",
		"Think Time from Preceding Job", "Session ID", "Day of Week at arrival (local)", "Hour of Day at arrival (local)",
		"Session Class", "User Class", "Log ID"}
	SessionColumns = [24]string{"Session ID", "Arrival time (absolute)", "Duration", "Original User ID", "Number of Jobs",
		"Runtime median", "Runtime interval", "Processors Median", "Processors Interval",
		"Jobs Inter-Arrival Time Median", "Jobs Inter-Arrival Time Interval", "Think time median", "Think time interval",
		"Did session start in Daytime?", "Percent of daytime during session", "Did session start in a workday?",
		"Percent of workdays during session", "Number of Unique Runtimes", "Number of Unique Used Processors",
		"Day of Week at arrival", "Hour of Day at arrival", "Session Class", "User Class", "Log ID"}
	UserColumns = [24]string{"User ID", "Arrival time (absolute)", "Total time in system", "Number of Sessions",
		"Number of Jobs", "Runtime Median", "Runtime Interval", "Procs Median", "Procs Interval", "Jobs IA Time Median",
		"Jobs IA Time Interval", "Think time median", "Think time interval", "Sessions IA Median", "Sessions IA Interval",
		"Percent of daytime during user's activity", "Percent of workdays during user's activity",
		"Percent of IWD sessions", "Percent of IWN sessions", "Percent of IW sessions", "Percent of BHP sessions",
		"Percent of BHD sessions", "User Class", "Log ID"}
)

// SessionClassCodes and UserClassCodes are the numbers written for each
// class (-1: none).
var (
	SessionClassCodes = codes(int(sessionclass.NumClasses), func(c int) string { return sessionclass.Class(c).String() })
	UserClassCodes    = codes(int(userclass.NumClasses), func(c int) string { return userclass.Class(c).String() })
)

func codes(n int, name func(int) string) string {
	var b bytes.Buffer
	for c := range n {
		if c > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d %s", c, name(c))
	}
	return b.String()
}

// Input is what the writers need: the logs and Talby's analysis of them.
type Input struct {
	// Traces are the logs, in the order the report was made from.
	Traces []*trace.Trace
	// Report is userclass.Analyze of Traces.
	Report *userclass.Report
	// Header is written first (provenance, notes); the format's column
	// names follow it.
	Header swf.Header
}

// index maps jobs, sessions and users to one another.
type index struct {
	in        *Input
	sessions  []sessionclass.Session
	users     []userclass.User
	sessionOf [][]int32                   // per log, per job: session number from 1, 0 for none
	userOf    []map[int32]*userclass.User // per log, by user ID
	clocks    []*trace.Clock
}

func newIndex(in *Input) (*index, error) {
	if in.Report == nil || len(in.Traces) != len(in.Report.Logs) {
		return nil, fmt.Errorf("extswf: %d traces for a report of %d logs", len(in.Traces), reportLogs(in.Report))
	}
	x := &index{in: in, users: in.Report.UserRows()}
	x.sessions, _ = in.Report.SessionRows()
	x.sessionOf = make([][]int32, len(in.Traces))
	x.userOf = make([]map[int32]*userclass.User, len(in.Traces))
	x.clocks = make([]*trace.Clock, len(in.Traces))
	for l, t := range in.Traces {
		x.sessionOf[l] = make([]int32, len(t.Jobs))
		x.userOf[l] = map[int32]*userclass.User{}
		x.clocks[l] = t.Clock()
	}
	for i := range x.sessions {
		s := &x.sessions[i]
		for _, j := range s.Jobs {
			x.sessionOf[s.Log][j] = int32(i + 1)
		}
	}
	for i := range x.users {
		u := &x.users[i]
		x.userOf[u.Log][u.ID] = u
	}
	return x, nil
}

func reportLogs(r *userclass.Report) int {
	if r == nil {
		return 0
	}
	return len(r.Logs)
}

// userClass returns the class code of a user, -1 when unknown.
func (x *index) userClass(log int, id int32) int {
	if u, ok := x.userOf[log][id]; ok {
		return int(u.Class) // -1 when unclassified
	}
	return -1
}

// absolute returns the absolute time of relative time s of log l.
func (x *index) absolute(l int, s int64) int64 { return x.clocks[l].Start + s }

// denormalize turns processors normalized to 128 back into processors of
// log l's machine.
func (x *index) denormalize(l int, p float64) float64 {
	return p * float64(x.in.Report.Logs[l].Procs) / 128
}

// lineWriter writes the header and lines of numbers.
type lineWriter struct {
	w   *bufio.Writer
	buf []byte
}

func newLineWriter(w io.Writer, header swf.Header, format string, columns [24]string, notes ...string) *lineWriter {
	lw := &lineWriter{w: bufio.NewWriterSize(w, 256<<10)}
	for _, l := range header.Lines {
		lw.w.WriteString(l.String() + "\n")
	}
	lw.w.WriteString("; Format: " + format + " (Talby 2006, appendix D, Table 41), 24 columns:\n")
	for i, c := range columns {
		fmt.Fprintf(lw.w, ";   %d %s\n", i+1, c)
	}
	for _, n := range notes {
		lw.w.WriteString("; " + n + "\n")
	}
	return lw
}

// number appends v: integers as integers, other values in the shortest
// form that reads back the same float64.
func (lw *lineWriter) number(v float64) {
	if len(lw.buf) > 0 {
		lw.buf = append(lw.buf, ' ')
	}
	if v == float64(int64(v)) {
		lw.buf = strconv.AppendInt(lw.buf, int64(v), 10)
		return
	}
	lw.buf = strconv.AppendFloat(lw.buf, v, 'f', -1, 64)
}

func (lw *lineWriter) end() error {
	lw.buf = append(lw.buf, '\n')
	_, err := lw.w.Write(lw.buf)
	lw.buf = lw.buf[:0]
	return err
}

var notes = []string{
	"Days of the week: 0 Monday ... 6 Sunday, local time; daytime 07:30-17:30; workdays Monday-Friday",
	"Session classes: " + SessionClassCodes + "; user classes: " + UserClassCodes + "; -1 none",
	"Times in seconds (user durations too); percentages 0-100; intervals are P95 - P5",
}

// WriteJobs writes every job of every log in the job format, log after log,
// each in its file order.
func WriteJobs(w io.Writer, in *Input) error {
	x, err := newIndex(in)
	if err != nil {
		return err
	}
	lw := newLineWriter(w, in.Header, "Job Workload Format", JobColumns, notes...)
	var line bytes.Buffer
	sw := swf.NewWriter(&line)
	for l, t := range in.Traces {
		for i := range t.Jobs {
			j := &t.Jobs[i]
			sj := j.SWF()
			sj.Submit = x.absolute(l, sj.Submit)
			line.Reset()
			if err := sw.Write(&sj); err != nil {
				return err
			}
			if err := sw.Flush(); err != nil {
				return err
			}
			lw.buf = append(lw.buf, bytes.TrimSuffix(line.Bytes(), []byte("\n"))...)
			sid, sclass := -1.0, -1.0
			if s := x.sessionOf[l][i]; s > 0 {
				sid, sclass = float64(s), float64(x.sessions[s-1].Class) // -1 when unclassified
			}
			c := x.clocks[l]
			for _, v := range []float64{sid, float64(c.DayOfWeek(j.Submit)), float64(c.HourOfDay(j.Submit)), sclass,
				float64(x.userClass(l, int32(j.User))), float64(l + 1)} {
				lw.number(v)
			}
			if err := lw.end(); err != nil {
				return err
			}
		}
	}
	return lw.w.Flush()
}

// WriteSessions writes every session in the session format.
func WriteSessions(w io.Writer, in *Input) error {
	x, err := newIndex(in)
	if err != nil {
		return err
	}
	lw := newLineWriter(w, in.Header, "Session Format", SessionColumns, notes...)
	for i := range x.sessions {
		s := &x.sessions[i]
		v := &s.X
		c := x.clocks[s.Log]
		class := float64(s.Class) // -1 when unclassified
		for _, f := range []float64{float64(i + 1), float64(x.absolute(s.Log, s.First)), v[sessionclass.D], float64(s.User),
			v[sessionclass.J], v[sessionclass.Rm], v[sessionclass.Ri],
			x.denormalize(s.Log, v[sessionclass.Pm]), x.denormalize(s.Log, v[sessionclass.Pi]),
			v[sessionclass.Im], v[sessionclass.Ii], v[sessionclass.Tm], v[sessionclass.Ti],
			v[sessionclass.IsDay], 100 * v[sessionclass.Day], v[sessionclass.IsWork], 100 * v[sessionclass.Work],
			v[sessionclass.UR], v[sessionclass.UP], float64(c.DayOfWeek(s.First)), float64(c.HourOfDay(s.First)),
			class, float64(x.userClass(s.Log, s.User)), float64(s.Log + 1)} {
			lw.number(f)
		}
		if err := lw.end(); err != nil {
			return err
		}
	}
	return lw.w.Flush()
}

// WriteUsers writes every user in the user format. The time between
// sessions is taken between the arrivals of consecutive sessions of the
// user; its median and interval are 0 for a user of one session.
func WriteUsers(w io.Writer, in *Input) error {
	x, err := newIndex(in)
	if err != nil {
		return err
	}
	// The arrivals of each user's sessions, in order.
	type key struct {
		log  int
		user int32
	}
	arrivals := map[key][]float64{}
	for i := range x.sessions {
		s := &x.sessions[i]
		k := key{s.Log, s.User}
		arrivals[k] = append(arrivals[k], float64(s.First))
	}
	lw := newLineWriter(w, in.Header, "User Format", UserColumns, notes...)
	for i := range x.users {
		u := &x.users[i]
		v := &u.X
		arr := arrivals[key{u.Log, u.ID}]
		slices.Sort(arr)
		first := -1.0
		if len(arr) > 0 {
			first = float64(x.absolute(u.Log, int64(arr[0])))
		}
		gm, gi := gaps(arr)
		class := float64(u.Class) // -1 when unclassified
		for _, f := range []float64{float64(u.ID), first, v[userclass.Days] * 86400, v[userclass.S], v[userclass.J],
			v[userclass.Rm], v[userclass.Ri], x.denormalize(u.Log, v[userclass.Pm]), x.denormalize(u.Log, v[userclass.Pi]),
			v[userclass.Im], v[userclass.Ii], v[userclass.Tm], v[userclass.Ti], gm, gi,
			100 * v[userclass.Day], 100 * v[userclass.Work], 100 * v[userclass.FracIWD], 100 * v[userclass.FracIWN],
			100 * v[userclass.FracIW], 100 * v[userclass.FracBHP], 100 * v[userclass.FracBHD],
			class, float64(u.Log + 1)} {
			lw.number(f)
		}
		if err := lw.end(); err != nil {
			return err
		}
	}
	return lw.w.Flush()
}

// gaps returns the median and 90% interval (P95 - P5, empirical quantiles
// as in packages sessionclass and userclass) of the differences between
// consecutive sorted times; 0 and 0 for fewer than two.
func gaps(times []float64) (median, interval float64) {
	if len(times) < 2 {
		return 0, 0
	}
	d := make([]float64, len(times)-1)
	for i := range d {
		d[i] = times[i+1] - times[i]
	}
	slices.Sort(d)
	q := func(p float64) float64 { return stat.Quantile(p, stat.Empirical, d, nil) }
	return q(0.5), q(0.95) - q(0.05)
}
