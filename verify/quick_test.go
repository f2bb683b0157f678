package verify_test

// quick is set by the mutation build tag (scripts/mutation runs these
// tests once per mutant): TestKTHWithKill then verifies every scheduler's
// schedule of the first quickJobs jobs of KTH-SP2 instead of all 28,000;
// the checks are the same, on a prefix of the log.
var quick bool

const quickJobs = 3000
