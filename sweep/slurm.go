package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Slurm submits a sweep to a Slurm cluster as a job array: task i of the
// array runs [TaskRuns](e, i, Tasks) with `hpcwl sweep --task i` and writes
// its rows to a task file in Dir; [Collect] gathers them into the results
// database. Dir, the experiment file and the hpcwl binary must be on a
// file system that the compute nodes share.
type Slurm struct {
	// Binary is the hpcwl executable the tasks run (an absolute path).
	Binary string
	// Experiment is the experiment file and DB the results database, as
	// the tasks are to name them (absolute paths).
	Experiment, DB string
	// Dir holds the batch script, the task files and the tasks' logs.
	Dir string
	// Tasks is the size of the job array.
	Tasks int
	// Args are extra sbatch options, e.g. --partition=batch --time=1:00:00.
	Args []string
}

// Script returns the batch script of the job array.
func (s *Slurm) Script() string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=hpcwl-sweep\n#SBATCH --array=0-%d\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n", s.Tasks-1)
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(s.Dir, "task-%a.log"))
	for _, a := range s.Args {
		fmt.Fprintf(&b, "#SBATCH %s\n", a)
	}
	fmt.Fprintf(&b, "exec %s sweep %s --db %s --task \"$SLURM_ARRAY_TASK_ID\" --task-count %d --workers 1\n",
		shellQuote(s.Binary), shellQuote(s.Experiment), shellQuote(s.DB), s.Tasks)
	return b.String()
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Submit writes the batch script into Dir and submits it with sbatch. It
// returns the array's job ID, also saved in Dir/jobid for [JobState].
func (s *Slurm) Submit() (string, error) {
	if s.Tasks < 1 {
		return "", errors.New("sweep: a job array needs at least one task")
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return "", err
	}
	script := filepath.Join(s.Dir, "sweep.sbatch")
	if err := os.WriteFile(script, []byte(s.Script()), 0o755); err != nil {
		return "", err
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command("sbatch", "--parsable", script)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("sbatch %s: %v: %s", script, err, strings.TrimSpace(errOut.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out.String()), ";") // "id;cluster" on federated clusters
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("sbatch %s printed %q, not a job ID", script, out.String())
	}
	if err := os.WriteFile(filepath.Join(s.Dir, "jobid"), []byte(id+"\n"), 0o644); err != nil {
		return "", err
	}
	return id, nil
}

// JobState returns the states of the array's tasks still known to squeue
// (e.g. "PENDING", "RUNNING"), counted, and the job ID; no states once the
// array has left the queue. It returns an empty ID when Dir holds no job.
func JobState(dir string) (id string, states map[string]int, err error) {
	b, err := os.ReadFile(filepath.Join(dir, "jobid"))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", nil, nil
		}
		return "", nil, err
	}
	id = strings.TrimSpace(string(b))
	var out, errOut bytes.Buffer
	cmd := exec.Command("squeue", "-h", "-r", "-j", id, "-o", "%T")
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		// squeue fails for a job that has left the queue on some versions.
		if strings.Contains(errOut.String(), "Invalid job id") {
			return id, map[string]int{}, nil
		}
		return id, nil, fmt.Errorf("squeue -j %s: %v: %s", id, err, strings.TrimSpace(errOut.String()))
	}
	states = map[string]int{}
	for _, l := range strings.Fields(out.String()) {
		states[l]++
	}
	return id, states, nil
}
