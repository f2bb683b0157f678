package trace_test

import "github.com/hpcwl/hpcwl/internal/testdata"

// quick is set by the mutation build tag (scripts/mutation runs trace's
// tests once per mutant, hundreds of times): the tests that load, write
// and read back every real log then take two of them (NASA-iPSC, the
// smallest, and LLNL-Atlas, the largest machine; KTH-SP2 is read all the
// same, as the embedded log), TestParquetWriterRowGroups writes two row
// groups instead of five, and TestParquetTruncated cuts the file at every
// 29th length between its ends instead of every 7th. Each test keeps its
// meaning (the same comparisons, job for job and byte for byte); only its
// size shrinks.
var quick bool

// quickStep is the step between the lengths TestParquetTruncated cuts at.
func quickStep() int {
	if quick {
		return 29
	}
	return 7
}

// quickLogs names the real logs read under the mutation tag.
var quickLogs = map[string]bool{
	"NASA-iPSC-1993-3.1-cln.swf.gz":  true,
	"LLNL-Atlas-2006-2.1-cln.swf.gz": true,
}

// realLogs returns the real logs to read: all of them, or quickLogs under
// the mutation tag.
func realLogs() []testdata.Log {
	if !quick {
		return testdata.Logs
	}
	var logs []testdata.Log
	for _, l := range testdata.Logs {
		if quickLogs[l.File] {
			logs = append(logs, l)
		}
	}
	return logs
}
