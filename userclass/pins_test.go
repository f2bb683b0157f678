package userclass_test

// Pinned values of TestAnalyzePooledLogs (seed 1, 20 restarts).
const (
	pinnedSessions    = 136368
	pinnedUsers       = 2071
	pinnedSessionCum9 = 0.843201
	pinnedUserCum9    = 0.872203
)

var (
	pinnedSessionClasses = []int{64389, 47257, 18053, 5826, 843}
	pinnedUserClasses    = []int{2, 1202, 749, 118}
)
