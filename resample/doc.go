// Package resample builds new workloads from a log by resampling whole users,
// after Zakay and Feitelson (N. Zakay, Improved Realism and Representativeness
// of Workloads to Improve Reliability of Performance Evaluations, PhD thesis,
// Hebrew University, chapter 3, sections 4 and 6).
//
// A user's sub-trace (all the jobs the user submitted) is the resampling
// unit and is never changed inside: its jobs keep their order, their
// attributes and the intervals between them. [Classify] splits the users of
// a log into long-term users (active for more than 12 weeks) and temporary
// users, discarding temporary users seen only near either end of the log,
// and moves rare behaviours (flurries) into a pool of their own.
// [Pools.Generate] then recombines copies of the users week by week:
//
//   - long-term users are all present from the start, each from an
//     arbitrary week of its activity, and are regenerated when their
//     activity ends, so their number is constant;
//   - temporary users present at the start are drawn in proportion to the
//     weeks they were active; new ones arrive every week, each pool member
//     with a fixed probability (a Binomial number of arrivals per week);
//   - every copy is shifted by a whole number of weeks, in the log's local
//     time, so each job keeps its day of week and time of day;
//   - the load factor scales the number of users (never time or job sizes);
//   - RBNPW rare behaviours start per week on average, in place of
//     temporary users.
//
// The result is a [Workload]: the jobs, each copy's original user, and
// [Workload.Trace] turns it into an SWF log whose header records how it was
// made. [Saturated] is the saturation detector of Zakay's thesis, chapter 3,
// section 6, run on the outstanding jobs at each week start ([Outstanding]).
//
// Beyond the thesis's tested applications, the package implements those
// it proposes (chapter 3, section 6): [Mix] resamples the users of several
// logs into one workload; [Preference] biases the choice of users towards
// a class (selective resampling); [Shake] and [ShakeRuns] move whole
// sessions, whole user sub-traces or single runtimes slightly and show
// how far a simulated metric moves; [Pools.WeeklySegments] and
// [Pools.Segment] cut a log into stretches of stationary weekly load and
// resample from one of them.
//
// All randomness comes from a PCG stream built from Options.Seed and
// Options.Stream, so the same options give the same workload, byte for
// byte; replications use one stream per variant.
package resample
