package platform

import (
	"context"
	"errors"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/inputlimit"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func TestReadYAML(t *testing.T) {
	f, err := os.Open("testdata/two.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := Read(f, "two.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []Partition{{1, "slow", 4, 1, "platform file"}, {2, "fast", 2, 2, "platform file"}}
	if !slices.Equal(p.Partitions, want) || p.Procs() != 6 {
		t.Errorf("got %+v", p.Partitions)
	}
}

func TestReadJSON(t *testing.T) {
	p, err := Read(strings.NewReader(`{"partitions":[{"id":3,"procs":8},{"id":1,"procs":2,"speed":0.5}]}`), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Partitions) != 2 || p.Partitions[0].ID != 1 || p.Partitions[0].Speed != 0.5 || p.Partitions[1].Speed != 1 {
		t.Errorf("got %+v (want sorted by id, default speed 1)", p.Partitions)
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"partitions:\n  - id: 1\n    procs: -4\n", `p.yaml: line 3: partitions[0].procs: "-4": expected a whole number >= 1`},
		{"partitions:\n  - id: 1\n    procs: 4\n    speed: fast\n", `line 4: partitions[0].speed: "fast": expected a number > 0`},
		{"partitions:\n  - id: 1\n", `line 2: partitions[0].procs: missing`},
		{"partitions:\n  - id: 1\n    procs: 4\n    cores: 2\n", `line 4: partitions[0].cores: unknown key`},
		{"partitions:\n  - {id: 1, procs: 4}\n  - {id: 1, procs: 2}\n", `line 3: partitions[1].id: partition 1 is already described at line 2`},
		{"machines: 3\n", `line 1: machines: unknown key; expected "partitions"`},
		{"partitions: []\n", `partitions: expected a non-empty list`},
		{"", `empty platform file`},
		{"partitions: [\n", `not YAML, JSON or slurm.conf`},
	}
	for _, tt := range tests {
		_, err := Read(strings.NewReader(tt.in), "p.yaml")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want it to contain %q", tt.in, err, tt.want)
		}
	}
}

func TestReadSlurmConf(t *testing.T) {
	f, err := os.Open("testdata/slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := Read(f, "slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	// cn01-04: 2 sockets x 4 cores x 1 thread = 8 CPUs each; big1 32; gpu1-2 16.
	want := []Partition{
		{1, "batch", 4*8 + 32, 1, "slurm.conf"},
		{2, "debug", 8, 1, "slurm.conf"},
		{3, "all", 4*8 + 32 + 2*16, 1, "slurm.conf"},
	}
	if !slices.Equal(p.Partitions, want) {
		t.Errorf("got  %+v\nwant %+v", p.Partitions, want)
	}
	if err := p.Renumber(map[int]string{5: "debug", 7: "batch"}); err != nil {
		t.Fatal(err)
	}
	if ids := []int{p.Partitions[0].ID, p.Partitions[1].ID, p.Partitions[2].ID}; !slices.Equal(ids, []int{3, 5, 7}) {
		t.Errorf("renumbered ids %v, want all=3 debug=5 batch=7", ids)
	}
	if err := p.Renumber(map[int]string{3: "batch"}); err == nil {
		t.Error("two partitions with number 3: no error")
	}
}

func TestSlurmConfErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"NodeName=a CPUs=x\nPartitionName=p Nodes=a\n", `slurm.conf: line 1: CPUs: "x"`},
		{"NodeName=a CPUs=4\nPartitionName=p Nodes=b\n", `line 2: Nodes: partition p names node b, which no NodeName line describes`},
		{"NodeName=a[1-2 CPUs=4\nPartitionName=p Nodes=a1\n", `line 1: NodeName: host list "a[1-2": unbalanced '['`},
		{"NodeName=a CPUs=4\n", `no PartitionName line`},
	}
	for _, tt := range tests {
		_, err := Read(strings.NewReader(tt.in), "slurm.conf")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want it to contain %q", tt.in, err, tt.want)
		}
	}
}

