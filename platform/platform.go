// Package platform describes the machine a log ran on when it is not one
// pool of identical processors: partitions, each with its own processors
// and relative speed. SWF logs name a job's partition in field 16 and may
// list the partitions in their header (MaxPartitions, Partition lines);
// a platform file or a Slurm slurm.conf gives their sizes and speeds.
//
// Simulate runs each partition as its own machine, with the jobs submitted
// to it, and merges the results into one, so that every metric covers the
// whole platform.
package platform

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/trace"
)

// Partition is one machine of a platform.
type Partition struct {
	// ID is the partition's number in SWF field 16 (>= 1).
	ID int `json:"id"`
	// Name is the partition's name, "" when unknown.
	Name string `json:"name,omitempty"`
	// Procs is the number of processors (> 0).
	Procs int `json:"procs"`
	// Speed is the node speed relative to the traced machine (> 0):
	// runtimes and requested times on this partition are divided by it.
	Speed float64 `json:"speed"`
	// SizeFrom says where Procs came from: "platform file", "slurm.conf",
	// or "largest job" when only the log was known.
	SizeFrom string `json:"size_from"`
}

// Platform is a set of partitions, ordered by ID.
type Platform struct {
	Partitions []Partition `json:"partitions"`
	// Source names the file the platform was read from, or the log it was
	// derived from.
	Source string `json:"source"`
}

// Procs returns the total number of processors.
func (p *Platform) Procs() int {
	n := 0
	for _, q := range p.Partitions {
		n += q.Procs
	}
	return n
}

// Partition returns the partition with the given ID.
func (p *Platform) Partition(id int) (Partition, bool) {
	i, ok := slices.BinarySearchFunc(p.Partitions, id, func(q Partition, id int) int { return cmp.Compare(q.ID, id) })
	if !ok {
		return Partition{}, false
	}
	return p.Partitions[i], true
}

// check sorts the partitions and validates them.
func (p *Platform) check() error {
	if len(p.Partitions) == 0 {
		return errors.New("no partition")
	}
	slices.SortStableFunc(p.Partitions, func(a, b Partition) int { return cmp.Compare(a.ID, b.ID) })
	for i, q := range p.Partitions {
		if i > 0 && p.Partitions[i-1].ID == q.ID {
			return fmt.Errorf("partition %d is described twice", q.ID)
		}
	}
	return nil
}

// Partitions counts the jobs of t per partition (SWF field 16); jobs
// without a partition count under -1.
func Partitions(t *trace.Trace) map[int]int {
	m := map[int]int{}
	for i := range t.Jobs {
		m[int(t.Jobs[i].Partition)]++
	}
	return m
}

// HeaderNames returns the partition names the log's header gives in its
// "Partition: N name ..." lines, by number.
func HeaderNames(t *trace.Trace) map[int]string {
	names := map[int]string{}
	for _, l := range t.Header.Lines {
		if !strings.EqualFold(l.Key, "Partition") {
			continue
		}
		f := strings.Fields(l.Value)
		if len(f) == 0 {
			continue
		}
		id, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		if len(f) > 1 {
			names[id] = f[1]
		} else {
			names[id] = ""
		}
	}
	return names
}

// FromTrace derives a platform from the log alone: one partition per
// partition number of its jobs (field 16), named as in the header, each as
// large as the largest job submitted to it (the log does not say more; the
// partition's SizeFrom says so), at speed 1. procs gives the processor count
// of a job (the simulation's choice of field 5 or 8). Jobs without a
// partition (-1) make an error: they cannot be placed.
func FromTrace(t *trace.Trace, procs func(*trace.Job) int) (*Platform, error) {
	largest := map[int]int{}
	unknown := 0
	for i := range t.Jobs {
		j := &t.Jobs[i]
		if j.Partition < 0 {
			unknown++
			continue
		}
		largest[int(j.Partition)] = max(largest[int(j.Partition)], procs(j))
	}
	if unknown > 0 {
		return nil, fmt.Errorf("%d jobs have no partition (field 16 is -1): they cannot be placed; give a platform file or pool the partitions", unknown)
	}
	names := HeaderNames(t)
	p := &Platform{Source: t.Name}
	for id, n := range largest {
		if n <= 0 {
			continue // only jobs without a processor count: Prepare drops them
		}
		p.Partitions = append(p.Partitions, Partition{ID: id, Name: names[id], Procs: n, Speed: 1, SizeFrom: "largest job"})
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	return p, nil
}
