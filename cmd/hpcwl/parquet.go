package main

import (
	"io"
	"strconv"

	"github.com/hpcwl/hpcwl/replicate"
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

// replicateRun is one row of `replicate --runs`: the metrics of one run.
type replicateRun struct {
	Variant         string  `parquet:"variant,dict"`
	Throughput      int64   `parquet:"throughput"`
	Utilization     float64 `parquet:"utilization"`
	Wait            float64 `parquet:"wait"`
	Response        float64 `parquet:"response"`
	Slowdown        float64 `parquet:"slowdown"`
	BoundedSlowdown float64 `parquet:"bounded_slowdown"`
	Jobs            int64   `parquet:"jobs"`
	Saturated       bool    `parquet:"saturated"`
	SaturationSlope float64 `parquet:"saturation_slope"`
}

// replicateRuns returns the rows of `replicate --runs`: the original log
// (variant "original"), then variants "0", "1", ...
func replicateRuns(r *replicate.Result) []replicateRun {
	row := func(id string, m *replicate.Metrics) replicateRun {
		return replicateRun{Variant: id, Throughput: int64(m.Throughput), Utilization: m.Utilization, Wait: m.Wait,
			Response: m.Response, Slowdown: m.Slowdown, BoundedSlowdown: m.BoundedSlowdown, Jobs: int64(m.Jobs),
			Saturated: m.Saturated, SaturationSlope: m.Slope}
	}
	var rows []replicateRun
	if r.Original != nil { // --no-original: no row
		rows = append(rows, row("original", r.Original))
	}
	for i := range r.Variants {
		rows = append(rows, row(strconv.Itoa(i), &r.Variants[i]))
	}
	return rows
}

// replicateSummary is one row of `replicate --csv`: one metric's
// distribution over the variants (NaN where undefined).
type replicateSummary struct {
	Metric       string  `parquet:"metric"`
	Original     float64 `parquet:"original"`
	N            int64   `parquet:"n"`
	Mean         float64 `parquet:"mean"`
	CILow        float64 `parquet:"ci_low"`
	CIHigh       float64 `parquet:"ci_high"`
	SD           float64 `parquet:"sd"`
	Min          float64 `parquet:"min"`
	P2_5         float64 `parquet:"p2_5"`
	P25          float64 `parquet:"p25"`
	Median       float64 `parquet:"median"`
	P75          float64 `parquet:"p75"`
	P97_5        float64 `parquet:"p97_5"`
	Max          float64 `parquet:"max"`
	MaxMinRatio  float64 `parquet:"max_min_ratio"`
	OriginalRank float64 `parquet:"original_rank"`
}

func replicateSummaries(r *replicate.Result) []replicateSummary {
	rows := make([]replicateSummary, len(r.Summary))
	for i, d := range r.Summary {
		rows[i] = replicateSummary{Metric: d.Name, Original: d.Original, N: int64(d.N), Mean: d.Mean, CILow: d.CILow,
			CIHigh: d.CIHigh, SD: d.SD, Min: d.Min, P2_5: d.P2_5, P25: d.P25, Median: d.Median, P75: d.P75,
			P97_5: d.P97_5, Max: d.Max, MaxMinRatio: d.MaxMin, OriginalRank: d.OriginalRank}
	}
	return rows
}

// provenance returns the key-value metadata of evaluate's Parquet outputs:
// the input log and its SHA-256, and the change evaluated as JSON.
func (r *evaluateReport) provenance() map[string]string {
	params := map[string]any{"change": r.Change, "scheduler": r.Scheduler, "procs": r.Procs, "trace_procs": r.TraceProcs,
		"procs_factor": r.ProcsFactor, "speed": r.Speed, "prefix": r.Prefix}
	return provenance(r.Trace, r.SHA256, map[string]string{"hpcwl.parameters": jsonText(params)})
}
