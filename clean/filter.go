package clean

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hpcwl/hpcwl/trace"
)

// Filter is a parsed filter expression in the style of the Parallel
// Workloads Archive's cleaned logs, such as
//
//	user=374 and 14968<job<28553
//	user=21 and (job>=13717 and job<=16207)
//	status=5 and run=0
//
// An expression combines comparisons with "and", "or", "not" and
// parentheses. A comparison relates field names, numbers and dates with =,
// ==, !=, <, <=, > or >=, and may be chained ("A<job<B" means "A<job and
// job<B"). The fields are listed by [FilterFields]; "hour" is the local
// hour of day of the submit time. A date ("2006-12-18" or "2006-12-18
// 00:00:00", local time) stands for its time in seconds since the log's
// start, to compare with submit. Values compare as numbers, so unknown
// values compare as -1. When cleaning, the jobs an expression matches are
// dropped.
//
// Local time comes from the trace the filter is bound to ([Filter.Bind];
// [Clean] binds its filters); an unbound filter uses UTC and relative time
// 0 at the Unix epoch.
type Filter struct {
	text  string
	match func(*trace.Job) bool
	env   *env
}

// env is what a filter needs beyond the job: the log's clock, for "hour"
// and date literals.
type env struct {
	clock *trace.Clock
	binds []func(*trace.Clock) // recompute date literals for a clock
}

// fieldGetters maps each field name accepted in filter expressions to its
// value; the short names come first, the CSV column names are aliases.
// ("hour" is handled by the parser, which knows the clock.)
var fieldGetters = map[string]func(*trace.Job) float64{
	"job":        func(j *trace.Job) float64 { return float64(j.ID) },
	"submit":     func(j *trace.Job) float64 { return float64(j.Submit) },
	"wait":       func(j *trace.Job) float64 { return float64(j.Wait) },
	"run":        func(j *trace.Job) float64 { return float64(j.Runtime) },
	"procs":      func(j *trace.Job) float64 { return float64(j.Procs) },
	"cpu":        func(j *trace.Job) float64 { return j.AvgCPU },
	"mem":        func(j *trace.Job) float64 { return j.UsedMem },
	"reqprocs":   func(j *trace.Job) float64 { return float64(j.ReqProcs) },
	"reqtime":    func(j *trace.Job) float64 { return float64(j.ReqTime) },
	"reqmem":     func(j *trace.Job) float64 { return j.ReqMem },
	"status":     func(j *trace.Job) float64 { return float64(j.Status) },
	"user":       func(j *trace.Job) float64 { return float64(j.User) },
	"group":      func(j *trace.Job) float64 { return float64(j.Group) },
	"app":        func(j *trace.Job) float64 { return float64(j.App) },
	"queue":      func(j *trace.Job) float64 { return float64(j.Queue) },
	"partition":  func(j *trace.Job) float64 { return float64(j.Partition) },
	"preceding":  func(j *trace.Job) float64 { return float64(j.Preceding) },
	"think":      func(j *trace.Job) float64 { return float64(j.ThinkTime) },
	"processors": func(j *trace.Job) float64 { return float64(j.Processors()) },
}

// fieldAliases maps other accepted names to the names of fieldGetters.
var fieldAliases = map[string]string{
	"runtime": "run", "executable": "app", "exe": "app", "think_time": "think", "proc": "procs",
}

func init() {
	short := []string{"job", "submit", "wait", "run", "procs", "cpu", "mem", "reqprocs", "reqtime",
		"reqmem", "status", "user", "group", "app", "queue", "partition", "preceding", "think"}
	for i, c := range trace.CSVColumns {
		if _, ok := fieldGetters[c]; !ok {
			fieldAliases[c] = short[i]
		}
	}
}

// FilterFields returns the field names accepted in filter expressions: the
// short names (job, submit, wait, run, procs, cpu, mem, reqprocs, reqtime,
// reqmem, status, user, group, app, queue, partition, preceding, think),
// "processors" (allocated, else requested), and the CSV column names as
// aliases.
func FilterFields() []string {
	var names []string
	for n := range fieldGetters {
		names = append(names, n)
	}
	names = append(names, "hour")
	sort.Strings(names)
	return names
}

