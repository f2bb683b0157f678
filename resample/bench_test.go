package resample_test

import (
	"testing"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/trace"
)

// BenchmarkGenerateBlue10y generates ten years of SDSC-BLUE (the issue's
// target: under 1 s), classification excluded.
func BenchmarkGenerateBlue10y(b *testing.B) {
	t := loadReal(b, "SDSC-BLUE-2000-4.2-cln.swf.gz")
	p, err := resample.Classify(t, resample.ClassifyOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	jobs := 0
	for i := 0; b.Loop(); i++ {
		w, err := p.Generate(resample.Options{Duration: 520 * resample.Week, Seed: 1, Stream: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		jobs = len(w.Jobs)
	}
	b.ReportMetric(float64(jobs), "jobs")
}

// BenchmarkClassifyBlue classifies the users of SDSC-BLUE.
func BenchmarkClassifyBlue(b *testing.B) {
	t := loadReal(b, "SDSC-BLUE-2000-4.2-cln.swf.gz")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := resample.Classify(t, resample.ClassifyOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDrawBlue10y draws the workload of BenchmarkGenerateBlue10y and
// writes its jobs nowhere, job by job.
func BenchmarkDrawBlue10y(b *testing.B) {
	t := loadReal(b, "SDSC-BLUE-2000-4.2-cln.swf.gz")
	p, err := resample.Classify(t, resample.ClassifyOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	jobs := 0
	for i := 0; b.Loop(); i++ {
		d, err := p.Draw(resample.Options{Duration: 520 * resample.Week, Seed: 1, Stream: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		if err := d.WriteJobs(trace.JobWriterFunc(func(*trace.Job) error { return nil })); err != nil {
			b.Fatal(err)
		}
		jobs = d.Jobs
	}
	b.ReportMetric(float64(jobs), "jobs")
}

// BenchmarkMixKTHSDSC mixes the users of KTH-SP2 and SDSC-SP2 over KTH's
// length, classification excluded.
func BenchmarkMixKTHSDSC(b *testing.B) {
	pa, err := resample.Classify(loadReal(b, "KTH-SP2-1996-2.1-cln.swf.gz"), resample.ClassifyOptions{})
	if err != nil {
		b.Fatal(err)
	}
	pb, err := resample.Classify(loadReal(b, "SDSC-SP2-1998-4.2-cln.swf.gz"), resample.ClassifyOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	jobs := 0
	for i := 0; b.Loop(); i++ {
		m, err := resample.Mix([]*resample.Pools{pa, pb}, resample.MixOptions{Options: resample.Options{Seed: 1, Stream: uint64(i)}, Procs: resample.MaxProcs})
		if err != nil {
			b.Fatal(err)
		}
		jobs = len(m.Jobs)
	}
	b.ReportMetric(float64(jobs), "jobs")
}

// BenchmarkShakeSDSCSessions moves every session of SDSC-SP2 (the shaking
// itself, without the simulation).
func BenchmarkShakeSDSCSessions(b *testing.B) {
	t := loadReal(b, "SDSC-SP2-1998-4.2-cln.swf.gz")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, _, err := resample.Shake(t, resample.ShakeOptions{Unit: resample.ShakeSession, MaxShift: 60, Seed: 1, Stream: uint64(i)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWeeklySegmentsHPC2N cuts HPC2N's 183 weeks into segments.
func BenchmarkWeeklySegmentsHPC2N(b *testing.B) {
	p, err := resample.Classify(loadReal(b, "HPC2N-2002-2.2-cln.swf.gz"), resample.ClassifyOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.WeeklySegments(240, resample.SegmentOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
