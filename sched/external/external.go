// Package external runs a scheduling policy written in any language as a
// child process that speaks hpcwl's scheduler protocol: JSON lines over the
// child's standard input and output. hpcwl's engine keeps the clock, the
// machine and every metric; the child only decides which waiting jobs start.
//
// # Protocol hpcwl-sched/1
//
// Each message is one JSON object on one line (at most 1 MiB). hpcwl writes
// to the child's standard input and reads its answers from the child's
// standard output; the child's standard error is passed through.
//
// Handshake, before the first event:
//
//	hpcwl: {"type":"hello","protocol":"hpcwl-sched/1","procs":128,"params":{"k":"v"}}
//	child: {"type":"hello","protocol":"hpcwl-sched/1","name":"my-policy"}
//
// procs is the machine's size; params are the --param values the user gave
// (other than timeout). The child must answer with the same protocol name.
//
// Scheduling passes, one per simulated instant at which jobs wait (or after
// every event with --pass-every-event):
//
//	hpcwl: {"type":"pass","now":3600,"free":96,"events":[EVENT,...]}
//	child: {"start":[17,18]}            or  {"start":[17],"wake":7200}
//
// events lists, in the engine's order, what happened since the previous
// pass: {"type":"arrived","time":T,"id":J,"submit":S,"procs":P,
// "estimate":E,"prediction":R,"user":U}, {"type":"ended","time":T,"id":J}
// and {"type":"prediction","time":T,"id":J,"prediction":R} (the job's
// runtime prediction changed, after it outlived the previous one). Times
// are whole seconds from the trace's start; estimate is the requested time
// (the kill limit with --kill); prediction is what backfilling plans with
// (the estimate unless --predictor says otherwise); user is -1 when unknown.
// The answer's start lists the ids of waiting jobs to start now, in order;
// they must fit in free together. wake, optional, asks for a pass at that
// later time even if no event happens then (for policies that age
// priorities).
//
// At the end of the run hpcwl writes {"type":"end"} and closes the child's
// input; the child should exit.
//
// A wrong answer (a job that is not waiting, one that does not fit, a
// malformed line, an exit or no answer within the time limit) stops the
// run with an error naming the pass and the answer's line.
package external

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/hpcwl/hpcwl/internal/inputlimit"
	"github.com/hpcwl/hpcwl/sim"
)

// Protocol is the name and version of the protocol, sent in the handshake.
const Protocol = "hpcwl-sched/1"

// DefaultTimeout is how long hpcwl waits for an answer by default.
const DefaultTimeout = 30 * time.Second

// Config describes the child process.
type Config struct {
	// Command is the program and its arguments, run without a shell.
	Command []string
	// Params are passed to the child in the handshake.
	Params map[string]string
	// Timeout bounds the wait for each answer (and the handshake); 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// Stderr receives the child's standard error; nil discards it. The
	// last lines are kept for error messages either way.
	Stderr io.Writer
}

// Scheduler is a [sim.Scheduler] that asks a child process for its
// decisions. Create it with [Start]; call Close when the run is over.
type Scheduler struct {
	cfg     Config
	cmd     *exec.Cmd
	in      *bufio.Writer
	inFile  io.Closer
	out     *os.File
	rd      *bufio.Reader
	stderr  *tail
	exited  chan struct{}
	waitErr error

	name     string
	started  bool
	err      error
	events   []event
	waiting  map[int64]sim.Ref
	wake     sim.Time
	line     int // lines read from the child
	passes   int
	msg      bytes.Buffer
	ans      answer
	seen     map[int64]bool
	Decision time.Duration // total time spent waiting for answers
}

type event struct {
	Type       string `json:"type"`
	Time       int64  `json:"time"`
	ID         int64  `json:"id"`
	Submit     *int64 `json:"submit,omitempty"`
	Procs      *int64 `json:"procs,omitempty"`
	Estimate   *int64 `json:"estimate,omitempty"`
	Prediction *int64 `json:"prediction,omitempty"`
	User       *int64 `json:"user,omitempty"`
}

type answer struct {
	Type     string  `json:"type"`
	Protocol string  `json:"protocol"`
	Name     string  `json:"name"`
	Start    []int64 `json:"start"`
	Wake     *int64  `json:"wake"`
}

// ErrProtocol is the cause of every error about the child's behaviour; test
// for it with errors.Is.
var ErrProtocol = errors.New("external scheduler")

