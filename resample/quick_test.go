package resample_test

import "github.com/hpcwl/hpcwl/internal/testdata"

// quick is set by the mutation build tag (scripts/mutation runs the
// package's tests once per mutant): the tests that resample every real log
// (TestRealLogs, TestDrawMatchesGenerate) then read only quickLogs, two of
// the smaller logs, besides the embedded KTH-SP2. The code they run is the
// same for every log; the full list only adds more workloads to compare.
var quick bool

// quickLogs names the real logs read under the mutation tag.
var quickLogs = map[string]bool{
	"NASA-iPSC-1993-3.1-cln.swf.gz": true,
	"SDSC-Par-1996-3.1-cln.swf.gz":  true,
}

// realLogs returns the real logs to resample: all of them, or quickLogs.
func realLogs() []testdata.Log {
	if !quick {
		return testdata.Logs
	}
	var ls []testdata.Log
	for _, l := range testdata.Logs {
		if quickLogs[l.File] {
			ls = append(ls, l)
		}
	}
	return ls
}
