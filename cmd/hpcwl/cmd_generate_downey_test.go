package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
)

// TestGenerateDowney checks that the command is deterministic per seed,
// records the model and seed in the header, writes a log other commands
// read with the asked machine size, and warns when the default rate
// saturates the machine.
func TestGenerateDowney(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.swf"), filepath.Join(dir, "c.swf")
	for _, out := range []string{a, b} {
		if code, _, errOut := runCLI(t, "generate", "downey", "--procs", "128", "--count", "2000", "--offered-load", "0.7", "--seed", "7", "-o", out); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
	}
	ba, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if len(ba) == 0 || !bytes.Equal(withoutCommandLine(ba), withoutCommandLine(bb)) {
		t.Fatalf("same seed gave different outputs (%d and %d bytes)", len(ba), len(bb))
	}
	for _, want := range []string{"; MaxProcs: 128", "Seed: 7", "generate downey --seed 7", "b0 = -0.18, b1 = 0.1", "calibrated to offered load 0.7"} {
		if !strings.Contains(string(ba), want) {
			t.Errorf("header lacks %q", want)
		}
	}
	code, out, _ := runCLI(t, "info", "--json", a)
	var s struct{ Jobs, Procs int }
	if code != 0 || json.Unmarshal([]byte(out), &s) != nil || s.Jobs != 2000 || s.Procs != 128 {
		t.Errorf("info on the generated log: exit %d, %+v", code, s)
	}
	code, _, errOut := runCLI(t, "generate", "downey", "--count", "100", "--seed", "8", "-o", c)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "saturates the machine") {
		t.Errorf("no saturation warning at the paper's rate on 400 processors: %s", errOut)
	}
	if bc, _ := os.ReadFile(c); bytes.Equal(ba, bc) {
		t.Error("different options gave the same output")
	}
}

// TestGenerateDowneyBadInput checks usage errors: exit 2, a message naming
// the flag, and no output file.
func TestGenerateDowneyBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.swf")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--offered-load", "-0.5"}, "--offered-load"},
		{[]string{"--procs", "0"}, "--procs"},
		{[]string{"--count", "-3"}, "--count"},
		{[]string{"--duration", "soon"}, "--duration"},
		{[]string{"extra"}, "no arguments"},
	} {
		args := append([]string{"generate", "downey", "-o", out}, tc.args...)
		code, _, errOut := runCLI(t, args...)
		if code != 2 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 mentioning %q", tc.args, code, errOut, tc.msg)
		}
	}
	if code, _, errOut := runCLI(t, "generate", "downey", "-o", filepath.Join(dir, "x.txt")); code != 2 || !strings.Contains(errOut, "--to") {
		t.Errorf("unknown extension: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed run left an output file")
	}
}

// TestCoplotClassicModels pins the Co-Plot of docs/validation.md ("Classic
// models"): eight logs of Talby's set with 100,000 Lublin and 100,000 Downey
// jobs, without CL, UJ and JD as in Talby's Fig. 4. The Lublin model must lie
// nearer the logs' centroid than 7 of the 8 logs (Lublin and Feitelson,
// section 9.2, citing Talby et al.: the model closest to the average), and
// the Downey model must be the farthest point of all.
func TestCoplotClassicModels(t *testing.T) {
	dir := t.TempDir()
	lub, dow := filepath.Join(dir, "lub.swf"), filepath.Join(dir, "dow.swf")
	for _, args := range [][]string{
		{"generate", "lublin", "--count", "100000", "--seed", "1", "-o", lub},
		{"generate", "downey", "--count", "100000", "--offered-load", "0.7", "--seed", "1", "-o", dow},
	} {
		if code, _, errOut := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	args := []string{"coplot", "--json", "--vars", "TN,RL,Rm,Ri,Pm,Pi,Nm,Ni,Cm,Ci,Am,Ai"}
	logs := []string{"NASA-iPSC-1993-3.1-cln.swf.gz", "SDSC-Par-1996-3.1-cln.swf.gz", "SDSC-BLUE-2000-4.2-cln.swf.gz",
		"SDSC-SP2-1998-4.2-cln.swf.gz", "CTC-SP2-1996-3.1-cln.swf.gz", "KTH-SP2-1996-2.1-cln.swf.gz",
		"LANL-CM5-1994-4.1-cln.swf.gz", "OSC-Clust-2000-3.1-cln.swf.gz"}
	for _, l := range logs {
		args = append(args, testdata.Path(t, l))
	}
	code, out, errOut := runCLI(t, append(args, lub, dow)...)
	if code != 0 {
		t.Fatalf("coplot: exit %d: %s", code, errOut)
	}
	var rep struct {
		Map struct {
			Points []struct {
				Name string
				X, Y float64
			}
			Alienation float64
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	pts := rep.Map.Points
	if len(pts) != len(logs)+2 {
		t.Fatalf("%d points, want %d", len(pts), len(logs)+2)
	}
	var cx, cy float64
	for _, p := range pts[:len(logs)] {
		cx, cy = cx+p.X/float64(len(logs)), cy+p.Y/float64(len(logs))
	}
	dist := make([]float64, len(pts))
	for i, p := range pts {
		dist[i] = math.Hypot(p.X-cx, p.Y-cy)
	}
	t.Logf("alienation %.3f; distances from the logs' centroid: %v", rep.Map.Alienation, dist)
	dLub, dDow := dist[len(logs)], dist[len(logs)+1]
	closer := 0
	for _, d := range dist[:len(logs)] {
		if d < dLub {
			closer++
		}
		if d >= dDow {
			t.Errorf("a log (%.2f) is as far from the centroid as the Downey model (%.2f)", d, dDow)
		}
	}
	if closer > 1 || dLub >= dDow {
		t.Errorf("%d logs nearer the centroid than the Lublin model (%.2f); want at most 1", closer, dLub)
	}
}