// Start launches the child process. The handshake happens at the first
// event, when the machine's size is known.
func Start(cfg Config) (*Scheduler, error) {
	if len(cfg.Command) == 0 || cfg.Command[0] == "" {
		return nil, fmt.Errorf("%w: no command given", ErrProtocol)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	s := &Scheduler{cfg: cfg, cmd: cmd, stderr: &tail{w: cfg.Stderr}, exited: make(chan struct{}),
		waiting: map[int64]sim.Ref{}, seen: map[int64]bool{}}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, s.stderr
	// A killed process may leave children holding its standard error:
	// stop copying it a second after the process itself is gone.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("%w: starting %s: %v", ErrProtocol, cfg.Command[0], err)
	}
	inR.Close()
	outW.Close()
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()
	s.in = bufio.NewWriterSize(inW, 64<<10)
	s.inFile = inW
	s.out = outR
	s.rd = bufio.NewReaderSize(inputlimit.Lines(outR, "scheduler output", inputlimit.MaxLine), 64<<10)
	return s, nil
}

// Name returns the name the child gave in the handshake, prefixed with
// "exec:", or the command before the handshake.
func (s *Scheduler) Name() string {
	if s.name != "" {
		return "exec:" + s.name
	}
	return "exec:" + strings.Join(s.cfg.Command, " ")
}

// Err returns the first failure of the child process, which stops the run.
func (s *Scheduler) Err() error { return s.err }

// Passes returns how many passes the child answered.
func (s *Scheduler) Passes() int { return s.passes }

// Close ends the child: it sends the end message, closes the child's input
// and waits briefly for it to exit, then kills it.
func (s *Scheduler) Close() error {
	if s.cmd == nil {
		return nil
	}
	if s.err == nil {
		s.in.WriteString(`{"type":"end"}` + "\n")
		s.in.Flush()
	}
	s.inFile.Close()
	select {
	case <-s.exited:
	case <-time.After(2 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
	}
	s.out.Close()
	s.cmd = nil
	return nil
}

// fail records the first failure and kills the child.
func (s *Scheduler) fail(format string, a ...any) {
	if s.err != nil {
		return
	}
	msg := fmt.Sprintf(format, a...)
	if t := s.stderr.String(); t != "" {
		msg += "; its last standard error: " + t
	}
	s.err = fmt.Errorf("%w %s: %s", ErrProtocol, strings.Join(s.cfg.Command, " "), msg)
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Kill()
	}
}

func i64(v int64) *int64 { return &v }

// Notify implements [sim.Scheduler]: it queues the event for the next pass.
func (s *Scheduler) Notify(v *sim.View, n sim.Notice) {
	if s.err != nil {
		return
	}
	if !s.started {
		s.handshake(v)
	}
	r := n.Job
	id := v.ID(r)
	e := event{Time: int64(v.Now()), ID: id}
	switch n.Kind {
	case sim.Arrived:
		e.Type = "arrived"
		e.Submit, e.Procs, e.Estimate = i64(int64(v.Submit(r))), i64(int64(v.Size(r))), i64(int64(v.Estimate(r)))
		e.Prediction, e.User = i64(int64(v.Prediction(r))), i64(int64(v.User(r)))
		s.waiting[id] = r
	case sim.Ended:
		e.Type = "ended"
	case sim.PredictionChanged:
		e.Type, e.Prediction = "prediction", i64(int64(v.Prediction(r)))
	default:
		return
	}
	s.events = append(s.events, e)
}

func (s *Scheduler) handshake(v *sim.View) {
	s.started = true
	params := s.cfg.Params
	if params == nil {
		params = map[string]string{}
	}
	hello := struct {
		Type     string            `json:"type"`
		Protocol string            `json:"protocol"`
		Procs    int               `json:"procs"`
		Params   map[string]string `json:"params"`
	}{"hello", Protocol, v.Procs(), params}
	if !s.send(hello, "the handshake") {
		return
	}
	a, ok := s.receive("the handshake")
	if !ok {
		return
	}
	if a.Type != "hello" || a.Protocol != Protocol {
		s.fail(`line %d: the handshake must be answered with {"type":"hello","protocol":%q,...}; got type %q, protocol %q`,
			s.line, Protocol, a.Type, a.Protocol)
		return
	}
	s.name = a.Name
	if s.name == "" {
		s.name = strings.Join(s.cfg.Command, " ")
	}
}

