package batsim

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// Keys of the extra job fields that carry the SWF values Batsim has no
// place for.
const (
	keyWait      = "swf_wait_time"
	keyRuntime   = "swf_run_time" // written only when the run time is unknown
	keyProcs     = "swf_allocated_processors"
	keyAvgCPU    = "swf_average_cpu_time"
	keyUsedMem   = "swf_used_memory"
	keyReqProcs  = "swf_requested_processors"
	keyReqMem    = "swf_requested_memory"
	keyStatus    = "swf_status"
	keyUser      = "swf_user_id"
	keyGroup     = "swf_group_id"
	keyApp       = "swf_executable_number"
	keyQueue     = "swf_queue_number"
	keyPartition = "swf_partition_number"
	keyPreceding = "swf_preceding_job_number"
	keyThinkTime = "swf_think_time"
	// KeyHeader is the top-level key holding the SWF header lines.
	KeyHeader = "swf_header"
)

// Write writes t as a Batsim JSON workload. The machine size must be known
// (from the header or trace.Options.Procs); when it is not, the error says
// how to give it.
func Write(w io.Writer, t *trace.Trace) error {
	procs, err := t.MachineSize()
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	desc := jsonString("trace " + t.Name + " converted by hpcwl " + version.String())
	fmt.Fprintf(bw, "{\n  \"description\": %s,\n  \"nb_res\": %d,\n  %q: [", desc, procs, KeyHeader)
	for i, l := range t.Header.Lines {
		s := jsonString(l.String())
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		bw.WriteString(s)
	}
	if len(t.Header.Lines) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("],\n  \"jobs\": [")
	delays := map[int64]bool{}
	var b []byte
	for i := range t.Jobs {
		j := &t.Jobs[i]
		b = b[:0]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    {\"id\": "...)
		b = strconv.AppendInt(b, j.ID, 10)
		b = append(b, ", \"subtime\": "...)
		b = strconv.AppendInt(b, j.Submit, 10)
		b = append(b, ", \"walltime\": "...)
		b = strconv.AppendInt(b, max(j.ReqTime, -1), 10)
		b = append(b, ", \"res\": "...)
		b = strconv.AppendInt(b, int64(max(j.Processors(), 0)), 10)
		d := max(j.Runtime, 0)
		delays[d] = true
		b = append(b, ", \"profile\": \""...)
		b = append(b, profileName(d)...)
		b = append(b, '"')
		if j.Runtime < 0 {
			b = appendInt(b, keyRuntime, j.Runtime)
		}
		b = appendInt(b, keyWait, j.Wait)
		b = appendInt(b, keyProcs, int64(j.Procs))
		b = appendFloat(b, keyAvgCPU, j.AvgCPU)
		b = appendFloat(b, keyUsedMem, j.UsedMem)
		b = appendInt(b, keyReqProcs, int64(j.ReqProcs))
		b = appendFloat(b, keyReqMem, j.ReqMem)
		b = appendInt(b, keyStatus, int64(j.Status))
		b = appendInt(b, keyUser, int64(j.User))
		b = appendInt(b, keyGroup, int64(j.Group))
		b = appendInt(b, keyApp, int64(j.App))
		b = appendInt(b, keyQueue, int64(j.Queue))
		b = appendInt(b, keyPartition, int64(j.Partition))
		b = appendInt(b, keyPreceding, int64(j.Preceding))
		b = appendInt(b, keyThinkTime, j.ThinkTime)
		b = append(b, '}')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	if len(t.Jobs) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("],\n  \"profiles\": {")
	ds := make([]int64, 0, len(delays))
	for d := range delays {
		ds = append(ds, d)
	}
	sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
	for i, d := range ds {
		if i > 0 {
			bw.WriteByte(',')
		}
		fmt.Fprintf(bw, "\n    \"%s\": {\"type\": \"delay\", \"delay\": %d}", profileName(d), d)
	}
	if len(ds) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("}\n}\n")
	return bw.Flush()
}

// jsonString quotes s as a JSON string, leaving '<', '>' and '&' readable.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func profileName(d int64) string { return "delay_" + strconv.FormatInt(d, 10) }

func appendInt(b []byte, key string, v int64) []byte {
	b = append(b, ", \""...)
	b = append(b, key...)
	b = append(b, "\": "...)
	return strconv.AppendInt(b, v, 10)
}

func appendFloat(b []byte, key string, f float64) []byte {
	b = append(b, ", \""...)
	b = append(b, key...)
	b = append(b, "\": "...)
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.AppendInt(b, int64(f), 10)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// Error reports a malformed workload: the file, the line, the JSON path of
// the offending value and what was expected.
type Error struct {
	File string // file name, or ""
	Line int    // 1-based line, or 0 when unknown
	Path string // JSON path such as "jobs[12].res", or ""
	Err  error
}

// Error formats the error as "file: line N: path: cause".
func (e *Error) Error() string {
	s := ""
	if e.File != "" {
		s = e.File + ": "
	}
	if e.Line > 0 {
		s += fmt.Sprintf("line %d: ", e.Line)
	}
	if e.Path != "" {
		s += e.Path + ": "
	}
	return s + e.Err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrInvalid is the cause of errors about values that are well-formed JSON
// but not a valid workload; test for it with errors.Is.
var ErrInvalid = errors.New("invalid workload")

// job is one element of "jobs" as decoded. Fields absent from the JSON keep
// the sentinel values set by newJob.
type job struct {
	ID        json.RawMessage `json:"id"`
	Subtime   float64         `json:"subtime"`
	Walltime  float64         `json:"walltime"`
	Res       int64           `json:"res"`
	Profile   string          `json:"profile"`
	Runtime   int64           `json:"swf_run_time"`
	Wait      int64           `json:"swf_wait_time"`
	Procs     int64           `json:"swf_allocated_processors"`
	AvgCPU    float64         `json:"swf_average_cpu_time"`
	UsedMem   float64         `json:"swf_used_memory"`
	ReqProcs  int64           `json:"swf_requested_processors"`
	ReqMem    float64         `json:"swf_requested_memory"`
	Status    int64           `json:"swf_status"`
	User      int64           `json:"swf_user_id"`
	Group     int64           `json:"swf_group_id"`
	App       int64           `json:"swf_executable_number"`
	Queue     int64           `json:"swf_queue_number"`
	Partition int64           `json:"swf_partition_number"`
	Preceding int64           `json:"swf_preceding_job_number"`
	ThinkTime int64           `json:"swf_think_time"`
}

const absent = math.MinInt64

func newJob() job {
	nan := math.NaN()
	return job{Subtime: nan, Walltime: -1, Res: absent, Runtime: absent, Wait: -1, Procs: absent,
		AvgCPU: -1, UsedMem: -1, ReqProcs: absent, ReqMem: -1, Status: -1, User: -1, Group: -1,
		App: -1, Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1}
}

type profile struct {
	Type  string   `json:"type"`
	Delay *float64 `json:"delay"`
}

// Read reads a Batsim JSON workload into a trace. Name is used in error
// messages and as the trace's name. The machine size is opt.Procs when
// given, else "nb_res". Malformed input gives an [*Error] naming the line
// and the JSON path of the problem.
func Read(r io.Reader, name string, opt trace.Options) (*trace.Trace, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rd := &reader{name: name, data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	return rd.read(opt)
}

type reader struct {
	name string
	data []byte
	dec  *json.Decoder
	// lastOff and lastLine cache the last position looked up, so that
	// lookups moving forward count only the newlines in between.
	lastOff  int64
	lastLine int
}

// lineAt returns the 1-based line holding byte offset off.
func (rd *reader) lineAt(off int64) int {
	off = min(max(off, 0), int64(len(rd.data)))
	if off < rd.lastOff || rd.lastLine == 0 {
		rd.lastOff, rd.lastLine = 0, 1
	}
	rd.lastLine += bytes.Count(rd.data[rd.lastOff:off], []byte{'\n'})
	rd.lastOff = off
	return rd.lastLine
}

// fail wraps err with the current position and the path.
func (rd *reader) fail(path string, err error) error {
	off := rd.dec.InputOffset()
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
		err = fmt.Errorf("malformed JSON: %s", strings.TrimPrefix(se.Error(), "json: "))
	case errors.As(err, &te):
		// te.Offset counts from the start of the value being decoded; the
		// decoder's position (the end of that value) gives the line.
		if te.Field != "" {
			path += "." + te.Field
		}
		err = fmt.Errorf("%w: expected %s, found a JSON %s", ErrInvalid, kind(te.Type.Kind().String()), te.Value)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		off = int64(len(rd.data))
		err = errors.New("unexpected end of input: the file is truncated")
	}
	return &Error{File: rd.name, Line: rd.lineAt(off), Path: path, Err: err}
}

func kind(k string) string {
	switch {
	case strings.HasPrefix(k, "int"):
		return "an integer"
	case strings.HasPrefix(k, "float"):
		return "a number"
	case k == "string":
		return "a string"
	case k == "slice":
		return "an array"
	}
	return "a " + k
}

func (rd *reader) invalid(path string, format string, a ...any) error {
	return &Error{File: rd.name, Line: rd.lineAt(rd.dec.InputOffset()), Path: path,
		Err: fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))}
}

func (rd *reader) delim(path string, want json.Delim) error {
	tok, err := rd.dec.Token()
	if err != nil {
		return rd.fail(path, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		what := map[json.Delim]string{'{': "an object", '[': "an array"}[want]
		return rd.invalid(path, "expected %s, found %v", what, describe(tok))
	}
	return nil
}

func describe(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		return "'" + v.String() + "'"
	case string:
		return strconv.Quote(v)
	case nil:
		return "null"
	}
	return fmt.Sprint(tok)
}

func (rd *reader) read(opt trace.Options) (*trace.Trace, error) {
	if len(bytes.TrimSpace(rd.data)) == 0 {
		return nil, &Error{File: rd.name, Err: fmt.Errorf("%w: empty input, expected a JSON object with \"nb_res\", \"jobs\" and \"profiles\"", ErrInvalid)}
	}
	if err := rd.delim("", '{'); err != nil {
		return nil, err
	}
	var (
		nbRes     int64 = absent
		header    []string
		hasHeader bool
		raw       []job
		rawLines  []int
		profiles  map[string]profile
		hasJobs   bool
	)
	for rd.dec.More() {
		tok, err := rd.dec.Token()
		if err != nil {
			return nil, rd.fail("", err)
		}
		key, _ := tok.(string)
		switch key {
		case "nb_res":
			if err := rd.dec.Decode(&nbRes); err != nil {
				return nil, rd.fail("nb_res", err)
			}
			if nbRes <= 0 {
				return nil, rd.invalid("nb_res", "expected a positive number of resources, found %d", nbRes)
			}
		case KeyHeader:
			hasHeader = true
			if err := rd.dec.Decode(&header); err != nil {
				return nil, rd.fail(KeyHeader, err)
			}
		case "profiles":
			if err := rd.dec.Decode(&profiles); err != nil {
				return nil, rd.fail("profiles", err)
			}
		case "jobs":
			hasJobs = true
			if err := rd.delim("jobs", '['); err != nil {
				return nil, err
			}
			for i := 0; rd.dec.More(); i++ {
				j := newJob()
				if err := rd.dec.Decode(&j); err != nil {
					return nil, rd.fail(fmt.Sprintf("jobs[%d]", i), err)
				}
				raw = append(raw, j)
				rawLines = append(rawLines, rd.lineAt(rd.dec.InputOffset()-1))
			}
			if err := rd.delim("jobs", ']'); err != nil {
				return nil, err
			}
		default:
			var skip json.RawMessage
			if err := rd.dec.Decode(&skip); err != nil {
				return nil, rd.fail(key, err)
			}
		}
	}
	if err := rd.delim("", '}'); err != nil {
		return nil, err
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
			err.Line = rawLines[i]
			return nil, err
		}
		jobs[i] = j
	}
	var hdr swf.Header
	if hasHeader {
		var sb strings.Builder
		for k, l := range header {
			if !strings.HasPrefix(l, ";") || strings.ContainsAny(l, "\r\n") {
				return nil, rd.invalid(fmt.Sprintf("%s[%d]", KeyHeader, k), "expected one SWF header line starting with ';', found %q", l)
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
	sorted := true
	for i := 1; i < len(jobs); i++ {
		if jobs[i].Submit < jobs[i-1].Submit {
			sorted = false
			break
		}
	}
	if !sorted {
		t.SortBySubmit()
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
	var id int64
	switch {
	case j.ID == nil:
		return trace.Job{}, bad("", "missing key \"id\"")
	case j.ID[0] == '"':
		var s string
		if err := json.Unmarshal(j.ID, &s); err != nil {
			return trace.Job{}, bad("id", "expected a number or a string, found %s", j.ID)
		}
		if k := strings.LastIndexByte(s, '!'); k >= 0 {
			s = s[k+1:]
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			n = int64(i + 1) // a name, not a number: number the jobs in order
		}
		id = n
	default:
		n, err := strconv.ParseInt(string(j.ID), 10, 64)
		if err != nil {
			return trace.Job{}, bad("id", "expected an integer or a string, found %s", j.ID)
		}
		id = n
	}
	if math.IsNaN(j.Subtime) {
		return trace.Job{}, bad("", "missing key \"subtime\"")
	}
	if j.Subtime < 0 {
		return trace.Job{}, bad("subtime", "expected a time >= 0, found %v", j.Subtime)
	}
	if j.Res == absent {
		return trace.Job{}, bad("", "missing key \"res\"")
	}
	if j.Profile == "" {
		return trace.Job{}, bad("", "missing key \"profile\"")
	}
	p, ok := profiles[j.Profile]
	if !ok {
		return trace.Job{}, bad("profile", "profile %q is not defined in \"profiles\"", j.Profile)
	}
	runtime := int64(-1)
	if p.Type == "delay" {
		if p.Delay == nil || *p.Delay < 0 {
			return trace.Job{}, &Error{File: rd.name, Path: "profiles." + j.Profile + ".delay",
				Err: fmt.Errorf("%w: a delay profile needs \"delay\" >= 0", ErrInvalid)}
		}
		runtime = int64(math.Round(*p.Delay))
	}
	if j.Runtime != absent {
		runtime = j.Runtime
	}
	procs, reqProcs := j.Res, j.Res
	if j.Procs != absent {
		procs = j.Procs
	}
	if j.ReqProcs != absent {
		reqProcs = j.ReqProcs
	}
	reqTime := int64(-1)
	if j.Walltime >= 0 {
		reqTime = int64(math.Round(j.Walltime))
	}
	s := swf.Job{
		ID: id, Submit: int64(math.Round(j.Subtime)), Wait: j.Wait, Runtime: runtime,
		Procs: procs, AvgCPU: j.AvgCPU, UsedMem: j.UsedMem, ReqProcs: reqProcs,
		ReqTime: reqTime, ReqMem: j.ReqMem, Status: j.Status, User: j.User, Group: j.Group,
		App: j.App, Queue: j.Queue, Partition: j.Partition, Preceding: j.Preceding,
		ThinkTime: j.ThinkTime,
	}
	tj, err := trace.FromSWF(&s)
	if err != nil {
		return trace.Job{}, &Error{File: rd.name, Path: path, Err: err}
	}
	return tj, nil
}
