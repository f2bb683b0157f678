package trace

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// ParquetMagic is the four bytes that open (and close) every Parquet file.
const ParquetMagic = "PAR1"

// ParquetHeaderKey is the key of the Parquet file metadata entry holding the
// trace's SWF header, one header line per text line (";"-prefixed, as in the
// SWF file).
const ParquetHeaderKey = "swf_header"

// parquetJob is the Parquet schema of a trace: the 18 SWF fields in SWF
// order, named as [CSVColumns], each optional so that SWF's -1 ("unknown")
// is stored as null. It only gives the schema: [Trace.WriteParquet] writes
// the columns value by value.
type parquetJob struct {
	JobNumber           *int64   `parquet:"job_number,optional"`
	SubmitTime          *int64   `parquet:"submit_time,optional"`
	WaitTime            *int64   `parquet:"wait_time,optional"`
	RunTime             *int64   `parquet:"run_time,optional"`
	AllocatedProcessors *int32   `parquet:"allocated_processors,optional"`
	AverageCPUTime      *float64 `parquet:"average_cpu_time,optional"`
	UsedMemory          *float64 `parquet:"used_memory,optional"`
	RequestedProcessors *int32   `parquet:"requested_processors,optional"`
	RequestedTime       *int64   `parquet:"requested_time,optional"`
	RequestedMemory     *float64 `parquet:"requested_memory,optional"`
	Status              *int32   `parquet:"status,optional"`
	UserID              *int32   `parquet:"user_id,optional"`
	GroupID             *int32   `parquet:"group_id,optional"`
	ExecutableNumber    *int32   `parquet:"executable_number,optional"`
	QueueNumber         *int32   `parquet:"queue_number,optional"`
	PartitionNumber     *int32   `parquet:"partition_number,optional"`
	PrecedingJobNumber  *int32   `parquet:"preceding_job_number,optional"`
	ThinkTime           *int64   `parquet:"think_time,optional"`
}

// ParquetSchema is the schema of the Parquet traces hpcwl writes.
var ParquetSchema = parquet.NewSchema("swf_job", parquet.SchemaOf(new(parquetJob)))

// parquetRowGroupRows bounds the rows of one row group, so that readers can
// work on a large trace piece by piece. A writer holds the compressed
// pages of the row group being built (a column chunk comes whole before
// the next one): 262,144 rows keep that near 2 MB for a generated log.
const parquetRowGroupRows = 1 << 18

// parquetZstd compresses the pages of the Parquet files hpcwl writes:
// zstd at its default level, as parquet-go's own codec, but with a window
// of 1 MiB instead of 8 MiB. A page holds at most 256 KiB before
// compression (parquet-go's page buffer), so the matches are the same; the
// encoders' history buffers, one per column being compressed at once, take
// 1.1 MiB each instead of 16 MiB (32 MiB of a writer's 56 MiB before).
// Frames of pages under 1 KiB record the smaller window; readers decode
// them alike.
var parquetZstd = &zstdCodec{}

// zstdCodec is a parquet-go compression codec for zstd with a small
// window (parquet-go's zstd.Codec sets no window size).
type zstdCodec struct {
	encoders sync.Pool
}

func (c *zstdCodec) String() string { return "ZSTD" }

func (c *zstdCodec) CompressionCodec() format.CompressionCodec { return format.Zstd }

func (c *zstdCodec) Encode(dst, src []byte) ([]byte, error) {
	e, _ := c.encoders.Get().(*zstd.Encoder)
	if e == nil {
		var err error
		e, err = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(zstd.SpeedDefault),
			zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(1<<20),
			zstd.WithLowerEncoderMem(true),
			zstd.WithZeroFrames(true),
			zstd.WithEncoderCRC(false))
		if err != nil {
			return nil, err
		}
	}
	defer c.encoders.Put(e)
	return e.EncodeAll(src, dst[:0]), nil
}

func (c *zstdCodec) Decode(dst, src []byte) ([]byte, error) { return parquet.Zstd.Decode(dst, src) }

// ParquetWriterOptions returns the options every Parquet file hpcwl writes
// shares: zstd compression and the key-value metadata meta, in key order.
func ParquetWriterOptions(meta map[string]string) []parquet.WriterOption {
	// created_by reads "hpcwl version 0.1.0-dev(build REVISION)".
	ver, build, _ := strings.Cut(version.String(), "+")
	if build == "" {
		build = "unknown"
	}
	opts := []parquet.WriterOption{
		parquet.Compression(parquetZstd),
		parquet.CreatedBy("hpcwl", ver, build),
		parquet.MaxRowsPerRowGroup(parquetRowGroupRows),
	}
	keys := make([]string, 0, len(meta))
	for k := range meta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		opts = append(opts, parquet.KeyValueMetadata(k, meta[k]))
	}
	return opts
}

