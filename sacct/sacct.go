// Package sacct reads Slurm's accounting records, as `sacct --parsable2`
// prints them, into a trace in the Standard Workload Format, so that the
// jobs of a Slurm cluster can be characterized, resampled and replayed like
// a log of the Parallel Workloads Archive.
//
// The input is sacct's parsable output: a header line naming the fields,
// then one line per job (and per job step unless sacct was given -X), the
// fields separated by '|'. The fields read, in any order (extra fields are
// ignored):
//
//	JobIDRaw or JobID   job; steps (an ID with a '.') are skipped
//	Submit, Start, End  times, ISO 8601 local time (Unknown/None: not started)
//	NodeList            "None assigned": never ran (sacct gives a job
//	                    cancelled while it waited a start time, its
//	                    cancellation's)
//	State               COMPLETED: status 1; CANCELLED: 5; FAILED, TIMEOUT,
//	                    OUT_OF_MEMORY, NODE_FAIL, PREEMPTED, BOOT_FAIL,
//	                    DEADLINE: 0; PENDING, RUNNING, REQUEUED, SUSPENDED,
//	                    RESIZING: left out (not finished), counted
//	ElapsedRaw/Elapsed  run time, s (else End - Start)
//	TimelimitRaw/Timelimit  requested time (minutes / [D-]HH:MM:SS; UNLIMITED: -1)
//	NCPUS or AllocCPUS  processors allocated (0: -1)
//	ReqCPUS             processors requested
//	UID/User, GID/Group users and groups: numeric IDs when given, else names
//	                    numbered from 1 in order of first appearance
//	Partition           numbered from 1 in order of first appearance, the
//	                    names kept in the header's Partition lines
//
// Only the first five are required. Jobs are renumbered from 1 in order of
// submission (ties by sacct's job ID), as the archive's conversions do;
// submit times count from the earliest submission, whose Unix time is the
// header's UnixStartTime. A job that never started has wait and run time
// -1. The mapping of user and group names to numbers is kept in the header
// (Note lines), so the conversion can be traced back.
package sacct

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hpcwl/hpcwl/internal/inputlimit"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// Options control [Read].
type Options struct {
	// Location is the time zone of sacct's times (the cluster's); nil
	// means UTC.
	Location *time.Location
	// Procs is the machine size; 0 means the largest job's processors.
	Procs int
}

// Summary says what [Read] kept and left out.
type Summary struct {
	// Jobs is the number of jobs read; Steps the step lines skipped;
	// Unfinished the jobs left out because they had not ended.
	Jobs, Steps, Unfinished int
	// States counts the jobs of each state (the first word of State).
	States map[string]int
}

// ErrFormat reports input that is not sacct's parsable output.
var ErrFormat = errors.New("not sacct --parsable2 output")

// required are the fields Read needs, in their accepted spellings.
var required = [][]string{{"JobIDRaw", "JobID"}, {"Submit"}, {"Start"}, {"End"}, {"State"}}

type record struct {
	rawID  string
	submit int64 // Unix time
	job    trace.Job
	state  string
}

