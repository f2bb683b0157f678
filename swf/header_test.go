package swf

import (
	"slices"
	"testing"
)

// TestParseHeaderLine: "; Key: value" lines have a key when Key is an
// identifier not starting with a digit and not followed by "//" (a URL);
// an indented line keeps its key only for the standard's keys (otherwise it
// is the continuation of a value); other lines keep their text less ';' and
// one space.
func TestParseHeaderLine(t *testing.T) {
	for _, c := range []struct {
		raw, key, value string
	}{
		{"; MaxProcs: 128", "MaxProcs", "128"},
		{";MaxProcs:128", "MaxProcs", "128"},
		{";  MaxNodes: 64 ", "MaxNodes", "64"},
		{";  Remark: indented, not standard", "", " Remark: indented, not standard"},
		{"; My_key-2: x", "My_key-2", "x"},
		{"; 2nd: x", "", "2nd: x"},
		{"; 0x: x", "", "0x: x"},
		{"; 9x: x", "", "9x: x"},
		{"; aZz_A-09: x", "aZz_A-09", "x"},
		{"; z: x", "z", "x"},
		{"; Z: x", "Z", "x"},
		{"; a@b: x", "", "a@b: x"},
		{"; a[b: x", "", "a[b: x"},
		{"; a`b: x", "", "a`b: x"},
		{"; a{b: x", "", "a{b: x"},
		{"; a/b: x", "", "a/b: x"},
		{"; a b: x", "", "a b: x"},
		{"; http://example.org/x", "", "http://example.org/x"},
		{"; Information: http://example.org", "Information", "http://example.org"},
		{"; : empty key", "", ": empty key"},
		{"; just text", "", "just text"},
		{";", "", ""},
		{";\tTabbed: 1", "Tabbed", "1"},
	} {
		l := parseHeaderLine(c.raw)
		if l.Key != c.key || l.Value != c.value || l.Raw != c.raw {
			t.Errorf("parseHeaderLine(%q) = %+v, want key %q value %q", c.raw, l, c.key, c.value)
		}
	}
}

// TestHeaderAccessors covers the lookups (first line, any case), the
// leading integer of a value, Set, Add, Delete and the formatting of lines
// without raw text.
func TestHeaderAccessors(t *testing.T) {
	var h Header
	for _, raw := range []string{"; MaxProcs: 1664 (72, 1368, 224)", "; note: one", "; free text", "; Note: two",
		"; TimeZoneString: US/Pacific (PST)", "; MaxJobs: n/a", "; MaxRecords:", "; MaxProcs: 8"} {
		h.Lines = append(h.Lines, parseHeaderLine(raw))
	}
	if p, ok := h.MaxProcs(); !ok || p != 1664 {
		t.Errorf("MaxProcs %d %v, want the first line's 1664", p, ok)
	}
	if _, ok := h.MaxJobs(); ok {
		t.Error("MaxJobs n/a read as a number")
	}
	if _, ok := h.MaxRecords(); ok {
		t.Error("empty MaxRecords read as a number")
	}
	if _, ok := h.MaxNodes(); ok {
		t.Error("absent MaxNodes found")
	}
	if z, ok := h.TimeZoneString(); !ok || z != "US/Pacific" {
		t.Errorf("TimeZoneString %q %v", z, ok)
	}
	if got := h.Notes(); !slices.Equal(got, []string{"one", "two"}) {
		t.Errorf("Notes %q", got)
	}
	if v, ok := h.Get("free text"); ok {
		t.Errorf("a line without key found: %q", v)
	}
	h.Set("maxprocs", "16")
	if h.Lines[0].String() != "; MaxProcs: 16" || h.Lines[7].Value != "8" {
		t.Errorf("Set changed %q and %q", h.Lines[0].String(), h.Lines[7].String())
	}
	h.Set("MaxRuntime", "3600")
	if r, ok := h.MaxRuntime(); !ok || r != 3600 || h.Lines[len(h.Lines)-1].String() != "; MaxRuntime: 3600" {
		t.Errorf("Set of a new key: %d %v, last line %q", r, ok, h.Lines[len(h.Lines)-1].String())
	}
	h.Delete("NOTE")
	if len(h.Notes()) != 0 || len(h.Lines) != 7 || h.Lines[1].Value != "free text" {
		t.Errorf("after Delete: %+v", h.Lines)
	}
	h.AddNote("three")
	c := h.Clone()
	c.Lines[0].Value = "changed"
	if h.Lines[0].Value != "16" || h.Notes()[0] != "three" {
		t.Errorf("Clone shares lines, or AddNote lost: %+v", h.Lines)
	}
	for _, c := range []struct {
		l    HeaderLine
		want string
	}{
		{HeaderLine{}, ";"}, {HeaderLine{Value: "text"}, "; text"}, {HeaderLine{Key: "K", Value: "v"}, "; K: v"},
		{HeaderLine{Key: "K", Value: "v", Raw: ";K:v"}, ";K:v"},
	} {
		if got := c.l.String(); got != c.want {
			t.Errorf("%+v.String() = %q, want %q", c.l, got, c.want)
		}
	}
	var empty Header
	if _, ok := empty.TimeZoneString(); ok {
		t.Error("TimeZoneString of an empty header")
	}
	empty.Lines = []HeaderLine{{Key: "TimeZoneString", Value: ""}}
	if _, ok := empty.TimeZoneString(); ok {
		t.Error("empty TimeZoneString found")
	}
}
