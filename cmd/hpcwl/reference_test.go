package main

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
)

// TestReferenceSchedules checks the published reference schedules
// (reference/): their checksums, and, for three logs, that simulating
// again gives every job the published wait under FCFS, EASY and
// conservative backfilling. scripts/reference-schedules --check does the
// same for all eleven logs.
func TestReferenceSchedules(t *testing.T) {
	dir := filepath.Join("..", "..", "reference")
	sums, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		sum, file, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q", line)
		}
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if h := sha256.Sum256(b); hex.EncodeToString(h[:]) != sum {
			t.Errorf("%s: checksum differs from SHA256SUMS", file)
		}
		n++
	}
	if n != len(testdata.Logs) {
		t.Errorf("SHA256SUMS lists %d files, want one per shared log (%d)", n, len(testdata.Logs))
	}
	for _, tc := range []struct{ name, trace string }{
		{"KTH-SP2", "builtin:KTH-SP2"},
		{"NASA-iPSC", "NASA-iPSC-1993-3.1-cln.swf.gz"},
		{"SDSC-SP2", "SDSC-SP2-1998-4.2-cln.swf.gz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := tc.trace
			if !strings.HasPrefix(tr, "builtin:") {
				tr = testdata.Path(t, tr)
			}
			want := readReference(t, filepath.Join(dir, tc.name+".csv.gz"))
			for k, s := range []string{"fcfs", "easy", "conservative"} {
				jobs := filepath.Join(t.TempDir(), "jobs.csv")
				if code, _, errOut := runCLI(t, "simulate", tr, "--scheduler", s, "--kill", "--oversize", "drop", "--jobs", jobs); code != 0 {
					t.Fatalf("%s: exit %d: %s", s, code, errOut)
				}
				got := jobWaits(t, jobs)
				if len(got) != len(want) {
					t.Fatalf("%s: %d jobs simulated, the reference has %d", s, len(got), len(want))
				}
				diff := 0
				for id, w := range want {
					if got[id] != w[k] {
						if diff == 0 {
							t.Errorf("%s: job %s waits %s, the reference says %s", s, id, got[id], w[k])
						}
						diff++
					}
				}
				if diff > 0 {
					t.Errorf("%s: %d of %d waits differ from the reference", s, diff, len(want))
				}
			}
		})
	}
}

// readReference reads a reference file: job id -> waits (fcfs, easy, conservative).
func readReference(t *testing.T, name string) map[string][3]string {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(bufio.NewReader(zr))
	head, err := r.Read()
	if err != nil || strings.Join(head, ",") != "job_id,fcfs_wait,easy_wait,conservative_wait" {
		t.Fatalf("%s: header %v, %v", name, head, err)
	}
	m := map[string][3]string{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		m[rec[0]] = [3]string{rec[1], rec[2], rec[3]}
	}
	return m
}

// jobWaits reads a jobs.csv: job id -> waiting_time.
func jobWaits(t *testing.T, name string) map[string]string {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	head, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	m := map[string]string{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		m[rec[col["job_id"]]] = rec[col["waiting_time"]]
	}
	return m
}