// Read reads sacct's parsable output from r (name is for messages) into a
// trace.
func Read(r io.Reader, name string, opt Options) (*trace.Trace, *Summary, error) {
	loc := opt.Location
	if loc == nil {
		loc = time.UTC
	}
	sc := bufio.NewScanner(inputlimit.Lines(r, name, inputlimit.MaxLine))
	sc.Buffer(make([]byte, 64<<10), inputlimit.MaxLine+1)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		return nil, nil, fmt.Errorf("%s: empty file: %w", name, ErrFormat)
	}
	col := map[string]int{}
	for i, f := range strings.Split(strings.TrimSpace(sc.Text()), "|") {
		col[strings.TrimSpace(f)] = i
	}
	pick := func(names ...string) int {
		for _, n := range names {
			if i, ok := col[n]; ok {
				return i
			}
		}
		return -1
	}
	var missing []string
	for _, names := range required {
		if pick(names...) < 0 {
			missing = append(missing, strings.Join(names, " or "))
		}
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("%s: line 1: %w: missing field(s) %s (run sacct --parsable2 with --format naming them)",
			name, ErrFormat, strings.Join(missing, ", "))
	}
	cID, cSubmit, cStart, cEnd, cState := pick("JobIDRaw", "JobID"), col["Submit"], col["Start"], col["End"], col["State"]
	cElapsedRaw, cElapsed := pick("ElapsedRaw"), pick("Elapsed")
	cLimitRaw, cLimit := pick("TimelimitRaw"), pick("Timelimit")
	cCPUs, cReqCPUs := pick("NCPUS", "AllocCPUS"), pick("ReqCPUS")
	cUID, cUser, cGID, cGroup, cPart := pick("UID"), pick("User"), pick("GID"), pick("Group"), pick("Partition")
	cNodes := pick("NodeList")
	users, groups, parts := newNames(), newNames(), newNames()
	sum := &Summary{States: map[string]int{}}
	var recs []record
	for line := 2; sc.Scan(); line++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" {
			continue
		}
		f := strings.Split(text, "|")
		bad := func(c int, what string) error {
			v := ""
			if c < len(f) {
				v = f[c]
			}
			if len(v) > 40 {
				v = v[:40] + "..."
			}
			field := "?"
			for k, i := range col {
				if i == c {
					field = k
				}
			}
			return fmt.Errorf("%s: line %d: field %s: %q: expected %s", name, line, field, v, what)
		}
		if len(f) < len(col) {
			return nil, nil, fmt.Errorf("%s: line %d: %d fields, the header names %d", name, line, len(f), len(col))
		}
		id := strings.TrimSpace(f[cID])
		if strings.Contains(id, ".") {
			sum.Steps++
			continue
		}
		state := strings.TrimSpace(f[cState])
		word, _, _ := strings.Cut(state, " ")
		var status int
		switch word {
		case "COMPLETED":
			status = 1
		case "CANCELLED":
			status = 5
		case "FAILED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE":
			status = 0
		case "PENDING", "RUNNING", "REQUEUED", "SUSPENDED", "RESIZING", "REQUEUE_FED", "REQUEUE_HOLD", "REVOKED", "SPECIAL_EXIT", "STOPPED":
			sum.Unfinished++
			continue
		default:
			return nil, nil, bad(cState, "a Slurm job state (COMPLETED, CANCELLED, FAILED, TIMEOUT, ...)")
		}
		submit, ok := parseTime(f[cSubmit], loc)
		if !ok || submit < 0 {
			return nil, nil, bad(cSubmit, "a time such as 2024-03-01T12:00:00")
		}
		j := trace.Job{Wait: -1, Runtime: -1, Procs: -1, AvgCPU: -1, UsedMem: -1, ReqProcs: -1, ReqTime: -1, ReqMem: -1,
			Status: int32(status), User: -1, Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1}
		start, started := parseTime(f[cStart], loc)
		end, ended := parseTime(f[cEnd], loc)
		ran := cNodes < 0 || strings.TrimSpace(f[cNodes]) != "None assigned"
		started = started && ran
		if started {
			if start < submit {
				return nil, nil, bad(cStart, fmt.Sprintf("a start no earlier than the submission (%s)", f[cSubmit]))
			}
			j.Wait = start - submit
			switch {
			case cElapsedRaw >= 0:
				v, err := strconv.ParseInt(strings.TrimSpace(f[cElapsedRaw]), 10, 64)
				if err != nil || v < 0 {
					return nil, nil, bad(cElapsedRaw, "a number of seconds")
				}
				j.Runtime = v
			case cElapsed >= 0:
				v, ok := parseDuration(f[cElapsed])
				if !ok {
					return nil, nil, bad(cElapsed, "a duration [D-]HH:MM:SS")
				}
				j.Runtime = v
			case ended && end >= start:
				j.Runtime = end - start
			}
		}
		switch {
		case cLimitRaw >= 0 && isNumber(f[cLimitRaw]):
			v, _ := strconv.ParseInt(strings.TrimSpace(f[cLimitRaw]), 10, 64)
			if v > 0 {
				j.ReqTime = 60 * v
			}
		case cLimit >= 0:
			if v, ok := parseDuration(f[cLimit]); ok && v > 0 {
				j.ReqTime = v
			} else if s := strings.TrimSpace(f[cLimit]); s != "" && s != "UNLIMITED" && s != "Partition_Limit" && s != "INVALID" {
				return nil, nil, bad(cLimit, "a time limit [D-]HH:MM:SS or UNLIMITED")
			}
		}
		if cCPUs >= 0 {
			v, err := strconv.ParseInt(strings.TrimSpace(f[cCPUs]), 10, 32)
			if err != nil || v < 0 {
				return nil, nil, bad(cCPUs, "a number of CPUs")
			}
			if v > 0 && ran {
				j.Procs = int32(v)
			}
		}
		if cReqCPUs >= 0 {
			v, err := strconv.ParseInt(strings.TrimSpace(f[cReqCPUs]), 10, 32)
			if err != nil || v < 0 {
				return nil, nil, bad(cReqCPUs, "a number of CPUs")
			}
			if v > 0 {
				j.ReqProcs = int32(v)
			}
		}
		j.User = int32(idOf(f, cUID, cUser, users))
		j.Group = int32(idOf(f, cGID, cGroup, groups))
		if cPart >= 0 {
			if p := strings.TrimSpace(f[cPart]); p != "" {
				j.Partition = int32(parts.number(p))
			}
		}
		sum.States[word]++
		recs = append(recs, record{rawID: id, submit: submit, job: j, state: word})
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(recs) == 0 {
		return nil, nil, fmt.Errorf("%s: no finished job (%d unfinished, %d steps)", name, sum.Unfinished, sum.Steps)
	}
	slices.SortStableFunc(recs, func(a, b record) int {
		return cmp.Or(cmp.Compare(a.submit, b.submit), compareIDs(a.rawID, b.rawID))
	})
	first := recs[0].submit
	jobs := make([]trace.Job, len(recs))
	procs := opt.Procs
	largest := 0
	for i := range recs {
		j := recs[i].job
		j.ID = int64(i + 1)
		j.Submit = recs[i].submit - first
		jobs[i] = j
		largest = max(largest, int(j.Procs), int(j.ReqProcs))
	}
	if procs == 0 {
		procs = largest
	}
	sum.Jobs = len(jobs)
	var h swf.Header
	h.Set("Version", "2.2")
	h.Set("Computer", "Slurm cluster")
	h.Set("Conversion", "hpcwl "+version.String()+" from sacct --parsable2 output "+name)
	h.Set("UnixStartTime", strconv.FormatInt(first, 10))
	if tz := loc.String(); tz != "Local" {
		h.Set("TimeZoneString", tz)
	}
	h.Set("StartTime", time.Unix(first, 0).In(loc).Format(time.ANSIC))
	if procs > 0 {
		h.Set("MaxProcs", strconv.Itoa(procs))
	}
	n := strconv.Itoa(len(jobs))
	h.Set("MaxJobs", n)
	h.Set("MaxRecords", n)
	if len(parts.names) > 0 {
		h.Set("MaxPartitions", strconv.Itoa(len(parts.names)))
		for i, p := range parts.names {
			h.Add("Partition", fmt.Sprintf("%d %s", i+1, p))
		}
	}
	h.AddNote(fmt.Sprintf("jobs renumbered from 1 by submit time; %d job steps skipped, %d unfinished jobs left out; status 1 COMPLETED, 5 CANCELLED, 0 the other ends",
		sum.Steps, sum.Unfinished))
	if procs > 0 && opt.Procs == 0 {
		h.AddNote("MaxProcs is the largest job's processors: sacct does not give the machine size")
	}
	for _, m := range []struct {
		what string
		ns   *names
	}{{"users", users}, {"groups", groups}} {
		if len(m.ns.names) > 0 {
			var b strings.Builder
			for i, s := range m.ns.names {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%d %s", i+1, s)
			}
			h.AddNote(m.what + " numbered: " + b.String())
		}
	}
	t := trace.New(h, jobs, trace.Options{Procs: procs})
	t.Name = name
	return t, sum, nil
}

