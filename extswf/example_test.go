package extswf_test

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"github.com/hpcwl/hpcwl/extswf"
	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/hpcwl/hpcwl/userclass"
)

func ExampleWriteSessions() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := userclass.Analyze([]*trace.Trace{t}, userclass.Options{Classify: sessionclass.ClassifyOptions{Seed: 1}})
	if err != nil {
		fmt.Println(err)
		return
	}
	var b bytes.Buffer
	if err := extswf.WriteSessions(&b, &extswf.Input{Traces: []*trace.Trace{t}, Report: r}); err != nil {
		fmt.Println(err)
		return
	}
	// The first session: ID, arrival (Unix time), duration (s), user, jobs.
	sc := bufio.NewScanner(&b)
	for sc.Scan() {
		if !strings.HasPrefix(sc.Text(), ";") {
			fmt.Println(strings.Join(strings.Fields(sc.Text())[:5], " "))
			break
		}
	}
	// Output:
	// 1 844515600 695382 1 2
}