// WriteParquet writes the trace as a Parquet file: one row per job with the
// 18 SWF fields as typed columns ([ParquetSchema]; -1 becomes null), zstd
// compressed. The SWF header goes into the file's key-value metadata under
// [ParquetHeaderKey], with the entries of meta (provenance: version, input,
// parameters), so that reading the file back gives the trace exactly.
func (t *Trace) WriteParquet(w io.Writer, meta map[string]string) error {
	all := make(map[string]string, len(meta)+1)
	for k, v := range meta {
		all[k] = v
	}
	all[ParquetHeaderKey] = t.headerText()
	opts := append([]parquet.WriterOption{ParquetSchema}, ParquetWriterOptions(all)...)
	pw := parquet.NewGenericWriter[any](w, opts...)
	// Column by column, one row group at a time, the columns shared among
	// the processors: much faster than writing rows, which the library
	// would take apart into columns again.
	const batch = 8192
	writers := pw.ColumnWriters()
	workers := min(runtime.GOMAXPROCS(0), 4)
	errs := make([]error, len(writers))
	for start := 0; start < len(t.Jobs); start += parquetRowGroupRows {
		group := t.Jobs[start:min(start+parquetRowGroupRows, len(t.Jobs))]
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
			return err
		}
		if err := pw.Flush(); err != nil {
			return err
		}
	}
	return pw.Close()
}

// jobValue returns field c (0-based) of j as the value of column c: null
// for -1 (unknown).
func jobValue(j *Job, c int) parquet.Value {
	switch c {
	case 0:
		return intValue(j.ID, c)
	case 1:
		return intValue(j.Submit, c)
	case 2:
		return intValue(j.Wait, c)
	case 3:
		return intValue(j.Runtime, c)
	case 4:
		return int32Value(j.Procs, c)
	case 5:
		return floatValue(j.AvgCPU, c)
	case 6:
		return floatValue(j.UsedMem, c)
	case 7:
		return int32Value(j.ReqProcs, c)
	case 8:
		return intValue(j.ReqTime, c)
	case 9:
		return floatValue(j.ReqMem, c)
	case 10:
		return int32Value(j.Status, c)
	case 11:
		return int32Value(j.User, c)
	case 12:
		return int32Value(j.Group, c)
	case 13:
		return int32Value(j.App, c)
	case 14:
		return int32Value(j.Queue, c)
	case 15:
		return int32Value(j.Partition, c)
	case 16:
		return int32Value(j.Preceding, c)
	}
	return intValue(j.ThinkTime, c)
}

func intValue(v int64, col int) parquet.Value {
	if v == swf.Unknown {
		return nullValue(col)
	}
	return present(parquet.Int64Value(v), col)
}

func int32Value(v int32, col int) parquet.Value {
	if v == swf.Unknown {
		return nullValue(col)
	}
	return present(parquet.Int32Value(v), col)
}

func floatValue(v float64, col int) parquet.Value {
	if v == swf.Unknown {
		return nullValue(col)
	}
	return present(parquet.DoubleValue(v), col)
}

// nullValue is a null of column col (definition level 0).
func nullValue(col int) parquet.Value {
	v := parquet.NullValue()
	v.SetColumnIndex(col)
	return v
}

// present marks v as a value of the optional column col (definition level 1).
func present(v parquet.Value, col int) parquet.Value {
	v.SetDefinitionLevel(1)
	v.SetColumnIndex(col)
	return v
}

// headerText returns the SWF header as text, one ";" line per header line.
func (t *Trace) headerText() string {
	var b strings.Builder
	for _, l := range t.Header.Lines {
		b.WriteString(l.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// ErrParquetColumn is the cause of errors about a Parquet trace's columns.
var ErrParquetColumn = errors.New("bad Parquet column")

// ErrParquetFile is the cause of errors about a file that is not a complete
// Parquet file (not Parquet at all, or truncated).
var ErrParquetFile = errors.New("not a complete Parquet file")

// IsParquet reports whether data starts with the Parquet magic bytes.
func IsParquet(data []byte) bool { return bytes.HasPrefix(data, []byte(ParquetMagic)) }

// LoadParquet reads a Parquet trace from the file name; see [ReadParquet].
// The trace's SHA256 is that of the file.
func LoadParquet(name string, opt Options) (*Trace, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: is a directory, expected a Parquet file", name)
	}
	t, err := ReadParquet(f, fi.Size(), name, opt)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, fi.Size())); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	t.SHA256 = hex.EncodeToString(h.Sum(nil))
	return t, nil
}

