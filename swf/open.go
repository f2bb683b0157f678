package swf

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/klauspost/compress/gzip"
	"io"
	"io/fs"
	"os"
)

// File is a [Reader] over a file opened by [Open]; Close releases it.
type File struct {
	*Reader
	closers []io.Closer
}

// Open opens an SWF log for reading. The name "-" means standard input.
// Gzip-compressed input is recognized by its magic bytes, whatever its name.
func Open(name string) (*File, error) {
	rc, err := OpenRaw(name)
	if err != nil {
		return nil, err
	}
	f, err := NewFile(name, rc)
	if err != nil {
		rc.Close()
		return nil, err
	}
	return f, nil
}

// OpenRaw opens the named file for reading as it is, without decompressing
// it: "-" is standard input, and a directory is an error saying so.
func OpenRaw(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(os.Stdin), nil
	}
	fi, err := os.Stat(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: %w", name, pe.Err)
		}
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: is a directory, expected an SWF file", name)
	}
	return os.Open(name)
}

// NewFile returns a File reading the SWF log in rc, decompressing it if it
// is gzipped. Name is used in error messages. Closing the File closes rc.
func NewFile(name string, rc io.ReadCloser) (*File, error) {
	br := bufio.NewReaderSize(rc, 64<<10)
	f := &File{closers: []io.Closer{rc}}
	var src io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &ParseError{File: name, Err: fmt.Errorf("reading gzip header: %w", err)}
		}
		ra := newReadahead(truncatedGzip{zr})
		src = ra
		f.closers = append([]io.Closer{ra, zr}, f.closers...)
	}
	f.Reader = NewReader(src)
	f.Reader.Name = name
	return f, nil
}

// Close closes the underlying file.
func (f *File) Close() error {
	var first error
	for _, c := range f.closers {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// ErrTruncatedGzip reports a gzipped log whose compressed stream ends
// before its end marker, as a file cut short by an interrupted download
// does. It wraps io.ErrUnexpectedEOF.
var ErrTruncatedGzip = fmt.Errorf("the gzip stream ends early, the file is truncated: %w", io.ErrUnexpectedEOF)

// truncatedGzip names a gzip stream that ends early, which the gzip
// package reports as a bare io.ErrUnexpectedEOF.
type truncatedGzip struct{ r io.Reader }

func (t truncatedGzip) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if err == io.ErrUnexpectedEOF {
		err = ErrTruncatedGzip
	}
	return n, err
}
