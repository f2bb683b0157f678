package session

import (
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// tj is a job for hand-made traces: user, submit, wait, runtime.
type tj struct {
	user             int32
	submit, wait, rt int64
}

func mkTrace(jobs ...tj) *trace.Trace {
	ts := make([]trace.Job, len(jobs))
	for i, j := range jobs {
		ts[i] = trace.Job{ID: int64(i + 1), Submit: j.submit, Wait: j.wait, Runtime: j.rt,
			Procs: 1, ReqProcs: 1, ReqTime: max(j.rt, 1), User: j.user, Status: 1,
			Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1}
	}
	return trace.New(swf.Header{}, ts, trace.Options{Procs: 8})
}
