// Package batsim converts traces to and from Batsim JSON workloads.
//
// Batsim (https://batsim.org) simulates resource and job management
// systems; its workloads are JSON documents holding the machine size
// ("nb_res"), the jobs and the profiles that say what each job does:
//
//	{
//	  "nb_res": 100,
//	  "jobs": [
//	    {"id": 1, "subtime": 0, "walltime": 3600, "res": 4, "profile": "delay_1800", ...},
//	    ...
//	  ],
//	  "profiles": {
//	    "delay_1800": {"type": "delay", "delay": 1800},
//	    ...
//	  }
//	}
//
// [Write] gives each job a delay profile lasting its run time (one profile
// per distinct run time), its requested time as the walltime (-1 when
// unknown) and its processors as "res". The SWF fields that Batsim has no
// place for go into extra job keys named "swf_" plus the CSV column name of
// the field ("swf_user_id", "swf_wait_time", ...; see trace.CSVColumns), and
// the SWF header goes into the top-level key "swf_header", one string per
// header line. Batsim ignores these keys, and [Read] uses them to rebuild the
// trace exactly, so SWF -> Batsim -> SWF loses nothing.
//
// A workload holding "swf_header" keeps its job order; others are sorted by
// submit time. A subtime of -1 reads as an unknown submit time, as in SWF.
//
// [Read] also accepts workloads written by other tools: ids may be numbers
// or strings ("w0!12" reads as job 12), times are rounded to whole seconds,
// a job whose profile is not a delay profile has an unknown run time, and
// the fields without an "swf_" key are unknown (-1), except the allocated and
// requested processors, which take "res".
package batsim
