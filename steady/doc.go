// Package steady judges whether one simulation run reached a steady
// state, so that its means describe the scheduler and not the run's
// length or its edges.
//
// Three checks, each with a warning that says what to do: the offered
// load of the run (at or above 1 the machine cannot keep up); saturation,
// by the detector of Zakay (Improved Realism and Representativeness of
// Workloads to Improve Reliability of Performance Evaluations, PhD
// thesis, Hebrew University, chapter 3, section 6) on the weekly numbers
// of outstanding jobs, a series [Report.Weeks] exports; and warm-up and
// drain, by the MSER-5 truncation rule (White, Cobb and Spratt, Winter
// Simulation Conference 2000) on the waits in arrival order from either
// end, within the first and last tenth of the jobs, which suggests how
// many jobs (and how long a period) to leave out.
package steady
