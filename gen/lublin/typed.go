package lublin

import (
	"errors"
	"fmt"
)

// ErrNoJobClasses is wrapped by the errors of [FitTyped] for logs that do
// not tell batch from interactive jobs.
var ErrNoJobClasses = errors.New("lublin: the log does not tell batch from interactive jobs")

// TypedFitReport holds the goodness of fit of the three classes fitted by
// [FitTyped].
type TypedFitReport struct {
	// WholeJobs, BatchJobs and InteractiveJobs count the jobs of each class;
	// UnknownQueue counts the jobs left out of both classes because their
	// queue is unknown (negative).
	WholeJobs       int `json:"whole_jobs"`
	BatchJobs       int `json:"batch_jobs"`
	InteractiveJobs int `json:"interactive_jobs"`
	UnknownQueue    int `json:"unknown_queue"`
	// Whole, Batch and Interactive are the reports of the three fits.
	Whole       *FitReport `json:"whole"`
	Batch       *FitReport `json:"batch"`
	Interactive *FitReport `json:"interactive"`
}

// FitTyped fits the model three times, as the paper replicates it (Lublin and
// Feitelson, The workload on parallel supercomputers, JPDC 63(11), 2003,
// sections 8.1 and 9.1): to the whole log, to its batch jobs and to its
// interactive jobs, and returns a typed parameter set (Mode Typed) whose Whole
// class holds the whole-sample fit, so that changing "mode" in the written
// file switches between the two generators.
//
// The classes come from the queue of each job (Log.Queue, SWF field 15): queue
// 0 is interactive and any positive queue is batch. That is the SWF convention
// and the paper's criterion: on the SDSC Paragon, interactive jobs were
// submitted directly to the machine and bypassed NQS, and the archive's
// SDSC-Par logs record them as queue 0 ("interactive"), every NQS queue as 1
// and above; the paper uses neither requested times nor job sizes to split
// them (Lublin and Feitelson (2003), section 8.1). Jobs with a negative
// (unknown) queue are left out of both classes but kept in the whole-sample
// fit. A log without any known queue, or without jobs of one of the classes,
// is an error wrapping [ErrNoJobClasses] that says so.
//
// The interactive class is fitted with opt.InteractiveProcs as its machine
// size (the interactive partition; the program's interactive UHi of 5.5 is
// a 45-processor partition); when that is 0 its UHi is fitted from the
// sizes. The batch and whole classes use Log.MachineProcs as [FitLog] does.
func FitTyped(l Log, opt *FitOptions) (Params, *TypedFitReport, error) {
	if len(l.Queue) != len(l.Submit) {
		if l.Queue == nil {
			return Params{}, nil, fmt.Errorf("%w: typed fitting needs the queue of each job (SWF field 15: 0 = interactive, 1 and above = batch) and the log has no queue data", ErrNoJobClasses)
		}
		panic("lublin: Log slices of different lengths")
	}
	rep := &TypedFitReport{WholeJobs: len(l.Submit)}
	var batch, inter Log
	for _, c := range []*Log{&batch, &inter} {
		c.StartTime, c.Location, c.MachineProcs = l.StartTime, l.Location, l.MachineProcs
	}
	inter.MachineProcs = 0
	if opt != nil {
		inter.MachineProcs = opt.InteractiveProcs
	}
	for i, q := range l.Queue {
		var c *Log
		switch {
		case q == QueueInteractive:
			c = &inter
		case q > 0:
			c = &batch
		default:
			rep.UnknownQueue++
			continue
		}
		c.Submit = append(c.Submit, l.Submit[i])
		c.Runtime = append(c.Runtime, l.Runtime[i])
		c.Procs = append(c.Procs, l.Procs[i])
	}
	rep.BatchJobs, rep.InteractiveJobs = len(batch.Submit), len(inter.Submit)
	if rep.BatchJobs == 0 && rep.InteractiveJobs == 0 {
		return Params{}, rep, fmt.Errorf("%w: typed fitting needs the queue of each job (SWF field 15: 0 = interactive, 1 and above = batch); all %d jobs have an unknown queue (-1)", ErrNoJobClasses, rep.UnknownQueue)
	}
	if rep.BatchJobs == 0 || rep.InteractiveJobs == 0 {
		return Params{}, rep, fmt.Errorf("%w: typed fitting needs both classes; the log has %d batch jobs (queue 1 and above) and %d interactive jobs (queue 0)", ErrNoJobClasses, rep.BatchJobs, rep.InteractiveJobs)
	}
	p := Params{Mode: Typed}
	var err error
	if p.Whole, rep.Whole, err = FitLog(l, opt); err != nil {
		return p, rep, fmt.Errorf("whole sample: %w", err)
	}
	if p.Batch, rep.Batch, err = FitLog(batch, opt); err != nil {
		return p, rep, fmt.Errorf("batch jobs (%d): %w", rep.BatchJobs, err)
	}
	if p.Interactive, rep.Interactive, err = FitLog(inter, opt); err != nil {
		return p, rep, fmt.Errorf("interactive jobs (%d): %w", rep.InteractiveJobs, err)
	}
	return p, rep, p.Validate()
}