// ParseFilter parses a filter expression. The error gives the position and
// what was expected.
func ParseFilter(s string) (*Filter, error) {
	p := &parser{src: s, env: &env{clock: epochClock()}}
	p.next()
	m, err := p.or()
	if err == nil && p.tok.kind != tEOF {
		err = p.errorf("expected \"and\", \"or\" or a comparison operator")
	}
	if err != nil {
		return nil, fmt.Errorf("filter %q: %w", s, err)
	}
	return &Filter{text: strings.Join(strings.Fields(s), " "), match: m, env: p.env}, nil
}

// epochClock is the clock of a log starting at the Unix epoch in UTC.
func epochClock() *trace.Clock {
	return (&trace.Trace{}).Clock()
}

// Bind makes the filter read local times ("hour", dates) with t's clock.
func (f *Filter) Bind(t *trace.Trace) {
	c := t.Clock()
	f.env.clock = c
	for _, b := range f.env.binds {
		b(c)
	}
}

// MustParseFilter is like [ParseFilter] but panics on error; for constant
// expressions.
func MustParseFilter(s string) *Filter {
	f, err := ParseFilter(s)
	if err != nil {
		panic(err)
	}
	return f
}

// Match reports whether the job matches the expression.
func (f *Filter) Match(j *trace.Job) bool { return f.match(j) }

// String returns the expression as given, with spaces normalized.
func (f *Filter) String() string { return f.text }

type tokKind int

const (
	tEOF tokKind = iota
	tNum
	tIdent
	tDate
	tOp
	tLParen
	tRParen
)

type token struct {
	kind tokKind
	text string
	pos  int
	num  float64
}

type parser struct {
	src string
	i   int
	tok token
	env *env
}

func (p *parser) errorf(format string, a ...any) error {
	found := "end of expression"
	if p.tok.kind != tEOF {
		found = strconv.Quote(p.tok.text)
	}
	return fmt.Errorf("column %d: %s, found %s", p.tok.pos+1, fmt.Sprintf(format, a...), found)
}

func (p *parser) next() {
	for p.i < len(p.src) && (p.src[p.i] == ' ' || p.src[p.i] == '\t') {
		p.i++
	}
	start := p.i
	if p.i >= len(p.src) {
		p.tok = token{kind: tEOF, pos: start}
		return
	}
	c := p.src[p.i]
	switch {
	case c == '(':
		p.i++
		p.tok = token{kind: tLParen, text: "(", pos: start}
	case c == ')':
		p.i++
		p.tok = token{kind: tRParen, text: ")", pos: start}
	case c == '=' || c == '!' || c == '<' || c == '>':
		p.i++
		if p.i < len(p.src) && p.src[p.i] == '=' {
			p.i++
		}
		p.tok = token{kind: tOp, text: p.src[start:p.i], pos: start}
	case c >= '0' && c <= '9' && p.date():
		p.tok = token{kind: tDate, text: p.src[start:p.i], pos: start}
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		p.i++
		for p.i < len(p.src) && (p.src[p.i] == '.' || p.src[p.i] >= '0' && p.src[p.i] <= '9' ||
			p.src[p.i] == 'e' || p.src[p.i] == 'E') {
			p.i++
		}
		text := p.src[start:p.i]
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			p.tok = token{kind: tIdent, text: text, pos: start} // reported as a bad name
			return
		}
		p.tok = token{kind: tNum, text: text, pos: start, num: v}
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		for p.i < len(p.src) && (p.src[p.i] == '_' || p.src[p.i] >= 'a' && p.src[p.i] <= 'z' ||
			p.src[p.i] >= 'A' && p.src[p.i] <= 'Z' || p.src[p.i] >= '0' && p.src[p.i] <= '9') {
			p.i++
		}
		p.tok = token{kind: tIdent, text: p.src[start:p.i], pos: start}
	default:
		p.i++
		p.tok = token{kind: tIdent, text: p.src[start:p.i], pos: start}
	}
}

