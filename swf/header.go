package swf

import (
	"strconv"
	"strings"
)

// StandardKeys lists the header keys defined by the SWF standard, in the order
// the archive's logs use them. Keys outside this list are kept as they are.
var StandardKeys = []string{
	"Version", "Computer", "Installation", "Acknowledge", "Information",
	"Conversion", "MaxJobs", "MaxRecords", "Preemption", "UnixStartTime",
	"TimeZone", "TimeZoneString", "StartTime", "EndTime", "MaxNodes",
	"MaxProcs", "MaxRuntime", "MaxMemory", "AllowOveruse", "MaxQueues",
	"Queues", "Queue", "MaxPartitions", "Partitions", "Partition", "Note",
}

// HeaderLine is one comment line of an SWF header.
//
// A line of the form "; Key: value" has Key set and Value holding the text
// after the colon, trimmed. Any other comment line (a continuation of the
// previous value, a blank ";", free text) has an empty Key and its text, less
// the leading ';' and one space after it, in Value.
type HeaderLine struct {
	Key   string
	Value string
	// Raw is the line exactly as read, without its line ending. The writer
	// prints Raw when it is set, so unmodified headers round-trip byte for
	// byte; lines built by [Header.Set] or [Header.Add] have no Raw.
	Raw string
}

// Header is the comment block of an SWF log, in file order.
//
// The typed accessors ([Header.MaxProcs], [Header.UnixStartTime], ...) read
// the first line with the given key and parse the leading number of its
// value, so variants such as "MaxProcs: 1664 (72, 1368, 224)" work.
type Header struct {
	Lines []HeaderLine
}

// parseHeaderLine splits a comment line (starting with ';') into key and value.
func parseHeaderLine(raw string) HeaderLine {
	text := strings.TrimPrefix(raw, ";")
	trimmed := strings.TrimLeft(text, " \t")
	indent := len(text) - len(trimmed)
	colon := strings.IndexByte(trimmed, ':')
	if colon > 0 && isIdent(trimmed[:colon]) && !strings.HasPrefix(trimmed[colon+1:], "//") {
		key := trimmed[:colon]
		if indent <= 1 || isStandardKey(key) {
			return HeaderLine{Key: key, Value: strings.TrimSpace(trimmed[colon+1:]), Raw: raw}
		}
	}
	return HeaderLine{Value: strings.TrimPrefix(text, " "), Raw: raw}
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return s != "" && (s[0] < '0' || s[0] > '9')
}

func isStandardKey(k string) bool {
	for _, s := range StandardKeys {
		if strings.EqualFold(s, k) {
			return true
		}
	}
	return false
}

// String formats the line as it appears in an SWF file.
func (l HeaderLine) String() string {
	if l.Raw != "" {
		return l.Raw
	}
	if l.Key == "" {
		if l.Value == "" {
			return ";"
		}
		return "; " + l.Value
	}
	return "; " + l.Key + ": " + l.Value
}

// Get returns the value of the first line with the given key (compared
// case-insensitively) and whether there is one.
func (h *Header) Get(key string) (string, bool) {
	for _, l := range h.Lines {
		if l.Key != "" && strings.EqualFold(l.Key, key) {
			return l.Value, true
		}
	}
	return "", false
}

// GetAll returns the values of every line with the given key, in order.
func (h *Header) GetAll(key string) []string {
	var vs []string
	for _, l := range h.Lines {
		if l.Key != "" && strings.EqualFold(l.Key, key) {
			vs = append(vs, l.Value)
		}
	}
	return vs
}

// Int returns the leading integer of the first value with the given key. It
// reports false when the key is absent or its value does not start with an
// integer.
func (h *Header) Int(key string) (int64, bool) {
	v, ok := h.Get(key)
	if !ok {
		return 0, false
	}
	f := strings.Fields(v)
	if len(f) == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// Set replaces the value of the first line with the given key, or appends a
// new line when there is none. The line loses its raw text.
func (h *Header) Set(key, value string) {
	for i, l := range h.Lines {
		if l.Key != "" && strings.EqualFold(l.Key, key) {
			h.Lines[i] = HeaderLine{Key: l.Key, Value: value}
			return
		}
	}
	h.Add(key, value)
}

// Add appends a "; key: value" line.
func (h *Header) Add(key, value string) {
	h.Lines = append(h.Lines, HeaderLine{Key: key, Value: value})
}

// Delete removes every line with the given key.
func (h *Header) Delete(key string) {
	out := h.Lines[:0]
	for _, l := range h.Lines {
		if l.Key == "" || !strings.EqualFold(l.Key, key) {
			out = append(out, l)
		}
	}
	h.Lines = out
}

// AddNote appends a "; Note: text" line, the archive's way of recording how
// a log was changed.
func (h *Header) AddNote(text string) { h.Add("Note", text) }

// Clone returns a deep copy of h.
func (h Header) Clone() Header {
	return Header{Lines: append([]HeaderLine(nil), h.Lines...)}
}

// MaxProcs returns the MaxProcs value: the number of processors of the machine.
func (h *Header) MaxProcs() (int64, bool) { return h.Int("MaxProcs") }

// MaxNodes returns the MaxNodes value.
func (h *Header) MaxNodes() (int64, bool) { return h.Int("MaxNodes") }

// UnixStartTime returns the Unix time (seconds, UTC) that submit time 0 refers to.
func (h *Header) UnixStartTime() (int64, bool) { return h.Int("UnixStartTime") }

// TimeZone returns the TimeZone value: the offset from UTC in seconds.
// The archive's logs hold a standard-time offset; prefer
// [Header.TimeZoneString] where it is present, which accounts for daylight
// saving time.
func (h *Header) TimeZone() (int64, bool) { return h.Int("TimeZone") }

// TimeZoneString returns the TimeZoneString value, an IANA zone name such as
// "US/Pacific".
func (h *Header) TimeZoneString() (string, bool) {
	v, ok := h.Get("TimeZoneString")
	if !ok {
		return "", false
	}
	if f := strings.Fields(v); len(f) > 0 {
		return f[0], true
	}
	return "", false
}

// MaxRuntime returns the MaxRuntime value in seconds.
func (h *Header) MaxRuntime() (int64, bool) { return h.Int("MaxRuntime") }

// MaxJobs returns the MaxJobs value.
func (h *Header) MaxJobs() (int64, bool) { return h.Int("MaxJobs") }

// MaxRecords returns the MaxRecords value.
func (h *Header) MaxRecords() (int64, bool) { return h.Int("MaxRecords") }

// Notes returns the values of all Note lines.
func (h *Header) Notes() []string { return h.GetAll("Note") }
