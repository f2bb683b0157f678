package session_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/trace"
)

// Identify KTH-SP2's sessions with Zakay's Arrival method at 60 minutes
// and print the counts of his thesis's Table 1.
func ExampleIdentify() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		panic(err)
	}
	opt, _ := session.ParseSpec("arrival:60m")
	p, err := session.Identify(t, opt)
	if err != nil {
		panic(err)
	}
	st := p.Stats()
	fmt.Printf("%d jobs, %d batches, %d sessions\n", st.Jobs, st.Batches, st.Sessions)
	fmt.Printf("single-job sessions %.1f%%, batches %.1f%%\n", 100*st.SingleJobSessions, 100*st.SingleJobBatches)
	// Output:
	// 28476 jobs, 16482 batches, 10292 sessions
	// single-job sessions 52.8%, batches 74.5%
}

// Build Madon's session graph of KTH-SP2 with the a60 partitioning.
func ExampleSessionGraph() {
	t, _ := trace.Load("builtin:KTH-SP2", trace.Options{})
	opt, _ := session.ParseSpec("a60")
	p, _ := session.Identify(t, opt)
	g := session.SessionGraph(p, session.Transitive)
	st := g.Stats(false)
	fmt.Printf("%d sessions, %d edges, %d from the root, largest arity %d\n", st.Nodes, st.Edges, st.RootEdges, st.MaxArity)
	// Output:
	// 10293 sessions, 13487 edges, 228 from the root, largest arity 7
}
