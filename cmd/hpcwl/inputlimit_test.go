package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHugeLineRefused checks that a line or JSON value far longer than any
// real one is refused with the file and line, a short message and the
// error exit code, in every trace format and for parameter files. The
// compressed cases hold 32 MiB of digits in a few kilobytes: a reader that
// read the whole line first would still succeed, only slowly; the test
// checks the message, and inputlimit's tests check that reading stops at
// the limit.
func TestHugeLineRefused(t *testing.T) {
	dir := t.TempDir()
	digits := bytes.Repeat([]byte("7"), 32<<20)
	gz := func(name string, parts ...[]byte) string {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		for _, p := range parts {
			zw.Write(p)
		}
		zw.Close()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	swfHeader := []byte("; MaxProcs: 8\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n")
	csvHeader := []byte("job_number,submit_time,wait_time,run_time,allocated_processors,average_cpu_time,used_memory,requested_processors,requested_time,requested_memory,status,user_id,group_id,executable_number,queue_number,partition_number,preceding_job_number,think_time\n")
	params := filepath.Join(dir, "params.json")
	if err := os.WriteFile(params, append(append([]byte(`{"mode":"whole","SerialProb":`), digits[:1<<20]...), '}'), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"swf", []string{"info", gz("long.swf.gz", swfHeader, digits)}, "long.swf.gz: line 3: line longer than 1048576 bytes"},
		{"csv", []string{"info", gz("long.csv.gz", csvHeader, digits)}, "long.csv.gz: line 2: line longer than 1048576 bytes"},
		{"batsim", []string{"info", gz("long.json.gz", []byte(`{"nb_res":4,"jobs":[{"id":1,"subtime":`), digits)}, "long.json.gz: line 1: JSON number longer than 65536 bytes"},
		{"lublin parameters", []string{"generate", "lublin", "--jobs", "10", "--params", params, "-o", filepath.Join(dir, "out.swf")}, "JSON number longer than 65536 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.args...)
			if code != exitError {
				t.Errorf("exit %d, want %d (error); stdout %q", code, exitError, out)
			}
			if !strings.Contains(errOut, tt.want) {
				t.Errorf("stderr %q lacks %q", errOut, tt.want)
			}
			if len(errOut) > 1000 {
				t.Errorf("stderr is %d bytes: the message must quote at most a short prefix", len(errOut))
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "out.swf")); !os.IsNotExist(err) {
		t.Errorf("generate wrote its output despite the bad parameter file (stat: %v)", err)
	}
}
