package atomicfile

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileCommitsOrLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.txt")
	if err := WriteFile(ok, func(w io.Writer) error { _, err := io.WriteString(w, "hello\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(ok); err != nil || string(b) != "hello\n" {
		t.Fatalf("got %q, %v", b, err)
	}
	bad := filepath.Join(dir, "bad.txt")
	boom := errors.New("interrupted")
	err := WriteFile(bad, func(w io.Writer) error { io.WriteString(w, "partial"); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries after a failed write, want 1 (only ok.txt)", len(entries))
	}
}

func TestSpecialFilesAndLinks(t *testing.T) {
	// A device is written in place, never replaced by a regular file.
	if err := WriteFile(os.DevNull, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode().IsRegular() {
		t.Fatalf("%s is now a regular file (%v)", os.DevNull, err)
	}
	// A symbolic link keeps pointing to the file, which gets the new data.
	dir := t.TempDir()
	real := filepath.Join(dir, "real.txt")
	link := filepath.Join(dir, "link.txt")
	os.WriteFile(real, []byte("old"), 0o644)
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := WriteFile(link, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced (%v)", err)
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Errorf("target holds %q, want %q", b, "new")
	}
	// A directory is refused.
	if err := WriteFile(dir, func(io.Writer) error { return nil }); err == nil {
		t.Error("writing over a directory succeeded")
	}
}

// TestStop checks that Stop removes the temporary file of an output being
// written and that the output never appears afterwards.
func TestStop(t *testing.T) {
	defer func() {
		live.mu.Lock()
		live.stopped = false
		live.mu.Unlock()
	}()
	dir := t.TempDir()
	name := filepath.Join(dir, "out.txt")
	f, err := Create(name)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "partial")
	Stop()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("directory holds %d entries after Stop, want none", len(entries))
	}
	if err := f.Commit(); !errors.Is(err, ErrStopped) {
		t.Errorf("Commit after Stop: %v, want ErrStopped", err)
	}
	if _, err := os.Stat(name); err == nil {
		t.Error("the output appeared after Stop")
	}
	if _, err := Create(filepath.Join(dir, "later.txt")); !errors.Is(err, ErrStopped) {
		t.Errorf("Create after Stop: %v, want ErrStopped", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("directory holds %d entries, want none", len(entries))
	}
}

// TestCreateErrorNamesTheOutput checks that an output in a directory that
// does not exist is named in the error, not the temporary file beside it.
func TestCreateErrorNamesTheOutput(t *testing.T) {
	name := filepath.Join(t.TempDir(), "missing", "out.swf")
	_, err := Create(name)
	var pe *os.PathError
	if !errors.As(err, &pe) || pe.Path != name || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want a *os.PathError naming %s, not existing", err, name)
	}
}

// TestCommitFailureLeavesNothing checks two failing commits, their
// temporary file closed under them: with data still buffered, the flush
// fails, and the error does not name the temporary file; with nothing
// buffered, the sync fails. Neither leaves the output or the temporary
// file behind.
func TestCommitFailureLeavesNothing(t *testing.T) {
	for _, data := range []string{"some jobs\n", ""} {
		dir := t.TempDir()
		name := filepath.Join(dir, "out.swf")
		f, err := Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(f, data); err != nil {
			t.Fatal(err)
		}
		f.tmp.Close()
		err = f.Commit()
		if !errors.Is(err, os.ErrClosed) || strings.Contains(err.Error(), ".tmp-") {
			t.Errorf("%q: err = %v, want file already closed, not naming the temporary file", data, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%q: %s left behind", data, entries[0].Name())
		}
	}
}

// TestGzipOutput checks that a name ending in .gz is written gzipped and
// reads back whole once committed.
func TestGzipOutput(t *testing.T) {
	name := filepath.Join(t.TempDir(), "out.swf.gz")
	if err := WriteFile(name, func(w io.Writer) error { _, err := io.WriteString(w, "1 0 0 10 1\n"); return err }); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(zr); err != nil || string(b) != "1 0 0 10 1\n" {
		t.Errorf("read back %q, %v", b, err)
	}
}
