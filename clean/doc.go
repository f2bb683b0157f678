// Package clean removes unwanted jobs from workload logs: partial-execution
// records, invalid jobs, chosen statuses, users and time windows, jobs
// matching filter expressions in the Parallel Workloads Archive's style
// ("user=374 and 14968<job<28553"), jobs larger than the machine, and
// flurries.
//
// A flurry is a burst of very high activity by a single user (Talby, "User
// Modeling of Parallel Workloads", 2006, section 4.2; Feitelson and Tsafrir,
// "Workload sanitation for performance evaluation", 2006). Two detectors
// work on weekly job counts per user, weeks starting on Monday in the log's
// local time:
//
//   - weekly: flag a user-week with at least Factor (3) times the largest
//     weekly count of any other user, and at least MinJobs (500) jobs;
//   - median: flag a user-week with more than MedianFactor (10) times the
//     user's median weekly count, and more than MedianMinJobs (500) jobs.
//
// Consecutive flagged weeks merge into one flurry, which extends over the
// user's jobs submitted less than a day apart. Each flurry is reported with
// the filter expression that removes it, so that a researcher can review
// the list ([DetectFlurries]) before removing them ([Clean]).
//
// The cleaned log's header records what was removed, as the archive's
// cleaned logs do.
package clean
