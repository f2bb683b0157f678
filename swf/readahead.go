package swf

import "io"

// readahead decompresses in a goroutine of its own so that decompression and
// parsing overlap on machines with more than one core. The standard library
// has no such reader; it is small enough to keep here.
type readahead struct {
	full chan chunk
	free chan []byte
	done chan struct{}
	cur  chunk
	off  int
	err  error
}

type chunk struct {
	b   []byte
	err error
}

const (
	readaheadSize    = 256 << 10
	readaheadBuffers = 4
)

func newReadahead(src io.Reader) *readahead {
	ra := &readahead{
		full: make(chan chunk, readaheadBuffers),
		free: make(chan []byte, readaheadBuffers+1),
		done: make(chan struct{}),
	}
	for i := 0; i < readaheadBuffers+1; i++ {
		ra.free <- make([]byte, readaheadSize)
	}
	go ra.fill(src)
	return ra
}

func (ra *readahead) fill(src io.Reader) {
	defer close(ra.full)
	for {
		var buf []byte
		select {
		case buf = <-ra.free:
		case <-ra.done:
			return
		}
		n, err := fillBuffer(src, buf)
		select {
		case ra.full <- chunk{b: buf[:n], err: err}:
		case <-ra.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read implements io.Reader.
func (ra *readahead) Read(p []byte) (int, error) {
	for ra.off == len(ra.cur.b) {
		if ra.err != nil {
			return 0, ra.err
		}
		if ra.cur.b != nil {
			ra.free <- ra.cur.b[:cap(ra.cur.b)]
		}
		c, ok := <-ra.full
		if !ok {
			ra.cur, ra.err = chunk{}, io.EOF
			return 0, io.EOF
		}
		ra.cur, ra.off, ra.err = c, 0, c.err
	}
	n := copy(p, ra.cur.b[ra.off:])
	ra.off += n
	return n, nil
}

// Close stops the goroutine and waits for it to leave the source; it does
// not close the source.
func (ra *readahead) Close() error {
	select {
	case <-ra.done:
		return nil
	default:
		close(ra.done)
	}
	for range ra.full {
	}
	return nil
}

// fillBuffer reads into buf until it is full or src fails, returning src's
// error unchanged (unlike io.ReadFull, which would turn a failure after a
// partial read into io.ErrUnexpectedEOF).
func fillBuffer(src io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := src.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
