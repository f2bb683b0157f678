// Package atomicfile writes output files so that an interrupted run never
// leaves a truncated file that looks complete: data goes to a temporary file
// in the same directory, which replaces the target only on Commit.
package atomicfile

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// File is an output being written. Write to it, then call Commit; call
// Abort (or Close without Commit) to discard it. The name "-" writes to
// standard output directly.
type File struct {
	name    string
	target  string   // the file replaced on Commit: name with symbolic links resolved
	special *os.File // a device or pipe written directly
	tmp     *os.File
	bw      *bufio.Writer
	gz      *gzip.Writer
	w       io.Writer
	done    bool
	stdout  bool
}

// Create starts writing the file name. A name ending in ".gz" is gzipped.
func Create(name string) (*File, error) {
	if name == "-" {
		bw := bufio.NewWriter(os.Stdout)
		return &File{name: name, bw: bw, w: bw, stdout: true}, nil
	}
	// A device, pipe or socket (/dev/null, /dev/stdout, a FIFO) cannot be
	// replaced by a rename: write to it directly. A symbolic link is
	// followed, so that the file it points to is replaced, not the link.
	target := name
	if fi, err := os.Stat(name); err == nil {
		if !fi.Mode().IsRegular() {
			if fi.IsDir() {
				return nil, fmt.Errorf("%s: is a directory", name)
			}
			fh, err := os.OpenFile(name, os.O_WRONLY, 0)
			if err != nil {
				return nil, err
			}
			return wrap(&File{name: name, bw: bufio.NewWriter(fh), special: fh}), nil
		}
		if resolved, err := filepath.EvalSymlinks(name); err == nil {
			target = resolved
		}
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	live.mu.Lock()
	defer live.mu.Unlock()
	if live.stopped {
		return nil, ErrStopped
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		// Name the output, not the temporary file the user never asked for.
		if pe := (*os.PathError)(nil); errors.As(err, &pe) {
			return nil, &os.PathError{Op: "create", Path: name, Err: pe.Err}
		}
		return nil, err
	}
	f := wrap(&File{name: name, target: target, tmp: tmp, bw: bufio.NewWriterSize(tmp, 256<<10)})
	live.files[f] = struct{}{}
	return f, nil
}

// wrap sets the writer: gzipped when the name ends in ".gz".
func wrap(f *File) *File {
	f.w = f.bw
	if strings.HasSuffix(f.name, ".gz") {
		f.gz = gzip.NewWriter(f.bw)
		f.w = f.gz
	}
	return f
}

// Write implements io.Writer.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	return n, f.clean(err)
}

// clean drops the temporary file's name from an error about writing it
// (the caller names the output; "write .x.tmp-123: no space left on
// device" would name a file that no longer exists).
func (f *File) clean(err error) error {
	var pe *fs.PathError
	if err != nil && f.tmp != nil && errors.As(err, &pe) && pe.Path == f.tmp.Name() {
		return pe.Err
	}
	return err
}

// Name returns the target name.
func (f *File) Name() string { return f.name }

// Commit flushes the data and moves the file into place.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	if f.stdout {
		return f.bw.Flush()
	}
	if err := f.flush(); err != nil {
		f.done = false
		f.Abort()
		return f.clean(err)
	}
	if f.special != nil {
		return f.special.Close()
	}
	err := func() error {
		if err := f.tmp.Sync(); err != nil {
			return err
		}
		if err := f.tmp.Chmod(0o644); err != nil {
			return err
		}
		if err := f.tmp.Close(); err != nil {
			return err
		}
		live.mu.Lock()
		defer live.mu.Unlock()
		delete(live.files, f)
		if live.stopped {
			return ErrStopped
		}
		return os.Rename(f.tmp.Name(), f.target)
	}()
	if err != nil {
		f.tmp.Close()
		os.Remove(f.tmp.Name())
	}
	return f.clean(err)
}

// flush writes out the gzip trailer and the buffer.
func (f *File) flush() error {
	if f.gz != nil {
		if err := f.gz.Close(); err != nil {
			return err
		}
	}
	return f.bw.Flush()
}

// Abort discards the file. It is safe to call after Commit, which makes it
// a no-op, so `defer f.Abort()` is the usual pattern.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	if f.stdout {
		return
	}
	if f.special != nil {
		f.special.Close()
		return
	}
	// Remove the file before deregistering it, so that a Stop racing with
	// the end of the program never misses it.
	live.mu.Lock()
	f.tmp.Close()
	os.Remove(f.tmp.Name())
	delete(live.files, f)
	live.mu.Unlock()
}

// ErrStopped is returned by Create and Commit after [Stop].
var ErrStopped = errors.New("output stopped: the run was interrupted")

// live holds the temporary files not yet committed or aborted, so that
// Stop can remove them.
var live = struct {
	mu      sync.Mutex
	files   map[*File]struct{}
	stopped bool
}{files: map[*File]struct{}{}}

// Stop removes the temporary file of every output being written, and makes
// every later Create and Commit fail with [ErrStopped], so that no output
// appears afterwards. A program calls it when interrupted, just before it
// exits; an output committed before Stop stays.
func Stop() {
	live.mu.Lock()
	defer live.mu.Unlock()
	live.stopped = true
	for f := range live.files {
		os.Remove(f.tmp.Name())
		delete(live.files, f)
	}
}

// WriteFile writes the output of fn to name atomically.
func WriteFile(name string, fn func(w io.Writer) error) error {
	f, err := Create(name)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := fn(f); err != nil {
		return err
	}
	return f.Commit()
}

// Scratch is a temporary file for data an output holds before it can write
// them in order (job records whose header is known only after the last
// job). [Stop] removes it as it removes the outputs' temporary files.
type Scratch struct {
	*os.File
	f *File
}

// NewScratch creates an empty scratch file in dir ("" for the system's
// temporary directory). Call Remove when done with it.
func NewScratch(dir string) (*Scratch, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	live.mu.Lock()
	defer live.mu.Unlock()
	if live.stopped {
		return nil, ErrStopped
	}
	tmp, err := os.CreateTemp(dir, ".hpcwl-spill-*")
	if err != nil {
		return nil, err
	}
	f := &File{name: tmp.Name(), tmp: tmp}
	live.files[f] = struct{}{}
	return &Scratch{File: tmp, f: f}, nil
}

// Remove closes and removes the scratch file. It is safe to call twice.
func (s *Scratch) Remove() { s.f.Abort() }
