package swf

import (
	"bufio"
	"io"
	"strconv"
)

// Writer writes jobs in SWF. Call [Writer.WriteHeader] first (or not at all),
// then [Writer.Write] for each job, then [Writer.Flush].
type Writer struct {
	w   *bufio.Writer
	buf []byte
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 256<<10)}
}

// WriteHeader writes every header line, in order.
func (w *Writer) WriteHeader(h *Header) error {
	for _, l := range h.Lines {
		if _, err := w.w.WriteString(l.String()); err != nil {
			return err
		}
		if err := w.w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}

// Write writes one job line. Fractional values are written in the shortest
// form that reads back to the same float64.
func (w *Writer) Write(j *Job) error {
	w.buf = AppendJob(w.buf[:0], j)
	_, err := w.w.Write(w.buf)
	return err
}

// AppendJob appends the SWF line of j, newline included, to b, as
// [Writer.Write] writes it.
func AppendJob(b []byte, j *Job) []byte {
	ints := [...]int64{j.ID, j.Submit, j.Wait, j.Runtime, j.Procs}
	for i, v := range ints {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, v, 10)
	}
	b = appendFloat(append(b, ' '), j.AvgCPU)
	b = appendFloat(append(b, ' '), j.UsedMem)
	b = strconv.AppendInt(append(b, ' '), j.ReqProcs, 10)
	b = strconv.AppendInt(append(b, ' '), j.ReqTime, 10)
	b = appendFloat(append(b, ' '), j.ReqMem)
	for _, v := range [...]int64{j.Status, j.User, j.Group, j.App, j.Queue, j.Partition, j.Preceding, j.ThinkTime} {
		b = strconv.AppendInt(append(b, ' '), v, 10)
	}
	return append(b, '\n')
}

func appendFloat(b []byte, f float64) []byte {
	if f == float64(int64(f)) {
		return strconv.AppendInt(b, int64(f), 10)
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}

// WriteAll writes the header and all jobs, then flushes.
func (w *Writer) WriteAll(h *Header, jobs []Job) error {
	if h != nil {
		if err := w.WriteHeader(h); err != nil {
			return err
		}
	}
	for i := range jobs {
		if err := w.Write(&jobs[i]); err != nil {
			return err
		}
	}
	return w.Flush()
}

// Flush writes any buffered data to the underlying writer.
func (w *Writer) Flush() error { return w.w.Flush() }
