package talby

// quick is set by the mutation build tag (scripts/mutation runs talby's
// tests once per mutant, hundreds of times): TestSelfConsistencyKTH, which
// regenerates and re-fits seven workloads (most of the package's test
// time), is then skipped. The fits and workloads it starts from are pinned
// digit for digit by TestFitPinned and TestGeneratePinned, which run.
var quick bool
