package testdata

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// recorder stands in for a test to see what Dir and Find do with it.
type recorder struct {
	testing.TB
	fatal, skip string
}

// stop ends the call like FailNow and SkipNow would end a test.
type stop struct{}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	panic(stop{})
}
func (r *recorder) Skipf(format string, args ...any) {
	r.skip = fmt.Sprintf(format, args...)
	panic(stop{})
}

// call runs f on a fresh recorder and returns it.
func call(t *testing.T, f func(testing.TB)) *recorder {
	r := &recorder{TB: t}
	func() {
		defer func() {
			if v := recover(); v != nil && v != (stop{}) {
				panic(v)
			}
		}()
		f(r)
	}()
	return r
}

// TestRequireData: with the logs missing, Dir skips and Find reports it, unless
// HPCWL_REQUIRE_DATA is set (not "0"), when both fail the test; with the
// logs there, both return their directory.
func TestRequireData(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nonexistent")
	present := t.TempDir()
	if err := os.WriteFile(filepath.Join(present, Logs[0].File), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		data, require     string
		wantFatal, wantOK bool
	}{
		{missing, "", false, false},
		{missing, "0", false, false},
		{missing, "1", true, false},
		{present, "1", false, true},
		{present, "", false, true},
	} {
		t.Setenv("HPCWL_DATA", c.data)
		t.Setenv("HPCWL_REQUIRE_DATA", c.require)
		var dir string
		var ok bool
		r := call(t, func(tb testing.TB) { dir, ok = Find(tb) })
		if (r.fatal != "") != c.wantFatal || r.skip != "" || (!c.wantFatal && (ok != c.wantOK || dir != c.data)) {
			t.Errorf("Find with HPCWL_DATA=%s HPCWL_REQUIRE_DATA=%q: dir %s ok %v, fatal %q, skip %q",
				c.data, c.require, dir, ok, r.fatal, r.skip)
		}
		dir = ""
		r = call(t, func(tb testing.TB) { dir = Dir(tb) })
		wantSkip := !c.wantFatal && !c.wantOK
		if (r.fatal != "") != c.wantFatal || (r.skip != "") != wantSkip || (c.wantOK && dir != c.data) {
			t.Errorf("Dir with HPCWL_DATA=%s HPCWL_REQUIRE_DATA=%q: dir %q, fatal %q, skip %q",
				c.data, c.require, dir, r.fatal, r.skip)
		}
	}
	skipped.Store(0) // the skips above were not tests
}
