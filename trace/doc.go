// Package trace holds a workload log in memory: its header, its jobs in a
// compact form, the machine size, and the derived values and time helpers
// that characterization, resampling and simulation share.
//
// A [Trace] is loaded from an SWF file with [Load] (plain or gzipped, "-" for
// standard input, "builtin:NAME" for an embedded log) and written back with
// [Trace.WriteSWF]. [Trace.WriteCSV] and [ReadCSV] keep it as CSV;
// [Trace.WriteParquet] and [ReadParquet] as Parquet (typed columns, -1 as
// null, the header in the file's metadata), which [Load] also recognizes by
// its magic bytes. Times are seconds relative to the header's UnixStartTime;
// [Trace.LocalTime] turns them into wall-clock time in the log's time zone.
package trace
