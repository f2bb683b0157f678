package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClassesTableJSONAndCSV(t *testing.T) {
	code, out, errOut := runCLI(t, "classes", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"8275 sessions and 214 users of 1 log(s)", "session PCA (Talby, Table 20)",
		"session classes (Table 21)", "user classes (Table 23)", "IWD mean"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	dir := t.TempDir()
	ss, us := filepath.Join(dir, "s.csv"), filepath.Join(dir, "u.csv")
	code, out, errOut = runCLI(t, "classes", "--json", "--sessions", ss, "--users", us, "--seed", "3", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Seed   uint64 `json:"seed"`
		Inputs []struct {
			SHA256 string `json:"sha256"`
		} `json:"inputs"`
		Report struct {
			Sessions       int `json:"sessions"`
			Users          int `json:"users"`
			SessionClasses struct {
				Classes []struct {
					Class    string `json:"class"`
					Sessions int    `json:"sessions"`
				} `json:"classes"`
			} `json:"session_classes"`
			UserPCA struct {
				Variables []string `json:"variables"`
			} `json:"user_pca"`
		} `json:"report"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, c := range r.Report.SessionClasses.Classes {
		sum += c.Sessions
	}
	if r.Seed != 3 || len(r.Inputs) != 1 || r.Inputs[0].SHA256 == "" || r.Report.Sessions != 8275 || sum != 8275 ||
		len(r.Report.UserPCA.Variables) != 16 {
		t.Errorf("%+v", r)
	}
	b, err := os.ReadFile(ss)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 8276 || !strings.HasPrefix(lines[0], "log,user,first_submit,jobs_first_id,class,online_class,J,D,Rm,") {
		t.Errorf("sessions CSV: %d lines, header %q", len(lines), lines[0])
	}
	b, err = os.ReadFile(us)
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 215 || lines[0] != "log,user,class,J,S,Rm,Ri,Pm,Pi,Im,Ii,Tm,Ti,%D,%W,%IWD,%IWN,%IW,%BHP,%BHD,JW,D" {
		t.Errorf("users CSV: %d lines, header %q", len(lines), lines[0])
	}
	// Same seed, same bytes.
	ss2 := filepath.Join(dir, "s2.csv")
	if code, _, errOut := runCLI(t, "classes", "--sessions", ss2, "--seed", "3", "builtin:KTH-SP2"); code != 0 {
		t.Fatal(errOut)
	}
	b2, _ := os.ReadFile(ss2)
	b1, _ := os.ReadFile(ss)
	if string(b1) != string(b2) {
		t.Error("sessions CSV differs between runs with the same seed")
	}
}

func TestClassesUsage(t *testing.T) {
	for _, args := range [][]string{
		{"classes"},
		{"classes", "--threshold", "0", "builtin:KTH-SP2"},
		{"classes", "--threshold", "20", "builtin:KTH-SP2"},
		{"classes", "--restarts", "0", "builtin:KTH-SP2"},
		{"classes", "--components", "0", "builtin:KTH-SP2"},
	} {
		if code, _, errOut := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}
