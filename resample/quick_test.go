package resample_test

import "github.com/hpcwl/hpcwl/internal/testdata"

// quick is set by the mutation build tag (scripts/mutation runs the
// package's tests once per mutant). TestDrawMatchesGenerate then compares
// Draw with Generate on the embedded KTH-SP2 only, TestRealLogs resamples
// only quickLogs, two of the smaller real logs, and every property test
// runs 20 random cases instead of rapid's 100. The code these
// tests run is the same for every log; the full list only adds workloads.
var quick bool

// quickLogs names the real logs TestRealLogs reads under the mutation tag.
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
