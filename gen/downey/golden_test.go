package downey_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/gen/downey"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden pins the first 50 jobs of two configurations, so that any
// change of the generator's stream shows (and then needs a new Version).
// After a deliberate change: go test ./gen/downey -run TestGolden -update.
func TestGolden(t *testing.T) {
	for _, c := range []struct {
		file string
		cfg  downey.Config
	}{
		{"seed1-default.txt", downey.Config{Jobs: 50, Seed: 1}},
		{"seed7-procs128-load07.txt", downey.Config{Jobs: 50, Seed: 7, Procs: 128, Load: 0.7}},
	} {
		t.Run(c.file, func(t *testing.T) {
			var b strings.Builder
			fmt.Fprintf(&b, "# %s; submit runtime procs\n", downey.Version)
			for _, j := range generate(t, c.cfg) {
				fmt.Fprintf(&b, "%d %d %d\n", j.Submit, j.Runtime, j.Procs)
			}
			path := filepath.Join("testdata", c.file)
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("jobs differ from %s:\n%s", path, b.String())
			}
		})
	}
}