// dateLayouts are the forms of date literals, longest first.
var dateLayouts = []string{"2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02"}

// date consumes a date literal at p.i, if there is one.
func (p *parser) date() bool {
	rest := p.src[p.i:]
	for _, l := range dateLayouts {
		if len(rest) >= len(l) {
			if _, err := time.Parse(l, rest[:len(l)]); err == nil {
				p.i += len(l)
				return true
			}
		}
	}
	return false
}

func (p *parser) keyword(k string) bool {
	return p.tok.kind == tIdent && strings.EqualFold(p.tok.text, k)
}

type matcher = func(*trace.Job) bool

func (p *parser) or() (matcher, error) {
	left, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.keyword("or") {
		p.next()
		right, err := p.and()
		if err != nil {
			return nil, err
		}
		l := left
		left = func(j *trace.Job) bool { return l(j) || right(j) }
	}
	return left, nil
}

func (p *parser) and() (matcher, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.keyword("and") {
		p.next()
		right, err := p.unary()
		if err != nil {
			return nil, err
		}
		l := left
		left = func(j *trace.Job) bool { return l(j) && right(j) }
	}
	return left, nil
}

func (p *parser) unary() (matcher, error) {
	switch {
	case p.keyword("not"):
		p.next()
		m, err := p.unary()
		if err != nil {
			return nil, err
		}
		return func(j *trace.Job) bool { return !m(j) }, nil
	case p.tok.kind == tLParen:
		p.next()
		m, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.tok.kind != tRParen {
			return nil, p.errorf("expected \")\"")
		}
		p.next()
		return m, nil
	}
	return p.comparison()
}

type operand = func(*trace.Job) float64

func (p *parser) operand() (operand, error) {
	switch p.tok.kind {
	case tNum:
		v := p.tok.num
		p.next()
		return func(*trace.Job) float64 { return v }, nil
	case tDate:
		text := p.tok.text
		var layout string
		for _, l := range dateLayouts {
			if len(l) == len(text) {
				if _, err := time.Parse(l, text); err == nil {
					layout = l
					break
				}
			}
		}
		v := new(float64)
		bind := func(c *trace.Clock) {
			tm, _ := time.ParseInLocation(layout, text, c.Loc)
			*v = float64(tm.Unix() - c.Start)
		}
		bind(p.env.clock)
		p.env.binds = append(p.env.binds, bind)
		p.next()
		return func(*trace.Job) float64 { return *v }, nil
	case tIdent:
		name := strings.ToLower(p.tok.text)
		if name == "hour" {
			e := p.env
			p.next()
			return func(j *trace.Job) float64 { return float64(e.clock.HourOfDay(j.Submit)) }, nil
		}
		if a, ok := fieldAliases[name]; ok {
			name = a
		}
		g, ok := fieldGetters[name]
		if !ok || name == "and" || name == "or" || name == "not" {
			return nil, p.errorf("expected a field name (%s) or a number", strings.Join(FilterFields(), ", "))
		}
		p.next()
		return g, nil
	}
	return nil, p.errorf("expected a field name, a number or a date")
}

func compare(op string, a, b float64) bool {
	switch op {
	case "=", "==":
		return a == b
	case "!=":
		return a != b
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	}
	return a >= b
}

func (p *parser) comparison() (matcher, error) {
	left, err := p.operand()
	if err != nil {
		return nil, err
	}
	var m matcher
	for p.tok.kind == tOp {
		op := p.tok.text
		if op == "!" {
			return nil, p.errorf("expected a comparison operator (=, !=, <, <=, >, >=)")
		}
		p.next()
		right, err := p.operand()
		if err != nil {
			return nil, err
		}
		a, b := left, right
		c := func(j *trace.Job) bool { return compare(op, a(j), b(j)) }
		if m == nil {
			m = c
		} else {
			prev := m
			m = func(j *trace.Job) bool { return prev(j) && c(j) }
		}
		left = right
	}
	if m == nil {
		return nil, p.errorf("expected a comparison operator (=, !=, <, <=, >, >=)")
	}
	return m, nil
}
