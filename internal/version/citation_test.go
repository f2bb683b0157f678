package version

import (
	"os"
	"strings"
	"testing"
)

// TestCitationVersion requires CITATION.cff and CHANGELOG.md to name the
// version this source tree builds, so that a citation names a real release.
func TestCitationVersion(t *testing.T) {
	b, err := os.ReadFile("../../CITATION.cff")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "version: "); ok {
			found = true
			if v != Version {
				t.Errorf("CITATION.cff names version %q, the source is %q", v, Version)
			}
		}
	}
	if !found {
		t.Error("CITATION.cff has no version line")
	}
	c, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(c), "## "+strings.TrimSuffix(Version, "-dev")) {
		t.Errorf("CHANGELOG.md has no section for %s", strings.TrimSuffix(Version, "-dev"))
	}
}

// TestStringHasRevision requires the version of a test binary, which `go
// test` builds without build information, to carry the source tree's git
// revision when the tree is a git repository.
func TestStringHasRevision(t *testing.T) {
	if _, err := os.Stat("../../.git"); err != nil {
		t.Skip("not a git checkout")
	}
	s := String()
	if !strings.HasPrefix(s, Version+"+") || len(strings.TrimPrefix(s, Version+"+")) < 12 {
		t.Errorf("String() = %q, want %s+REVISION", s, Version)
	}
}
