// Package version reports the hpcwl version recorded in every output.
package version

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Version is the release version; builds from a source tree carry "-dev".
const Version = "0.1.0-dev"

var (
	once   sync.Once
	cached string
)

// String returns the version, followed by the VCS revision when it is
// known (e.g. "0.1.0-dev+3f2a9c1d0e4b", "-dirty" when the tree had
// uncommitted changes). The revision comes from the build information that
// `go build` records in a binary built in a repository. `go run` and builds
// with -buildvcs=false record none; a program run by `go run` (or a test)
// then asks git about the source tree it was compiled from, so that outputs
// made with `go run ./cmd/hpcwl` are traceable too.
func String() string {
	once.Do(func() { cached = compute() })
	return cached
}

func compute() string {
	if rev, dirty, ok := fromBuildInfo(); ok {
		return format(rev, dirty)
	}
	if rev, dirty, ok := fromSourceTree(); ok {
		return format(rev, dirty)
	}
	return Version
}

func format(rev string, dirty bool) string {
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return Version + "+" + rev
}

func fromBuildInfo() (rev string, dirty, ok bool) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", false, false
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	return rev, dirty, rev != ""
}

// fromSourceTree asks git for the revision of the tree this file was
// compiled from, but only for a binary that `go run` or `go test` built
// (it lives in the build cache's temporary directory): an installed binary
// without build information must not report whatever revision its source
// directory holds today.
func fromSourceTree() (rev string, dirty, ok bool) {
	exe, err := os.Executable()
	if err != nil || !strings.Contains(exe, "go-build") {
		return "", false, false
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) { // -trimpath leaves no usable path
		return "", false, false
	}
	dir := filepath.Dir(file)
	git := func(args ...string) ([]byte, error) {
		c := exec.Command("git", append([]string{"-C", dir}, args...)...)
		// Without optional locks, git status neither waits for nor fails on
		// the index lock of a git command running at the same time.
		c.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
		return c.Output()
	}
	out, err := git("rev-parse", "HEAD")
	if err != nil {
		return "", false, false
	}
	rev = strings.TrimSpace(string(out))
	st, err := git("status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return "", false, false
	}
	return rev, len(strings.TrimSpace(string(st))) > 0, rev != ""
}
