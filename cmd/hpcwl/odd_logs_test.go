package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
)

// TestEveryCommandOnOddLogs is the continuous-integration side of
// scripts/odd-logs.sh: every command runs in-process on every hand-made
// odd log and must end with exit status 0 or a clear error (1 or 2 with a
// message; a panic fails the test), and its JSON must decode.
func TestEveryCommandOnOddLogs(t *testing.T) {
	for _, name := range testdata.OddLogs {
		log := testdata.Odd(name)
		dir := t.TempDir()
		lenient := []string{}
		if name == "status.swf" {
			lenient = []string{"--lenient"}
		}
		runs := []struct {
			args []string
			json bool
		}{
			{[]string{"info", "--json"}, true},
			{[]string{"info"}, false},
			{[]string{"clean", "-o", filepath.Join(dir, "clean.swf")}, false},
			{[]string{"convert", "-o", filepath.Join(dir, "w.json")}, false},
			{[]string{"convert", "-o", filepath.Join(dir, "w.csv")}, false},
			{[]string{"simulate", "--json", "--scheduler", "easy"}, true},
			{[]string{"simulate", "--json", "--scheduler", "conservative"}, true},
			{[]string{"simulate", "--json", "--scheduler", "ups"}, true},
			{[]string{"simulate", "--json", "--predictor", "sbh"}, true},
			{[]string{"evaluate", "--json"}, true},
			{[]string{"sessions", "--json"}, true},
			{[]string{"resample", "--json", "-o", filepath.Join(dir, "r.swf")}, true},
			{[]string{"compare", "--json", log}, true},
			{[]string{"replicate", "--json", "--variants", "2"}, true},
			{[]string{"fit", "--json"}, true},
			{[]string{"fit", "lublin", "--json"}, true},
		}
		for _, r := range runs {
			args := append(append(append([]string{}, r.args...), lenient...), log)
			if r.args[0] == "fit" && len(r.args) > 1 && r.args[1] == "lublin" {
				args = append([]string{"fit", "lublin"}, append(append(r.args[2:], lenient...), log)...)
			}
			t.Run(name+"/"+strings.Join(r.args[:min(2, len(r.args))], " "), func(t *testing.T) {
				code, out, errOut := runCLI(t, args...)
				if strings.Contains(errOut, "json: unsupported value") {
					t.Fatalf("%v: %s", args, errOut)
				}
				switch {
				case code == 0:
				case (code == 1 || code == 2) && (strings.HasPrefix(errOut, "hpcwl: ") || strings.Contains(errOut, "\nhpcwl: ")):
					return
				default:
					t.Fatalf("%v: exit %d without a clear message: %q", args, code, errOut)
				}
				if !r.json {
					return
				}
				dec := json.NewDecoder(strings.NewReader(out))
				for dec.More() {
					var v any
					if err := dec.Decode(&v); err != nil {
						t.Fatalf("%v: output is not JSON: %v", args, err)
					}
				}
			})
		}
	}
}
