package temporal_test

// quick is set by the mutation build tag (scripts/mutation runs these
// tests once per mutant): TestTable7, which analyzes eight real logs to
// compare their mean Hurst parameters with Talby's Table 7 within 0.13,
// is then skipped; TestPinnedRealLogs runs the same analysis on two of
// those logs and pins every value to 1e-6.
var quick bool
