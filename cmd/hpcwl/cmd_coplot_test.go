package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
)

func TestShortLogName(t *testing.T) {
	for in, want := range map[string]string{
		"../shared/data/swf/SDSC-BLUE-2000-4.2-cln.swf.gz": "SDSC-BLUE-2000",
		"builtin:KTH-SP2":             "KTH-SP2",
		"x/LANL-CM5-1994-4.1-cln.swf": "LANL-CM5-1994",
		"my.log.csv":                  "my.log",
	} {
		if got := shortLogName(in); got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}

// TestCoplotRealLogs maps the eight logs we share with Talby's Fig. 2 on
// the variables of his two axes (docs/validation.md, "Co-Plot").
func TestCoplotRealLogs(t *testing.T) {
	dir := testdata.Dir(t)
	var logs []string
	for _, f := range []string{"NASA-iPSC-1993-3.1-cln.swf.gz", "SDSC-Par-1996-3.1-cln.swf.gz", "SDSC-BLUE-2000-4.2-cln.swf.gz",
		"SDSC-SP2-1998-4.2-cln.swf.gz", "CTC-SP2-1996-3.1-cln.swf.gz", "KTH-SP2-1996-2.1-cln.swf.gz",
		"LANL-CM5-1994-4.1-cln.swf.gz", "OSC-Clust-2000-3.1-cln.swf.gz"} {
		logs = append(logs, filepath.Join(dir, f))
	}
	out := t.TempDir()
	pts, arr := filepath.Join(out, "p.csv"), filepath.Join(out, "a.csv")
	args := append([]string{"coplot", "--json", "--vars", "JD,Am,Ai,CL,Rm,Ri,Cm,Ci,Pm,Pi,UJ,TN", "--points", pts, "--arrows", arr}, logs...)
	code, stdout, errOut := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Map struct {
			Alienation      float64 `json:"alienation"`
			MeanCorrelation float64 `json:"mean_correlation"`
			Arrows          []struct {
				Variable    string  `json:"variable"`
				DX          float64 `json:"dx"`
				DY          float64 `json:"dy"`
				Correlation float64 `json:"correlation"`
			} `json:"arrows"`
		} `json:"map"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	// Pinned at seed 1.
	if d := r.Map.Alienation - 0.084; d > 0.0005 || d < -0.0005 {
		t.Errorf("alienation %.4f, pinned 0.084", r.Map.Alienation)
	}
	// Talby: Θ < 0.15 is a good map (his 0.10); the two axes: JD against
	// the inter-arrival times, runtime and CPU work against parallelism.
	cos := map[string][2]float64{}
	for _, a := range r.Map.Arrows {
		cos[a.Variable] = [2]float64{a.DX, a.DY}
	}
	dot := func(a, b string) float64 { return cos[a][0]*cos[b][0] + cos[a][1]*cos[b][1] }
	if r.Map.Alienation >= 0.15 || dot("JD", "Am") > -0.5 || dot("Rm", "Cm") < 0.9 || dot("Rm", "Pm") > -0.5 {
		t.Errorf("alienation %.3f; cos JD,Am %.2f; Rm,Cm %.2f; Rm,Pm %.2f", r.Map.Alienation, dot("JD", "Am"), dot("Rm", "Cm"), dot("Rm", "Pm"))
	}
	for _, f := range []string{pts, arr} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(strings.Split(strings.TrimSpace(string(b)), "\n")); n != 9 && n != 13 {
			t.Errorf("%s: %d lines", f, n)
		}
	}
	if strings.Contains(errOut, "fit a plane exactly") {
		t.Errorf("eight logs: warned of a trivial map: %s", errOut)
	}
	// Three logs fit exactly whatever their variables, which is said.
	code, stdout, errOut = runCLI(t, append([]string{"coplot", "--vars", "JD,Am,Rm,Pm"}, logs[:3]...)...)
	if code != 0 || !strings.Contains(errOut, "warning: three logs fit a plane exactly") || !strings.Contains(stdout, "coefficient of alienation 0.000") {
		t.Errorf("three logs: exit %d, %s%s", code, stdout, errOut)
	}
}

func TestCoplotUsage(t *testing.T) {
	for _, args := range [][]string{
		{"coplot", "builtin:KTH-SP2", "builtin:KTH-SP2"},
		{"coplot", "--vars", "JD,XX", "builtin:KTH-SP2", "builtin:KTH-SP2", "builtin:KTH-SP2"},
	} {
		if code, _, errOut := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
	// Three copies of one log: every variable is constant.
	if code, _, errOut := runCLI(t, "coplot", "builtin:KTH-SP2", "builtin:KTH-SP2", "builtin:KTH-SP2"); code != 1 || !strings.Contains(errOut, "constant") {
		t.Errorf("identical logs: exit %d, %s", code, errOut)
	}
}
