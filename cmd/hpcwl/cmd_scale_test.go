package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/trace"
)

func TestScaleJSONAndHeader(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "x.swf")
	code, out, errOut := runCLI(t, "scale", "builtin:KTH-SP2", "--by", "interarrival", "--target-load", "0.9", "--json", "-o", f)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r scaleReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if !(math.Abs(r.LoadAfter-0.9) <= 1e-4) || r.Method != "interarrival" || len(r.Warnings) == 0 || r.Warnings[0].Property != "daily cycle" {
		t.Errorf("report %+v", r.Result)
	}
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"; Note: load scaled by interarrival x1.28", "load scaling warning (daily cycle)", "; HpcwlCommand: hpcwl scale"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("header lacks %q", want)
		}
	}
	sc, err := trace.Load(f, trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, _ := trace.Load("builtin:KTH-SP2", trace.Options{})
	if sc.Len() != in.Len() || sc.Jobs[100].Runtime != in.Jobs[100].Runtime || sc.Jobs[100].Wait != -1 {
		t.Error("jobs not kept, runtime changed or wait kept")
	}
}

func TestScaleSameBytes(t *testing.T) {
	dir := t.TempDir()
	var b [2][]byte
	for i := range b {
		f := filepath.Join(dir, strings.Repeat("a", i+1)+".swf")
		if code, _, e := runCLI(t, "scale", "builtin:KTH-SP2", "--by", "size", "--load", "1.3", "--cap", "-o", f); code != 0 {
			t.Fatalf("exit %d: %s", code, e)
		}
		var err error
		if b[i], err = os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(withoutCommandLine(b[0]), withoutCommandLine(b[1])) {
		t.Error("two runs gave different files")
	}
}

func TestScaleBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.swf")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--by", "size", "--load", "2"}, 1, "wider than the machine"},
		{[]string{"--by", "runtime", "--load", "0"}, 2, "must be a positive number"},
		{[]string{"--by", "runtime", "--load", "-1"}, 2, "must be a positive number"},
		{[]string{"--by", "runtime", "--target-load", "0"}, 2, "must be a positive number"},
		{[]string{"--by", "runtime"}, 2, "--load FACTOR or --target-load"},
		{[]string{"--by", "runtime", "--load", "2", "--target-load", "0.9"}, 2, "exclude each other"},
		{[]string{"--load", "2"}, 2, "--by is required"},
		{[]string{"--by", "speed", "--load", "2"}, 2, "unknown load-scaling method"},
		{[]string{"--by", "runtime", "--load", "2", "--cap"}, 2, "--by size only"},
		{[]string{"--by", "runtime", "--load", "1e9"}, 1, "largest value SWF holds"},
	}
	for _, c := range cases {
		args := append([]string{"scale", "builtin:KTH-SP2", "-o", out}, c.args...)
		code, _, errOut := runCLI(t, args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v: output written", c.args)
		}
	}
}