// compareIDs orders sacct job IDs: numerically by the number before any
// "_" (array tasks), then by the task number, then as text.
func compareIDs(a, b string) int {
	na, ta := splitID(a)
	nb, tb := splitID(b)
	return cmp.Or(cmp.Compare(na, nb), cmp.Compare(ta, tb), cmp.Compare(a, b))
}

func splitID(s string) (job, task int64) {
	j, t, _ := strings.Cut(s, "_")
	job, _ = strconv.ParseInt(j, 10, 64)
	task, _ = strconv.ParseInt(t, 10, 64)
	return job, task
}

// names numbers names from 1 in order of first appearance.
type names struct {
	id    map[string]int
	names []string
}

func newNames() *names { return &names{id: map[string]int{}} }

func (n *names) number(s string) int {
	if i, ok := n.id[s]; ok {
		return i
	}
	n.names = append(n.names, s)
	n.id[s] = len(n.names)
	return len(n.names)
}

// idOf returns the numeric ID in field num, else the number of the name in
// field name, else -1.
func idOf(f []string, num, name int, ns *names) int {
	if num >= 0 {
		if v, err := strconv.ParseInt(strings.TrimSpace(f[num]), 10, 32); err == nil && v >= 0 {
			return int(v)
		}
	}
	if name >= 0 {
		if s := strings.TrimSpace(f[name]); s != "" {
			return ns.number(s)
		}
	}
	return -1
}

func isNumber(s string) bool {
	_, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return err == nil
}

// parseTime reads sacct's time (2024-03-01T12:00:00 in loc) as Unix
// time; false for Unknown, None or an empty field.
func parseTime(s string, loc *time.Location) (int64, bool) {
	s = strings.TrimSpace(s)
	t, err := time.ParseInLocation("2006-01-02T15:04:05", s, loc)
	if err != nil {
		return 0, false
	}
	return t.Unix(), true
}

// parseDuration reads [D-]HH:MM:SS, MM:SS or [D-]HH:MM as seconds.
func parseDuration(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	var days int64
	if d, rest, ok := strings.Cut(s, "-"); ok {
		v, err := strconv.ParseInt(d, 10, 64)
		if err != nil || v < 0 {
			return 0, false
		}
		days, s = v, rest
	}
	parts := strings.Split(s, ":")
	var v [3]int64
	for i, p := range parts {
		x, err := strconv.ParseInt(p, 10, 64)
		if err != nil || x < 0 || len(parts) > 3 {
			return 0, false
		}
		v[i] = x
	}
	var secs int64
	switch {
	case len(parts) == 3:
		secs = v[0]*3600 + v[1]*60 + v[2]
	case len(parts) == 2 && days > 0:
		secs = v[0]*3600 + v[1]*60 // D-HH:MM
	case len(parts) == 2:
		secs = v[0]*60 + v[1] // MM:SS
	default:
		return 0, false
	}
	return days*86400 + secs, true
}
