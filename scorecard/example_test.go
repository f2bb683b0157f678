package scorecard_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/scorecard"
	"github.com/hpcwl/hpcwl/trace"
)

// ExampleCompare scores a log against a copy whose runtimes are doubled:
// the runtime distribution and the offered load move, the rest stays.
func ExampleCompare() {
	ref, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		panic(err)
	}
	cand := *ref
	cand.Name = "doubled"
	cand.Jobs = append([]trace.Job(nil), ref.Jobs...)
	for i := range cand.Jobs {
		cand.Jobs[i].Runtime *= 2
	}
	card, err := scorecard.Compare(ref, &cand, scorecard.Options{Seed: 1})
	if err != nil {
		panic(err)
	}
	for _, r := range card.Rows[:3] {
		fmt.Printf("%s: %s\n", r.Feature, r.Verdict)
	}
	// Output:
	// runtime: far
	// size: close
	// inter-arrival: close
}
