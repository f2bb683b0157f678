// Package figure draws the figures of workloads and schedules that papers
// on HPC job scheduling show, with gonum.org/v1/plot:
//
//   - the cumulative distributions of runtime, job size, inter-arrival time
//     and wait of one or more logs (CDF), the usual first look at a log
//     (Feitelson, Workload Modeling for Computer Systems Performance
//     Evaluation, 2015, chapter 1);
//   - the daily and weekly cycles of job arrivals (Feitelson 2015, section
//     6.1.4; Zakay and Feitelson, 2013, Fig. 3);
//   - the utilization and queue length of a simulated schedule over time and
//     a Gantt chart of a window of it;
//   - the submission and termination curves of a rigid replay and of a replay
//     with feedback (Madon et al. 2024, Figs. 2 and 3);
//   - the histogram of a metric across resampled variants with the original
//     log's value marked (Zakay, PhD thesis, 2018, chapter 3, section 6).
//
// Each function takes hpcwl's own types (trace.Trace, sim.Result,
// feedback.Run, replicate.Result) and returns a Figure, which writes itself
// as SVG, PNG or PDF. The same input gives byte-identical output: the
// figures hold no time stamp and no random choice, and their series are drawn
// in a fixed order. SVG and PNG files record their provenance (a <desc>
// element, a PNG text chunk); see Figure.Write.
package figure
