package trace

import (
	"errors"
	"fmt"
	"math"

	"github.com/hpcwl/hpcwl/swf"
)

// Job is one job of a trace, holding all 18 SWF fields in a compact layout
// (about 110 bytes). Fields hold -1 when unknown, as in SWF.
type Job struct {
	ID        int64   // job number (field 1)
	Submit    int64   // submit time, s since the log's UnixStartTime (field 2)
	Wait      int64   // wait time, s (field 3)
	Runtime   int64   // run time, s (field 4)
	ReqTime   int64   // requested time: the user's runtime estimate, s (field 9)
	ThinkTime int64   // think time from the preceding job, s (field 18)
	AvgCPU    float64 // average CPU time per processor, s (field 6)
	UsedMem   float64 // used memory per processor, KB (field 7)
	ReqMem    float64 // requested memory per processor, KB (field 10)
	Procs     int32   // allocated processors (field 5)
	ReqProcs  int32   // requested processors (field 8)
	User      int32   // user ID (field 12)
	Group     int32   // group ID (field 13)
	App       int32   // executable number (field 14)
	Queue     int32   // queue number (field 15)
	Partition int32   // partition number (field 16)
	Preceding int32   // preceding job number (field 17)
	Status    int32   // 1 completed, 0 failed, 5 cancelled, 2/3/4 partial (field 11)
}

// Processors returns the number of processors the job used: the allocated
// count, else the requested count, else -1.
func (j *Job) Processors() int {
	if j.Procs > 0 {
		return int(j.Procs)
	}
	if j.ReqProcs > 0 {
		return int(j.ReqProcs)
	}
	return -1
}

// Start returns the start time (submit + wait), or -1 when the wait is unknown.
func (j *Job) Start() int64 {
	if j.Wait < 0 || j.Submit < 0 {
		return -1
	}
	return j.Submit + j.Wait
}

// End returns the end time (start + runtime), or -1 when either is unknown.
func (j *Job) End() int64 {
	s := j.Start()
	if s < 0 || j.Runtime < 0 {
		return -1
	}
	return s + j.Runtime
}

// Response returns the response time (wait + runtime), or -1 when unknown.
func (j *Job) Response() int64 {
	if j.Wait < 0 || j.Runtime < 0 {
		return -1
	}
	return j.Wait + j.Runtime
}

// Area returns runtime x processors in processor-seconds, or 0 when either
// is unknown.
func (j *Job) Area() float64 {
	p := j.Processors()
	if p <= 0 || j.Runtime <= 0 {
		return 0
	}
	return float64(j.Runtime) * float64(p)
}

// SWF returns the job as an SWF record.
func (j *Job) SWF() swf.Job {
	return swf.Job{
		ID: j.ID, Submit: j.Submit, Wait: j.Wait, Runtime: j.Runtime,
		Procs: int64(j.Procs), AvgCPU: j.AvgCPU, UsedMem: j.UsedMem,
		ReqProcs: int64(j.ReqProcs), ReqTime: j.ReqTime, ReqMem: j.ReqMem,
		Status: int64(j.Status), User: int64(j.User), Group: int64(j.Group),
		App: int64(j.App), Queue: int64(j.Queue), Partition: int64(j.Partition),
		Preceding: int64(j.Preceding), ThinkTime: j.ThinkTime,
	}
}

// ErrOutOfRange is wrapped by [FromSWF]'s errors about values too large for
// a 32-bit field.
var ErrOutOfRange = errors.New("value out of range")

// FromSWF converts an SWF record. It fails when a field stored in 32 bits
// (processor counts, user, group, executable, queue, partition, preceding
// job, status) is out of range; the error names the field.
func FromSWF(s *swf.Job) (Job, error) {
	small := [...]struct {
		v     int64
		field int
	}{{s.Procs, 5}, {s.ReqProcs, 8}, {s.Status, 11}, {s.User, 12}, {s.Group, 13},
		{s.App, 14}, {s.Queue, 15}, {s.Partition, 16}, {s.Preceding, 17}}
	for _, f := range small {
		if f.v > math.MaxInt32 || f.v < math.MinInt32 {
			return Job{}, fmt.Errorf("field %d (%s): %d: %w (at most %d)",
				f.field, swf.FieldNames[f.field-1], f.v, ErrOutOfRange, math.MaxInt32)
		}
	}
	return Job{
		ID: s.ID, Submit: s.Submit, Wait: s.Wait, Runtime: s.Runtime,
		ReqTime: s.ReqTime, ThinkTime: s.ThinkTime,
		AvgCPU: s.AvgCPU, UsedMem: s.UsedMem, ReqMem: s.ReqMem,
		Procs: int32(s.Procs), ReqProcs: int32(s.ReqProcs), User: int32(s.User),
		Group: int32(s.Group), App: int32(s.App), Queue: int32(s.Queue),
		Partition: int32(s.Partition), Preceding: int32(s.Preceding), Status: int32(s.Status),
	}, nil
}

// Runnable reports whether the job can be run or resampled: its submit
// time, run time and processor count (allocated, else requested) are
// known. The rule every command follows (README, "Jobs left out"): a job
// that is not runnable is kept where only its arrival and user matter and
// left out, with a count, of whatever needs the missing field.
func (j *Job) Runnable() bool {
	return j.Submit >= 0 && j.Runtime >= 0 && j.Processors() > 0
}