// ReadParquet reads a trace from a Parquet file of the given size: one row
// per job, with a column for each of the 18 SWF fields named as in
// [CSVColumns] (in any order; other columns are ignored). Integer fields may
// be INT32 or INT64 (or floating point holding whole numbers), the average
// CPU time and memory fields any number type; a null reads as -1. The SWF
// header comes from the [ParquetHeaderKey] metadata entry when present.
//
// A missing or mistyped column gives an error wrapping [ErrParquetColumn]
// that names it; a file that is not Parquet or is truncated gives one
// wrapping [ErrParquetFile]. Name is used in errors and as the trace's name.
func ReadParquet(r io.ReaderAt, size int64, name string, opt Options) (t *Trace, err error) {
	// The Parquet library trusts the lengths and offsets in the file; a
	// damaged file must give an error, never bring the program down.
	defer func() {
		if p := recover(); p != nil {
			t, err = nil, fmt.Errorf("%s: %w: damaged data (%v)", name, ErrParquetFile, p)
		}
	}()
	if size < 12 {
		return nil, fmt.Errorf("%s: %w: %d bytes, shorter than any Parquet file (truncated?)", name, ErrParquetFile, size)
	}
	var magic [4]byte
	if _, err := r.ReadAt(magic[:], 0); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrParquetFile, err)
	}
	if !IsParquet(magic[:]) {
		return nil, fmt.Errorf("%s: %w: does not start with %q", name, ErrParquetFile, ParquetMagic)
	}
	var tail [8]byte // footer length, magic
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrParquetFile, err)
	}
	if !IsParquet(tail[4:]) {
		return nil, fmt.Errorf("%s: %w: does not end with %q (the file is truncated)", name, ErrParquetFile, ParquetMagic)
	}
	// The library would allocate the footer's stated length before reading.
	if footer := int64(binary.LittleEndian.Uint32(tail[:4])); footer > size-12 {
		return nil, fmt.Errorf("%s: %w: the footer's length (%d bytes) exceeds the file (damaged or truncated)", name, ErrParquetFile, footer)
	}
	pf, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrParquetFile, err)
	}
	if err := checkParquetPages(r, size, pf.Metadata()); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	cols, err := parquetColumns(pf.Schema())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var hdr swf.Header
	if text, ok := pf.Lookup(ParquetHeaderKey); ok && text != "" {
		sr := swf.NewReader(strings.NewReader(text))
		sr.Name = name + " (" + ParquetHeaderKey + ")"
		h, err := sr.Header()
		if err != nil {
			return nil, err
		}
		hdr = *h
	}
	n := pf.NumRows()
	if n < 0 || n > math.MaxInt32 {
		return nil, fmt.Errorf("%s: %w: %d rows", name, ErrParquetFile, n)
	}
	// Column by column: each column chunk's values go straight into the
	// jobs' fields, which is much faster than assembling rows.
	// Room for the rows the footer gives, within what a file of this size
	// can plausibly hold (the slice grows past it if needed).
	jobs := make([]Job, 0, min(n, 64*size))
	buf := make([]parquet.Value, 4096)
	for _, rg := range pf.RowGroups() {
		base := len(jobs)
		size := rg.NumRows()
		if size < 0 || int64(base)+size > n {
			return nil, fmt.Errorf("%s: %w: row group of %d rows beyond the %d the footer gives", name, ErrParquetFile, size, n)
		}
		// The jobs grow with the values the first column actually holds, not
		// with the row count the footer claims, so that a damaged footer
		// cannot make the reader allocate memory for rows that are not there.
		for c, chunk := range rg.ColumnChunks() {
			if c >= len(cols) || cols[c] < 0 {
				continue
			}
			if err := readParquetColumn(chunk, cols[c], &jobs, base, int(size), buf); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	if int64(len(jobs)) != n {
		return nil, fmt.Errorf("%s: %w: read %d rows, the footer says %d", name, ErrParquetFile, len(jobs), n)
	}
	t = New(hdr, jobs, opt)
	t.Name = name
	return t, nil
}

// maxParquetPage bounds the uncompressed size of one page: Parquet writers
// make pages of a few megabytes at most.
const maxParquetPage = 256 << 20

// checkParquetPages walks the page headers of every column chunk and checks
// that chunks and pages lie within the file and that no page claims more
// than maxParquetPage bytes, and that the codecs are ones read safely: the
// Parquet library allocates what a page
// header claims before it decompresses, so a damaged header could
// otherwise exhaust memory.
func checkParquetPages(r io.ReaderAt, size int64, md *format.FileMetaData) error {
	var compact thrift.CompactProtocol
	buf := make([]byte, 64<<10)
	for _, rg := range md.RowGroups {
		for _, cc := range rg.Columns {
			m := &cc.MetaData
			col := strings.Join(m.PathInSchema, ".")
			start := m.DataPageOffset
			if m.DictionaryPageOffset > 0 && m.DictionaryPageOffset < start {
				start = m.DictionaryPageOffset
			}
			switch m.Codec {
			case format.Uncompressed, format.Snappy, format.Gzip, format.Brotli, format.Zstd:
			default:
				// The library's LZ4 decoder takes any failure for a short
				// buffer and doubles it without end on damaged data.
				return fmt.Errorf("%w: column %q is compressed with %s, which hpcwl does not read; rewrite the file with zstd, snappy or gzip",
					ErrParquetFile, col, m.Codec)
			}
			end := start + m.TotalCompressedSize
			if start < int64(len(ParquetMagic)) || m.TotalCompressedSize < 0 || end < start || end > size-8 {
				return fmt.Errorf("%w: column %q: its data (bytes %d to %d) is not inside the file of %d bytes (damaged or truncated)",
					ErrParquetFile, col, start, end, size)
			}
			for pos := start; pos < end; {
				n, err := r.ReadAt(buf[:min(int64(len(buf)), end-pos)], pos)
				if n == 0 {
					return fmt.Errorf("%w: column %q: reading a page header at byte %d: %v", ErrParquetFile, col, pos, err)
				}
				hr := compact.NewReaderFromBytes(buf[:n])
				var h format.PageHeader
				if err := thrift.NewDecoder(hr).Decode(&h); err != nil {
					return fmt.Errorf("%w: column %q: damaged page header at byte %d: %v", ErrParquetFile, col, pos, err)
				}
				if h.CompressedPageSize < 0 || h.UncompressedPageSize < 0 || h.UncompressedPageSize > maxParquetPage {
					return fmt.Errorf("%w: column %q: damaged page header at byte %d (page of %d bytes, %d uncompressed)",
						ErrParquetFile, col, pos, h.CompressedPageSize, h.UncompressedPageSize)
				}
				pos += int64(hr.BytesRead()) + int64(h.CompressedPageSize)
				if pos > end {
					return fmt.Errorf("%w: column %q: a page ends past its column chunk (damaged or truncated)", ErrParquetFile, col)
				}
			}
		}
	}
	return nil
}

// parquetColumns maps each leaf column of s to the SWF field it holds (-1 for
// columns that hold none), checking that every field has a column of a
// fitting type.
func parquetColumns(s *parquet.Schema) ([]int, error) {
	paths := s.Columns()
	cols := make([]int, len(paths))
	found := [swf.NumFields]bool{}
	for i, p := range paths {
		cols[i] = -1
		if len(p) != 1 {
			continue
		}
		f := -1
		for k, n := range CSVColumns {
			if strings.EqualFold(p[0], n) {
				f = k
				break
			}
		}
		if f < 0 {
			continue
		}
		leaf, _ := s.Lookup(p...)
		if found[f] {
			return nil, fmt.Errorf("%w: %q appears twice", ErrParquetColumn, p[0])
		}
		if leaf.MaxRepetitionLevel > 0 {
			return nil, fmt.Errorf("%w: %q (SWF field %d, %s) is a repeated column, expected one value per job",
				ErrParquetColumn, p[0], f+1, swf.FieldNames[f])
		}
		want := "an integer (INT32 or INT64)"
		if isFloatField(f) {
			want = "a number (DOUBLE, FLOAT, INT32 or INT64)"
		}
		switch leaf.Node.Type().Kind() {
		case parquet.Int32, parquet.Int64, parquet.Double, parquet.Float:
		default:
			return nil, fmt.Errorf("%w: %q (SWF field %d, %s) has type %s, expected %s",
				ErrParquetColumn, p[0], f+1, swf.FieldNames[f], leaf.Node.Type(), want)
		}
		found[f] = true
		cols[leaf.ColumnIndex] = f
	}
	var missing []string
	for f, ok := range found {
		if !ok {
			missing = append(missing, CSVColumns[f])
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: missing column %s (a Parquet trace needs the 18 SWF columns %s)",
			ErrParquetColumn, strings.Join(missing, ", "), strings.Join(CSVColumns[:], ","))
	}
	return cols, nil
}

// unknownJob has every field unknown.
var unknownJob = Job{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}

// readParquetColumn reads the values of one column chunk of a row group of
// size rows into field f of (*jobs)[first:first+size] (one value per job,
// nulls left as -1), appending unknown jobs as values come.
func readParquetColumn(chunk parquet.ColumnChunk, f int, jobs *[]Job, first, size int, buf []parquet.Value) error {
	pages := chunk.Pages()
	defer pages.Close()
	row := 0
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("%w: column %q: %v", ErrParquetFile, CSVColumns[f], err)
		}
		vr := p.Values()
		for {
			k, rerr := vr.ReadValues(buf)
			if row+k > size {
				parquet.Release(p)
				return fmt.Errorf("%w: column %q holds more values than the row group has rows (%d)", ErrParquetFile, CSVColumns[f], size)
			}
			for len(*jobs) < first+row+k {
				*jobs = append(*jobs, unknownJob)
			}
			js := *jobs
			for _, v := range buf[:k] {
				if !v.IsNull() {
					if err := setParquetField(&js[first+row], f, v); err != nil {
						parquet.Release(p)
						return fmt.Errorf("row %d: %w", first+row+1, err)
					}
				}
				row++
			}
			if rerr == io.EOF {
				break
			}
			if rerr != nil {
				parquet.Release(p)
				return fmt.Errorf("%w: column %q: %v", ErrParquetFile, CSVColumns[f], rerr)
			}
		}
		parquet.Release(p)
	}
	if row != size {
		return fmt.Errorf("%w: column %q holds %d values for %d rows", ErrParquetFile, CSVColumns[f], row, size)
	}
	return nil
}

