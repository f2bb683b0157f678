package main

import (
	"io"

	"github.com/hpcwl/hpcwl/trace"
	"github.com/parquet-go/parquet-go"
)

// writeParquetTable writes rows as a Parquet file with the schema of T (see
// trace.ParquetWriterOptions: zstd, the key-value metadata meta).
func writeParquetTable[T any](w io.Writer, rows []T, meta map[string]string) error {
	pw := parquet.NewGenericWriter[T](w, trace.ParquetWriterOptions(meta)...)
	const batch = 8192
	for len(rows) > 0 {
		n := min(batch, len(rows))
		if _, err := pw.Write(rows[:n]); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return pw.Close()
}
