package batsim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/internal/inputlimit"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// Read reads a Batsim JSON workload into a trace. Name is used in error
// messages and as the trace's name. The machine size is opt.Procs when
// given, else "nb_res". Malformed input gives an [*Error] naming the line
// and the JSON path of the problem and what was expected.
func Read(r io.Reader, name string, opt trace.Options) (*trace.Trace, error) {
	data, err := io.ReadAll(inputlimit.JSONValues(r, name, inputlimit.MaxToken))
	if err != nil {
		if errors.Is(err, inputlimit.ErrTooLong) {
			return nil, err // names the file and line
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rd := &reader{name: name, data: data}
	t, err := rd.read(opt)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// job is one element of "jobs" as read. Fields absent from the JSON keep
// the values set by newJob; absent marks the ones that must be told apart.
type job struct {
	id        int64
	hasID     bool
	subtime   float64
	walltime  float64
	res       int64
	profile   string
	runtime   int64
	wait      int64
	procs     int64
	avgCPU    float64
	usedMem   float64
	reqProcs  int64
	reqMem    float64
	status    int64
	user      int64
	group     int64
	app       int64
	queue     int64
	partition int64
	preceding int64
	thinkTime int64
	line      int
}

const absent = math.MinInt64

func newJob() job {
	return job{subtime: math.NaN(), walltime: -1, res: absent, runtime: absent, wait: -1, procs: absent,
		avgCPU: -1, usedMem: -1, reqProcs: absent, reqMem: -1, status: -1, user: -1, group: -1,
		app: -1, queue: -1, partition: -1, preceding: -1, thinkTime: -1}
}

type profile struct {
	typ   string
	delay float64 // NaN when absent
}

// reader is a small JSON scanner specialized for workloads: it reads the
// document in one pass without reflection and knows where it is, so errors
// give the line and the JSON path.
type reader struct {
	name   string
	data   []byte
	pos    int
	intern map[string]string // profile names, shared by many jobs
}

// internStr reads a string, returning one copy per distinct value.
func (rd *reader) internStr(path string) (string, error) {
	b, err := rd.rawStr(path)
	if err != nil {
		return "", err
	}
	if s, ok := rd.intern[string(b)]; ok {
		return s, nil
	}
	if rd.intern == nil {
		rd.intern = map[string]string{}
	}
	s := string(b)
	rd.intern[s] = s
	return s, nil
}

// lineAt returns the 1-based line of byte offset off.
func (rd *reader) lineAt(off int) int {
	off = min(max(off, 0), len(rd.data))
	return bytes.Count(rd.data[:off], []byte{'\n'}) + 1
}

func (rd *reader) errAt(off int, path string, err error) *Error {
	return &Error{File: rd.name, Line: rd.lineAt(off), Path: path, Err: err}
}

// invalid reports a well-formed value that is not what a workload holds.
func (rd *reader) invalid(off int, path, format string, a ...any) *Error {
	return rd.errAt(off, path, fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...)))
}

// syntax reports malformed JSON at the current position.
func (rd *reader) syntax(path, expected string) *Error {
	if rd.pos >= len(rd.data) {
		return rd.errAt(rd.pos, path, fmt.Errorf("unexpected end of input, expected %s: the file is truncated", expected))
	}
	return rd.errAt(rd.pos, path, fmt.Errorf("malformed JSON: expected %s, found %q", expected, rd.data[rd.pos]))
}

func (rd *reader) skipSpace() {
	for rd.pos < len(rd.data) {
		switch rd.data[rd.pos] {
		case ' ', '\t', '\n', '\r':
			rd.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (rd *reader) peek() byte {
	rd.skipSpace()
	if rd.pos < len(rd.data) {
		return rd.data[rd.pos]
	}
	return 0
}

// valueStart reports whether c can start a JSON value.
func valueStart(c byte) bool {
	return c == '"' || c == '{' || c == '[' || c == 't' || c == 'f' || c == 'n' || c == '-' || c >= '0' && c <= '9'
}

// notValue returns a syntax error when the next byte cannot start a value.
func (rd *reader) notValue(path string) error {
	if c := rd.peek(); !valueStart(c) {
		return rd.syntax(path, "a value")
	}
	return nil
}

// kindAt names the kind of the value starting at the current position.
func (rd *reader) kindAt() string {
	switch rd.peek() {
	case '"':
		return "a JSON string"
	case '{':
		return "a JSON object"
	case '[':
		return "a JSON array"
	case 't', 'f':
		return "a JSON boolean"
	case 'n':
		return "null"
	case 0:
		return "the end of input"
	}
	return "a JSON number"
}

// expect consumes the byte c.
func (rd *reader) expect(c byte, path, what string) error {
	if rd.peek() != c {
		return rd.syntax(path, what)
	}
	rd.pos++
	return nil
}

// rawStr reads a string, returning bytes that alias the input when the
// string holds no escapes.
func (rd *reader) rawStr(path string) ([]byte, error) {
	if rd.peek() == '"' {
		end := bytes.IndexByte(rd.data[rd.pos+1:], '"')
		if end >= 0 {
			b := rd.data[rd.pos+1 : rd.pos+1+end]
			if bytes.IndexByte(b, '\\') < 0 && !hasControl(b) {
				rd.pos += end + 2
				return b, nil
			}
		}
	}
	s, err := rd.str(path)
	return []byte(s), err
}

func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

// str reads a string.
func (rd *reader) str(path string) (string, error) {
	if err := rd.notValue(path); err != nil {
		return "", err
	}
	if rd.peek() != '"' {
		return "", rd.invalid(rd.pos, path, "expected a string, found %s", rd.kindAt())
	}
	start := rd.pos
	rd.pos++
	escaped := false
	for rd.pos < len(rd.data) {
		c := rd.data[rd.pos]
		switch {
		case c == '\\':
			escaped = true
			rd.pos += 2
			continue
		case c == '"':
			rd.pos++
			if !escaped {
				return string(rd.data[start+1 : rd.pos-1]), nil
			}
			var s string
			if err := json.Unmarshal(rd.data[start:rd.pos], &s); err != nil {
				return "", rd.errAt(start, path, fmt.Errorf("malformed JSON string: %v", err))
			}
			return s, nil
		case c < 0x20:
			return "", rd.errAt(rd.pos, path, errors.New("malformed JSON: control character in a string"))
		}
		rd.pos++
	}
	return "", rd.syntax(path, "the end of the string")
}

// numText reads a number's text.
func (rd *reader) numText(path, want string) ([]byte, int, error) {
	if err := rd.notValue(path); err != nil {
		return nil, rd.pos, err
	}
	c := rd.peek()
	if c != '-' && (c < '0' || c > '9') {
		return nil, rd.pos, rd.invalid(rd.pos, path, "expected %s, found %s", want, rd.kindAt())
	}
	start := rd.pos
	for rd.pos < len(rd.data) {
		c := rd.data[rd.pos]
		if c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			rd.pos++
			continue
		}
		break
	}
	return rd.data[start:rd.pos], start, nil
}

// float reads a number.
func (rd *reader) float(path string) (float64, error) {
	b, start, err := rd.numText(path, "a number")
	if err != nil {
		return 0, err
	}
	v, perr := strconv.ParseFloat(string(b), 64)
	if perr != nil {
		return 0, rd.errAt(start, path, fmt.Errorf("malformed JSON number %q", b))
	}
	return v, nil
}

// integer reads a number that must be whole.
func (rd *reader) integer(path string) (int64, error) {
	b, start, err := rd.numText(path, "an integer")
	if err != nil {
		return 0, err
	}
	if v, ok := atoi(b); ok {
		return v, nil
	}
	f, perr := strconv.ParseFloat(string(b), 64)
	if perr != nil {
		return 0, rd.errAt(start, path, fmt.Errorf("malformed JSON number %q", b))
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<62 {
		return 0, rd.invalid(start, path, "expected an integer, found %s", b)
	}
	return int64(f), nil
}

// atoi parses a plain decimal integer quickly.
func atoi(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// skip reads and discards any value.
func (rd *reader) skip(path string) error {
	switch c := rd.peek(); {
	case c == '"':
		_, err := rd.str(path)
		return err
	case c == '{':
		return rd.object(path, func(key []byte, _ int) error { return rd.skip(path + "." + string(key)) })
	case c == '[':
		return rd.array(path, func(i int) error { return rd.skip(fmt.Sprintf("%s[%d]", path, i)) })
	case c == '-' || c >= '0' && c <= '9':
		_, err := rd.float(path)
		return err
	}
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(rd.data[rd.pos:], []byte(lit)) {
			rd.pos += len(lit)
			return nil
		}
	}
	return rd.syntax(path, "a JSON value")
}

// object reads an object, calling fn with each key; fn reads the value.
// The key aliases the input unless it holds escapes.
func (rd *reader) object(path string, fn func(key []byte, keyPos int) error) error {
	if err := rd.notValue(path); err != nil {
		return err
	}
	if rd.peek() != '{' {
		return rd.invalid(rd.pos, path, "expected an object, found %s", rd.kindAt())
	}
	rd.pos++
	if rd.peek() == '}' {
		rd.pos++
		return nil
	}
	for {
		keyPos := rd.pos
		if rd.peek() != '"' {
			return rd.syntax(path, "a key in double quotes")
		}
		key, err := rd.rawStr(path)
		if err != nil {
			return err
		}
		if err := rd.expect(':', path, "':' after the key"); err != nil {
			return err
		}
		if err := fn(key, keyPos); err != nil {
			return err
		}
		switch rd.peek() {
		case ',':
			rd.pos++
		case '}':
			rd.pos++
			return nil
		default:
			return rd.syntax(path, "',' or '}'")
		}
	}
}

// array reads an array, calling fn for each element; fn reads it.
func (rd *reader) array(path string, fn func(i int) error) error {
	if err := rd.notValue(path); err != nil {
		return err
	}
	if rd.peek() != '[' {
		return rd.invalid(rd.pos, path, "expected an array, found %s", rd.kindAt())
	}
	rd.pos++
	if rd.peek() == ']' {
		rd.pos++
		return nil
	}
	for i := 0; ; i++ {
		if err := fn(i); err != nil {
			return err
		}
		switch rd.peek() {
		case ',':
			rd.pos++
		case ']':
			rd.pos++
			return nil
		default:
			return rd.syntax(path, "',' or ']'")
		}
	}
}

func (rd *reader) readJob(i int, j *job) error {
	start := rd.pos
	jobPath := func() string { return "jobs[" + strconv.Itoa(i) + "]" }
	// Paths are built only for errors: the reads below get "" and the
	// path is filled in on the way out.
	err := rd.object("", func(key []byte, _ int) error {
		const p = ""
		var err error
		switch string(key) {
		case "id":
			if rd.peek() == '"' {
				var s string
				if s, err = rd.str(p); err == nil {
					if k := strings.LastIndexByte(s, '!'); k >= 0 {
						s = s[k+1:]
					}
					if n, perr := strconv.ParseInt(s, 10, 64); perr == nil {
						j.id, j.hasID = n, true
					} else {
						j.id, j.hasID = absent, true // a name: numbered later
					}
				}
			} else {
				j.id, err = rd.integer(p)
				j.hasID = true
			}
		case "subtime":
			j.subtime, err = rd.float(p)
		case "walltime":
			j.walltime, err = rd.float(p)
		case "res":
			j.res, err = rd.integer(p)
		case "profile":
			j.profile, err = rd.internStr(p)
		case keyRuntime:
			j.runtime, err = rd.integer(p)
		case keyWait:
			j.wait, err = rd.integer(p)
		case keyProcs:
			j.procs, err = rd.integer(p)
		case keyAvgCPU:
			j.avgCPU, err = rd.float(p)
		case keyUsedMem:
			j.usedMem, err = rd.float(p)
		case keyReqProcs:
			j.reqProcs, err = rd.integer(p)
		case keyReqMem:
			j.reqMem, err = rd.float(p)
		case keyStatus:
			j.status, err = rd.integer(p)
		case keyUser:
			j.user, err = rd.integer(p)
		case keyGroup:
			j.group, err = rd.integer(p)
		case keyApp:
			j.app, err = rd.integer(p)
		case keyQueue:
			j.queue, err = rd.integer(p)
		case keyPartition:
			j.partition, err = rd.integer(p)
		case keyPreceding:
			j.preceding, err = rd.integer(p)
		case keyThinkTime:
			j.thinkTime, err = rd.integer(p)
		default:
			err = rd.skip(p)
		}
		var e *Error
		if errors.As(err, &e) && e.Path == "" {
			e.Path = jobPath() + "." + string(key)
		}
		return err
	})
	var e *Error
	if errors.As(err, &e) && e.Path == "" {
		e.Path = jobPath()
	}
	j.line = start
	return err
}

func (rd *reader) read(opt trace.Options) (*trace.Trace, error) {
	if len(bytes.TrimSpace(rd.data)) == 0 {
		return nil, &Error{File: rd.name, Err: fmt.Errorf("%w: empty input, expected a JSON object with \"nb_res\", \"jobs\" and \"profiles\"", ErrInvalid)}
	}
	var (
		nbRes     int64 = absent
		nbResPos  int
		header    []string
		headerPos []int
		hasHeader bool
		raw       []job
		profiles  = map[string]profile{}
		hasJobs   bool
	)
	err := rd.object("", func(k []byte, _ int) error {
		key := string(k)
		switch key {
		case "nb_res":
			nbResPos = rd.pos
			n, err := rd.integer("nb_res")
			if err != nil {
				return err
			}
			if n <= 0 {
				return rd.invalid(nbResPos, "nb_res", "expected a positive number of resources, found %d", n)
			}
			nbRes = n
		case KeyHeader:
			hasHeader = true
			return rd.array(KeyHeader, func(i int) error {
				headerPos = append(headerPos, rd.pos)
				s, err := rd.str(fmt.Sprintf("%s[%d]", KeyHeader, i))
				header = append(header, s)
				return err
			})
		case "profiles":
			return rd.object("profiles", func(nb []byte, _ int) error {
				name := string(nb)
				p := profile{delay: math.NaN()}
				path := "profiles." + name
				err := rd.object(path, func(kb []byte, _ int) error {
					k := string(kb)
					var err error
					switch k {
					case "type":
						p.typ, err = rd.str(path + ".type")
					case "delay":
						p.delay, err = rd.float(path + ".delay")
					default:
						err = rd.skip(path + "." + k)
					}
					return err
				})
				profiles[name] = p
				return err
			})
		case "jobs":
			hasJobs = true
			raw = make([]job, 0, bytes.Count(rd.data, []byte(`"subtime"`)))
			return rd.array("jobs", func(i int) error {
				raw = append(raw, newJob())
				return rd.readJob(i, &raw[len(raw)-1])
			})
		default:
			return rd.skip(key)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if rd.peek() != 0 {
		return nil, rd.syntax("", "the end of input after the workload object")
	}
	if nbRes == absent {
		return nil, rd.missing("nb_res", "the number of resources")
	}
	if !hasJobs {
		return nil, rd.missing("jobs", "the array of jobs")
	}
	jobs := make([]trace.Job, len(raw))
	for i := range raw {
		j, err := rd.convert(&raw[i], i, profiles)
		if err != nil {
			err.Line = rd.lineAt(raw[i].line)
			return nil, err
		}
		jobs[i] = j
	}
	var hdr swf.Header
	if hasHeader {
		var sb strings.Builder
		for k, l := range header {
			if !strings.HasPrefix(l, ";") || strings.ContainsAny(l, "\r\n") {
				return nil, rd.invalid(headerPos[k], fmt.Sprintf("%s[%d]", KeyHeader, k),
					"expected one SWF header line starting with ';', found %q", l)
			}
			sb.WriteString(l)
			sb.WriteByte('\n')
		}
		if sb.Len() > 0 {
			sr := swf.NewReader(strings.NewReader(sb.String()))
			sr.Name = rd.name
			h, err := sr.Header()
			if err != nil {
				return nil, err
			}
			hdr = *h
		}
	} else {
		hdr.Add("Version", "2.2")
		hdr.Add("Conversion", "hpcwl, from the Batsim workload "+rd.name)
		hdr.Add("MaxJobs", strconv.Itoa(len(jobs)))
		hdr.Add("MaxRecords", strconv.Itoa(len(jobs)))
		hdr.Add("MaxProcs", strconv.FormatInt(nbRes, 10))
	}
	t := trace.New(hdr, jobs, opt)
	t.Name = rd.name
	if opt.Procs <= 0 {
		t.Procs = int(nbRes)
	}
	// A workload written by hpcwl keeps the SWF file's job order; others are
	// sorted by submit time as SWF requires.
	for i := 1; i < len(jobs) && !hasHeader; i++ {
		if jobs[i].Submit < jobs[i-1].Submit {
			t.SortBySubmit()
			break
		}
	}
	return t, nil
}

func (rd *reader) missing(key, what string) error {
	return &Error{File: rd.name, Err: fmt.Errorf("%w: missing top-level key %q (%s)", ErrInvalid, key, what)}
}

func (rd *reader) convert(j *job, i int, profiles map[string]profile) (trace.Job, *Error) {
	path := fmt.Sprintf("jobs[%d]", i)
	bad := func(key, format string, a ...any) *Error {
		p := path
		if key != "" {
			p += "." + key
		}
		return &Error{File: rd.name, Path: p, Err: fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))}
	}
	if j.id == absent {
		j.id = int64(i + 1) // a name, not a number: number the jobs in order
	}
	switch {
	case !j.hasID:
		return trace.Job{}, bad("", "missing key \"id\"")
	case math.IsNaN(j.subtime):
		return trace.Job{}, bad("", "missing key \"subtime\"")
	case j.subtime < 0 && j.subtime != -1: // -1: unknown, as in SWF
		return trace.Job{}, bad("subtime", "expected a time >= 0, found %v", j.subtime)
	case j.res == absent:
		return trace.Job{}, bad("", "missing key \"res\"")
	case j.profile == "":
		return trace.Job{}, bad("", "missing key \"profile\"")
	}
	p, ok := profiles[j.profile]
	if !ok {
		return trace.Job{}, bad("profile", "profile %q is not defined in \"profiles\"", j.profile)
	}
	runtime := int64(-1)
	if p.typ == "delay" || p.typ == "DelayProfile" {
		if math.IsNaN(p.delay) || p.delay < 0 {
			return trace.Job{}, &Error{File: rd.name, Path: "profiles." + j.profile + ".delay",
				Err: fmt.Errorf("%w: a delay profile needs \"delay\" >= 0", ErrInvalid)}
		}
		runtime = int64(math.Round(p.delay))
	}
	if j.runtime != absent {
		runtime = j.runtime
	}
	procs, reqProcs := j.res, j.res
	if j.procs != absent {
		procs = j.procs
	}
	if j.reqProcs != absent {
		reqProcs = j.reqProcs
	}
	reqTime := int64(-1)
	if j.walltime >= 0 {
		reqTime = int64(math.Round(j.walltime))
	}
	s := swf.Job{
		ID: j.id, Submit: int64(math.Round(j.subtime)), Wait: j.wait, Runtime: runtime,
		Procs: procs, AvgCPU: j.avgCPU, UsedMem: j.usedMem, ReqProcs: reqProcs,
		ReqTime: reqTime, ReqMem: j.reqMem, Status: j.status, User: j.user, Group: j.group,
		App: j.app, Queue: j.queue, Partition: j.partition, Preceding: j.preceding,
		ThinkTime: j.thinkTime,
	}
	tj, err := trace.FromSWF(&s)
	if err != nil {
		return trace.Job{}, &Error{File: rd.name, Path: path, Err: err}
	}
	return tj, nil
}