func TestExpandHosts(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"node1", []string{"node1"}},
		{"n[01-03,7]", []string{"n01", "n02", "n03", "n7"}},
		{"a[1-2],b,c[9-10]", []string{"a1", "a2", "b", "c9", "c10"}},
		{"r[1-2]n[1-2]", []string{"r1n1", "r1n2", "r2n1", "r2n2"}},
		{"[1-2]x", []string{"1x", "2x"}},                         // a range at the start
		{"n[5000000-5000001]", []string{"n5000000", "n5000001"}}, // large numbers, a short range
	}
	for _, tt := range tests {
		got, err := expandHosts(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("expandHosts(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	// The widest range accepted holds 1,000,001 names (b - a = 10^6).
	if got, err := expandHosts("n[0-1000000]"); err != nil || len(got) != 1_000_001 || got[1_000_000] != "n1000000" {
		t.Errorf("expandHosts(n[0-1000000]): %d names, %v", len(got), err)
	}
	for _, bad := range []string{"", "n[3-1]", "n[1-2", "n1-2]", "n[a-b]", "n[0-1000001]"} {
		if _, err := expandHosts(bad); err == nil {
			t.Errorf("expandHosts(%q): no error", bad)
		}
	}
}

func tjob(id, submit, run, req, procs, part int) trace.Job {
	return trace.Job{ID: int64(id), Submit: int64(submit), Wait: -1, Runtime: int64(run), Procs: int32(procs), ReqProcs: int32(procs),
		ReqTime: int64(req), Partition: int32(part), User: 1, AvgCPU: -1, UsedMem: -1, ReqMem: -1, Status: 1, Group: -1, App: -1, Queue: -1, Preceding: -1, ThinkTime: -1}
}

// TestSimulateGolden checks a hand-worked schedule on two partitions under
// FCFS: jobs stay in their partition although the other has room, the
// fast partition halves runtimes, and a job of an unknown partition is left
// out and counted.
func TestSimulateGolden(t *testing.T) {
	tr := trace.New(swf.Header{}, []trace.Job{
		tjob(1, 0, 100, 100, 4, 1),  // slow: 0..100
		tjob(2, 0, 100, 100, 2, 2),  // fast: 0..50 (speed 2)
		tjob(3, 10, 100, 100, 2, 1), // slow: waits for job 1 although fast is free at 50: 100..200
		tjob(4, 20, 60, 60, 2, 2),   // fast: 50..80
		tjob(5, 30, 10, 10, 1, 9),   // partition 9: unplaced
	}, trace.Options{})
	tr.Name = "golden"
	p := &Platform{Partitions: []Partition{{ID: 1, Procs: 4, Speed: 1}, {ID: 2, Procs: 2, Speed: 2}}}
	res, w, pl, err := Simulate(context.Background(), tr, p, Options{NewScheduler: func() (sim.Scheduler, error) { return sched.New("fcfs") }})
	if err != nil {
		t.Fatal(err)
	}
	type se struct{ id, start, end, index int }
	var got []se
	for _, o := range res.Jobs {
		got = append(got, se{int(o.ID), int(o.Start), int(o.End), int(o.Index)})
	}
	want := []se{{1, 0, 100, 0}, {2, 0, 50, 1}, {3, 100, 200, 2}, {4, 50, 80, 3}}
	if !slices.Equal(got, want) {
		t.Errorf("schedule %v, want %v", got, want)
	}
	if res.Procs != 6 || w.Procs != 6 || pl.Unplaced != 1 || len(pl.Runs) != 2 || pl.Runs[0].Jobs != 2 || pl.Runs[1].Simulated != 2 {
		t.Errorf("procs %d/%d, placement %+v", res.Procs, w.Procs, pl)
	}
	// No speed given is speed 1, the base that each partition's multiplies.
	if w.Speed != 1 {
		t.Errorf("merged workload's speed %v, want 1", w.Speed)
	}
	for n, j := range w.Jobs {
		if int(j.Index) != n {
			t.Errorf("workload job %d has index %d: not in the log's order", n, j.Index)
		}
	}
}

func TestFromTrace(t *testing.T) {
	h := swf.Header{}
	h.Lines = append(h.Lines, swf.HeaderLine{Key: "Partition", Value: "1 pbatch"}, swf.HeaderLine{Key: "Partition", Value: "2 pdebug"})
	tr := trace.New(h, []trace.Job{tjob(1, 0, 1, 1, 16, 1), tjob(2, 0, 1, 1, 64, 1), tjob(3, 0, 1, 1, 8, 2)}, trace.Options{})
	procs := func(j *trace.Job) int { return int(j.Procs) }
	p, err := FromTrace(tr, procs)
	if err != nil {
		t.Fatal(err)
	}
	want := []Partition{{1, "pbatch", 64, 1, "largest job"}, {2, "pdebug", 8, 1, "largest job"}}
	if !slices.Equal(p.Partitions, want) {
		t.Errorf("got %+v", p.Partitions)
	}
	tr.Jobs = append(tr.Jobs, tjob(4, 1, 1, 1, 1, -1))
	if _, err := FromTrace(tr, procs); err == nil || !strings.Contains(err.Error(), "1 jobs have no partition") {
		t.Errorf("a job without partition: %v", err)
	}
	if _, err := Read(strings.NewReader("x"), "f"); !errors.As(err, new(*ParseError)) {
		t.Errorf("Read error is not a *ParseError: %v", err)
	}
}

// TestReadBoundaries checks the smallest valid values and the first
// invalid ones, and that an error without a line says none.
func TestReadBoundaries(t *testing.T) {
	p, err := Read(strings.NewReader("partitions:\n  - {id: 1, procs: 1, speed: 0.001}\n"), "p.yaml")
	if err != nil || p.Partitions[0].Procs != 1 {
		t.Errorf("procs 1, speed 0.001: %v", err)
	}
	// The largest id and size a 32-bit field holds are accepted, one more is not.
	p, err = Read(strings.NewReader("partitions:\n  - {id: 2147483647, procs: 2147483647}\n"), "p.yaml")
	if err != nil || p.Partitions[0].Procs != 2147483647 || p.Partitions[0].ID != 2147483647 {
		t.Errorf("id and procs 2^31 - 1: %+v, %v", p, err)
	}
	if _, err := Read(strings.NewReader("partitions:\n  - {id: 1, procs: 2147483648}\n"), "p.yaml"); err == nil {
		t.Error("procs 2^31: no error")
	}
	for _, in := range []string{"partitions:\n  - {id: 1, procs: 0}\n", "partitions:\n  - {id: 0, procs: 4}\n",
		"partitions:\n  - {id: 1, procs: 4, speed: 0}\n"} {
		if _, err := Read(strings.NewReader(in), "p.yaml"); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
	_, err = Read(strings.NewReader(""), "p.yaml")
	if err == nil || strings.Contains(err.Error(), "line") {
		t.Errorf("empty file: %v, want an error that names no line", err)
	}
}

// TestSlurmConfDefaultsAndComments checks NodeName=DEFAULT's CPUs for a
// node that gives none (a DEFAULT line applies to the lines after it),
// CPUs=1, cores without sockets, and that a line commented out from its
// first character is ignored.
func TestSlurmConfDefaultsAndComments(t *testing.T) {
	conf := "#PartitionName=ghost Nodes=a\nNodeName=c CoresPerSocket=3\nNodeName=DEFAULT CPUs=4\nNodeName=a\nNodeName=b CPUs=1\n" +
		"PartitionName=p Nodes=a,b,c\n"
	p, err := Read(strings.NewReader(conf), "slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Partitions) != 1 || p.Partitions[0].Procs != 4+1+3 {
		t.Errorf("partitions %+v, want one of 4+1+3 processors", p.Partitions)
	}
	if got, err := expandHosts("n[0-1]"); err != nil || !slices.Equal(got, []string{"n0", "n1"}) {
		t.Errorf("n[0-1]: %v, %v", got, err)
	}
	if _, err := expandHosts("n[0-1000001]"); err == nil {
		t.Error("a range of a million and one hosts: no error")
	}
}

// TestFromTraceEdges checks what FromTrace takes from a log beyond the
// usual case: a header line that gives a partition's number without a
// name, partition 0 (a number like any other: only -1 means none), and a
// partition whose jobs all lack a processor count, which is left out
// (Prepare drops such jobs).
func TestFromTraceEdges(t *testing.T) {
	h := swf.Header{}
	h.Lines = append(h.Lines, swf.HeaderLine{Key: "Partition", Value: "0 zero"}, swf.HeaderLine{Key: "Partition", Value: "3"},
		swf.HeaderLine{Key: "Partition", Value: "x"})
	tr := trace.New(h, []trace.Job{tjob(1, 0, 1, 1, 16, 0), tjob(2, 0, 1, 1, 4, 3), tjob(3, 0, 1, 1, -1, 5), tjob(4, 0, 1, 1, 0, 5)}, trace.Options{})
	if got, want := HeaderNames(tr), map[int]string{0: "zero", 3: ""}; !maps.Equal(got, want) {
		t.Errorf("header names %v, want %v", got, want)
	}
	p, err := FromTrace(tr, func(j *trace.Job) int { return int(j.Procs) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []Partition{{0, "zero", 16, 1, "largest job"}, {3, "", 4, 1, "largest job"}}; !slices.Equal(p.Partitions, want) {
		t.Errorf("partitions %+v, want %+v", p.Partitions, want)
	}
}

// TestReadSizeLimits checks the limits of a platform file: a file of
// exactly inputlimit.MaxParamFile bytes is read, one byte more is refused
// as too long; a slurm.conf whose first line is a comment of exactly
// inputlimit.MaxLine bytes is still recognized and read.
func TestReadSizeLimits(t *testing.T) {
	yaml := "partitions:\n  - {id: 1, procs: 4}\n"
	var b strings.Builder
	b.WriteString(yaml)
	line := "#" + strings.Repeat("x", 1023) + "\n"
	for b.Len()+len(line) <= inputlimit.MaxParamFile {
		b.WriteString(line)
	}
	b.WriteString("#" + strings.Repeat("y", inputlimit.MaxParamFile-b.Len()-2) + "\n")
	full := b.String()
	if len(full) != inputlimit.MaxParamFile {
		t.Fatalf("built %d bytes", len(full))
	}
	if p, err := Read(strings.NewReader(full), "p.yaml"); err != nil || p.Partitions[0].Procs != 4 {
		t.Errorf("%d bytes: %v", len(full), err)
	}
	if _, err := Read(strings.NewReader(full+"#"), "p.yaml"); !errors.Is(err, inputlimit.ErrTooLong) {
		t.Errorf("%d bytes: %v, want too long", len(full)+1, err)
	}
	conf := "#" + strings.Repeat("z", inputlimit.MaxLine-1) + "\nNodeName=a CPUs=8\nPartitionName=p Nodes=a\n"
	if p, err := Read(strings.NewReader(conf), "slurm.conf"); err != nil || len(p.Partitions) != 1 || p.Partitions[0].Procs != 8 {
		t.Errorf("a comment of %d bytes first: %+v, %v", inputlimit.MaxLine, p, err)
	}
}

// TestSlurmConfCPUsAndComments checks a node's processors from each of
// Sockets, CoresPerSocket and ThreadsPerCore given alone (the others count
// 1), and that "# PartitionName=..." (a space after the '#') is a comment.
func TestSlurmConfCPUsAndComments(t *testing.T) {
	conf := "# PartitionName=ghost Nodes=s\nNodeName=s Sockets=2\nNodeName=c CoresPerSocket=3\nNodeName=h ThreadsPerCore=5\n" +
		"PartitionName=p Nodes=s,c,h\n"
	p, err := Read(strings.NewReader(conf), "slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Partitions) != 1 || p.Partitions[0].Name != "p" || p.Partitions[0].Procs != 2+3+5 {
		t.Errorf("partitions %+v, want p alone, of 2+3+5 processors", p.Partitions)
	}
}