// setParquetField stores the non-null value v in field f (0-based) of j.
func setParquetField(j *Job, f int, v parquet.Value) error {
	var x float64
	var n int64
	isInt := true
	switch v.Kind() {
	case parquet.Int32:
		n = int64(v.Int32())
	case parquet.Int64:
		n = v.Int64()
	case parquet.Float:
		x, isInt = float64(v.Float()), false
	case parquet.Double:
		x, isInt = v.Double(), false
	default:
		return fmt.Errorf("%w: %q: unexpected %s value", ErrParquetColumn, CSVColumns[f], v.Kind())
	}
	if !isInt && math.IsNaN(x) { // pandas' null in a float column
		return nil
	}
	if isFloatField(f) {
		if isInt {
			x = float64(n)
		}
		if math.IsInf(x, 0) || x < -1 {
			return fmt.Errorf("%w: %q: %v is not a valid %s", ErrParquetColumn, CSVColumns[f], x, swf.FieldNames[f])
		}
		switch f {
		case 5:
			j.AvgCPU = x
		case 6:
			j.UsedMem = x
		default:
			j.ReqMem = x
		}
		return nil
	}
	if !isInt {
		if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
			return fmt.Errorf("%w: %q: %v is not a whole number", ErrParquetColumn, CSVColumns[f], x)
		}
		n = int64(x)
	}
	if n < -1 && f != 17 {
		return fmt.Errorf("%w: %q: %d: %v", ErrParquetColumn, CSVColumns[f], n, swf.ErrNegative)
	}
	if f == 0 || f == 1 || f == 2 || f == 3 || f == 8 || f == 17 {
		switch f {
		case 0:
			j.ID = n
		case 1:
			j.Submit = n
		case 2:
			j.Wait = n
		case 3:
			j.Runtime = n
		case 8:
			j.ReqTime = n
		default:
			j.ThinkTime = n
		}
		return nil
	}
	if n > math.MaxInt32 {
		return fmt.Errorf("%w: %q: %d: value out of range (at most %d)", ErrParquetColumn, CSVColumns[f], n, math.MaxInt32)
	}
	v32 := int32(n)
	switch f {
	case 4:
		j.Procs = v32
	case 7:
		j.ReqProcs = v32
	case 10:
		j.Status = v32
	case 11:
		j.User = v32
	case 12:
		j.Group = v32
	case 13:
		j.App = v32
	case 14:
		j.Queue = v32
	case 15:
		j.Partition = v32
	default:
		j.Preceding = v32
	}
	return nil
}
