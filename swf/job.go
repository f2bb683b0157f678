package swf

// NumFields is the number of fields in an SWF job line.
const NumFields = 18

// Unknown is the value SWF uses for a field whose value is not known.
const Unknown = -1

// Job is one job record: the 18 fields of an SWF job line, in file order.
// Times are in seconds, memory in kilobytes per processor. A field holding
// [Unknown] (-1) is not known; 0 is a real value.
type Job struct {
	ID        int64   // 1: job number
	Submit    int64   // 2: submit time, seconds since the log's UnixStartTime
	Wait      int64   // 3: wait time, start minus submit
	Runtime   int64   // 4: run time, wall clock
	Procs     int64   // 5: number of allocated processors
	AvgCPU    float64 // 6: average CPU time used per processor
	UsedMem   float64 // 7: used memory per processor (KB)
	ReqProcs  int64   // 8: requested number of processors
	ReqTime   int64   // 9: requested time (the user's runtime estimate)
	ReqMem    float64 // 10: requested memory per processor (KB)
	Status    int64   // 11: 1 completed, 0 failed, 5 cancelled, 2/3/4 partial-execution records
	User      int64   // 12: user ID
	Group     int64   // 13: group ID
	App       int64   // 14: executable (application) number
	Queue     int64   // 15: queue number
	Partition int64   // 16: partition number
	Preceding int64   // 17: preceding job number
	ThinkTime int64   // 18: think time from the preceding job
}

// FieldNames holds the SWF name of each field; FieldNames[i] names field i+1.
var FieldNames = [NumFields]string{
	"Job Number", "Submit Time", "Wait Time", "Run Time",
	"Allocated Processors", "Average CPU Time", "Used Memory",
	"Requested Processors", "Requested Time", "Requested Memory",
	"Status", "User ID", "Group ID", "Executable Number",
	"Queue Number", "Partition Number", "Preceding Job Number",
	"Think Time",
}

// floatField reports whether field i (0-based) may hold a fractional value.
// The archive's logs hold fractions in the average CPU time (field 6); the
// memory fields (7 and 10) are averages too and are read the same way.
func floatField(i int) bool { return i == 5 || i == 6 || i == 9 }

// negativeAllowed reports whether field i (0-based) may hold values below -1.
// Only the think time (field 18) can: a user may submit the next job before
// the preceding one ends.
func negativeAllowed(i int) bool { return i == 17 }

// NewJob returns a job whose fields are all [Unknown].
func NewJob() Job {
	return Job{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}
}