// send writes one message; it reports false after a failure.
func (s *Scheduler) send(m any, what string) bool {
	s.msg.Reset()
	enc := json.NewEncoder(&s.msg)
	if err := enc.Encode(m); err != nil {
		s.fail("encoding %s: %v", what, err)
		return false
	}
	if _, err := s.in.Write(s.msg.Bytes()); err == nil {
		err = s.in.Flush()
		if err == nil {
			return true
		}
	}
	s.fail("%s: the process no longer reads its input (%s)", what, s.exitStatus())
	return false
}

// exitStatus describes how the child ended, or says it is running.
func (s *Scheduler) exitStatus() string {
	select {
	case <-s.exited:
		if s.waitErr != nil {
			return "it exited: " + s.waitErr.Error()
		}
		return "it exited with status 0"
	case <-time.After(100 * time.Millisecond):
		return "it is still running"
	}
}

// receive reads one answer line within the time limit.
func (s *Scheduler) receive(what string) (*answer, bool) {
	t0 := time.Now()
	s.out.SetReadDeadline(t0.Add(s.cfg.Timeout))
	b, err := s.rd.ReadSlice('\n')
	s.Decision += time.Since(t0)
	if err == bufio.ErrBufferFull {
		var long []byte
		long = append(long, b...)
		for err == bufio.ErrBufferFull {
			b, err = s.rd.ReadSlice('\n')
			long = append(long, b...)
		}
		b = long
	}
	s.line++
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		s.fail("no answer to %s within %v", what, s.cfg.Timeout)
		return nil, false
	case errors.Is(err, inputlimit.ErrTooLong):
		s.fail("answer line %d to %s is longer than %d bytes", s.line, what, inputlimit.MaxLine)
		return nil, false
	case err == io.EOF && len(bytes.TrimSpace(b)) == 0:
		s.fail("the process closed its output before answering %s (%s)", what, s.exitStatus())
		return nil, false
	case err != nil && err != io.EOF:
		s.fail("reading the answer to %s: %v", what, err)
		return nil, false
	}
	s.ans = answer{}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s.ans); err != nil {
		s.fail("answer line %d to %s is not a valid message (%v): %s", s.line, what, err, quote(b))
		return nil, false
	}
	return &s.ans, true
}

func quote(b []byte) string {
	b = bytes.TrimRight(b, "\r\n")
	if len(b) > 80 {
		return fmt.Sprintf("%q... (%d bytes)", b[:80], len(b))
	}
	return fmt.Sprintf("%q", b)
}

type passMsg struct {
	Type   string  `json:"type"`
	Now    int64   `json:"now"`
	Free   int     `json:"free"`
	Events []event `json:"events"`
}

// Schedule implements [sim.Scheduler]: it sends the pending events and
// returns the jobs the child starts.
func (s *Scheduler) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	if s.err != nil {
		return dst
	}
	if !s.started {
		s.handshake(v)
		if s.err != nil {
			return dst
		}
	}
	what := fmt.Sprintf("the pass at t=%d", v.Now())
	if !s.send(passMsg{Type: "pass", Now: int64(v.Now()), Free: v.Free(), Events: s.events}, what) {
		return dst
	}
	s.events = s.events[:0]
	a, ok := s.receive(what)
	if !ok {
		return dst
	}
	s.passes++
	free := v.Free()
	clear(s.seen)
	for _, id := range a.Start {
		r, ok := s.waiting[id]
		switch {
		case s.seen[id]:
			s.fail("answer line %d to %s starts job %d twice", s.line, what, id)
		case !ok:
			s.fail("answer line %d to %s starts job %d, which is not waiting", s.line, what, id)
		case v.Size(r) > free:
			s.fail("answer line %d to %s starts job %d needing %d processors with %d free",
				s.line, what, id, v.Size(r), free)
		}
		if s.err != nil {
			return dst[:0]
		}
		s.seen[id] = true
		free -= v.Size(r)
		dst = append(dst, r)
	}
	for _, r := range dst {
		delete(s.waiting, v.ID(r))
	}
	s.wake = 0
	if a.Wake != nil {
		if *a.Wake <= int64(v.Now()) {
			s.fail("answer line %d to %s asks for a wake-up at %d, not after now", s.line, what, *a.Wake)
			return dst[:0]
		}
		s.wake = sim.Time(*a.Wake)
	}
	return dst
}

// NextWake implements [sim.Waker]: the wake-up time of the last answer.
func (s *Scheduler) NextWake(v *sim.View) sim.Time { return s.wake }

// tail passes writes through and keeps the last bytes written.
type tail struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

const tailSize = 500

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w != nil {
		t.w.Write(p)
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(p), nil
}

// String returns the kept bytes, trimmed, on one line.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " | ")), " ")
}
