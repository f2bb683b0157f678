// Package swf reads and writes workload logs in the Standard Workload Format
// (SWF) of the Parallel Workloads Archive.
//
// An SWF file is plain text. Lines starting with ';' are header comments,
// most of the form "; Key: value" (MaxProcs, UnixStartTime, TimeZoneString,
// Note, ...). Every other non-blank line is one job with 18
// whitespace-separated numeric fields; -1 marks a value that is unknown.
//
// The package is shaped like encoding/csv: a [Reader] returns one [Job] at a
// time and [io.EOF] at the end, a [Writer] writes them back, and both share a
// [Header]. Malformed input yields a [*ParseError] naming the file, line and
// field and wrapping a sentinel cause such as [ErrFieldCount] or
// [ErrNotInteger], so callers can test for it with errors.Is.
//
// Reading then writing an unmodified log reproduces every header line
// verbatim and every job's 18 values.
package swf
