package trace

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/hpcwl/hpcwl/swf"
)

// parquetBatch is the number of jobs a [ParquetWriter] holds before it
// hands them to the column writers: a whole number of the 8,192-value
// batches [Trace.WriteParquet] writes, and a divisor of a row group, so
// that every column receives the same values in the same calls.
const parquetBatch = 2 * 8192

// ParquetWriter writes a trace as Parquet job by job, giving the same bytes
// as [Trace.WriteParquet]. It holds 16,384 jobs at a time and the row group
// being built (at most 2^18 rows, compressed). Parquet keeps its metadata,
// and so the SWF header, at the end of the file: the header may be given at
// any time before [ParquetWriter.Close].
type ParquetWriter struct {
	pw      *parquet.GenericWriter[any]
	batch   []Job
	inGroup int
	header  *swf.Header
	meta    map[string]string
	err     error
}

// NewParquetWriter returns a ParquetWriter writing w, with the key-value
// metadata meta (as [Trace.WriteParquet]).
func NewParquetWriter(w io.Writer, meta map[string]string) *ParquetWriter {
	all := make(map[string]string, len(meta)+1)
	for k, v := range meta {
		all[k] = v
	}
	// A place for the header, filled in on Close; its position among the
	// sorted keys is the same whatever its value.
	all[ParquetHeaderKey] = ""
	opts := append([]parquet.WriterOption{ParquetSchema}, ParquetWriterOptions(all)...)
	return &ParquetWriter{pw: parquet.NewGenericWriter[any](w, opts...), batch: make([]Job, 0, parquetBatch), meta: all}
}

// SetHeader sets the SWF header recorded in the file's metadata.
func (p *ParquetWriter) SetHeader(h *swf.Header) { p.header = h }

// SetMetadata changes the value of the metadata entry key, one of the keys
// given to [NewParquetWriter] (the file lists its keys in the order they
// had then), for a value known only after the jobs.
func (p *ParquetWriter) SetMetadata(key, value string) error {
	if _, ok := p.meta[key]; !ok || key == ParquetHeaderKey {
		return fmt.Errorf("parquet writer: metadata key %q was not given at creation", key)
	}
	p.meta[key] = value
	p.pw.SetKeyValueMetadata(key, value)
	return nil
}

// WriteJob adds j to the file.
func (p *ParquetWriter) WriteJob(j *Job) error {
	if p.err != nil {
		return p.err
	}
	p.batch = append(p.batch, *j)
	if len(p.batch) == cap(p.batch) {
		return p.flushBatch()
	}
	return nil
}

// flushBatch writes the held jobs, column by column, the columns shared
// among the processors, and ends the row group when it is full.
func (p *ParquetWriter) flushBatch() error {
	if len(p.batch) == 0 {
		return nil
	}
	const batch = 8192
	writers := p.pw.ColumnWriters()
	workers := min(runtime.GOMAXPROCS(0), 4)
	errs := make([]error, len(writers))
	group := p.batch
	var wg sync.WaitGroup
	for worker := range workers {
		wg.Go(func() {
			values := make([]parquet.Value, batch)
			for c := worker; c < len(writers); c += workers {
				for from := 0; from < len(group) && errs[c] == nil; from += batch {
					part := group[from:min(from+batch, len(group))]
					for k := range part {
						values[k] = jobValue(&part[k], c)
					}
					_, errs[c] = writers[c].WriteRowValues(values[:len(part)])
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		p.err = err
		return err
	}
	p.inGroup += len(p.batch)
	p.batch = p.batch[:0]
	if p.inGroup == parquetRowGroupRows {
		p.inGroup = 0
		if err := p.pw.Flush(); err != nil {
			p.err = err
			return err
		}
	}
	return nil
}

// Close writes the remaining jobs, the header and the file's footer. It
// does not close the underlying writer.
func (p *ParquetWriter) Close() error {
	if p.err != nil {
		return p.err
	}
	if err := p.flushBatch(); err != nil {
		return err
	}
	if p.inGroup > 0 {
		if err := p.pw.Flush(); err != nil {
			return err
		}
	}
	var text strings.Builder
	if p.header != nil {
		for _, l := range p.header.Lines {
			text.WriteString(l.String())
			text.WriteByte('\n')
		}
	}
	p.pw.SetKeyValueMetadata(ParquetHeaderKey, text.String())
	return p.pw.Close()
}
