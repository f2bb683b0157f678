package report_test

import (
	"os"

	"github.com/hpcwl/hpcwl/figure"
	"github.com/hpcwl/hpcwl/report"
)

// ExampleReport_WriteMarkdown lays out a one-table report as Markdown.
func ExampleReport_WriteMarkdown() {
	r := report.Report{
		Title: "KTH-SP2",
		Sections: []report.Section{{Heading: "Characterization", Tables: []report.Table{
			{Header: []string{"", "median"}, Rows: [][]string{{"runtime (s)", "847"}}},
		}}},
		Provenance: figure.Provenance{Version: "example"},
	}
	if err := r.WriteMarkdown(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// # KTH-SP2
	//
	// ## Characterization
	//
	// |  | median |
	// |---|---|
	// | runtime (s) | 847 |
	//
	// ## Provenance
	//
	// ```
	// hpcwl version: example
	// ```
}
