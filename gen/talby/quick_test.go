package talby

// quick is set by the mutation build tag (scripts/mutation runs talby's
// tests once per mutant, hundreds of times): TestSelfConsistencyKTH then
// regenerates and re-fits 1 workload instead of scInstances for the
// thesis' rules, which are run and reported but not pinned; the pinned
// fit keeps its scInstances (with 3, the spread of the re-fits is too
// small an estimate and the check fails on the code as it is).
var quick bool

// quickInstances is the number of workloads regenerated under the
// mutation tag, for a pinned fit or not.
func quickInstances(pinned bool) int {
	if pinned {
		return scInstances
	}
	return 1
}
