package sweep

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// TaskRuns returns task i's share of the runs when the sweep is split into
// n tasks (a job array): a contiguous block, so that a task resamples few
// logs. Every run belongs to exactly one task.
func TaskRuns(e *Experiment, i, n int) []Run {
	runs := e.Runs()
	if n < 1 || i < 0 || i >= n {
		return nil
	}
	lo, hi := len(runs)*i/n, len(runs)*(i+1)/n
	return runs[lo:hi]
}

// TaskFile keeps the rows of one task as JSON lines in a file of its own
// (tasks on a cluster share no database). Each row is written and synced
// before Put returns; a line cut short by a killed task is ignored on
// reading, and its run is run again.
type TaskFile struct {
	path string
	mu   sync.Mutex
	f    *os.File
}

// OpenTaskFile opens (or creates) task i's file in dir.
func OpenTaskFile(dir string, i int) (*TaskFile, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, fmt.Sprintf("task-%d.jsonl", i))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &TaskFile{path: path, f: f}, nil
}

// Close closes the file.
func (t *TaskFile) Close() error { return t.f.Close() }

// Keys returns the keys of the complete rows in the file.
func (t *TaskFile) Keys() (map[string]bool, error) {
	rows, err := readTaskFile(t.path)
	keys := map[string]bool{}
	for _, r := range rows {
		keys[r.Key()] = true
	}
	return keys, err
}

// Put appends one row and syncs the file. A partial line left by a killed
// task is closed off first, so that the new row starts a line of its own.
func (t *TaskFile) Put(r Row) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if fi, err := t.f.Stat(); err == nil && fi.Size() > 0 {
		last := make([]byte, 1)
		if rf, err := os.Open(t.path); err == nil {
			rf.ReadAt(last, fi.Size()-1)
			rf.Close()
			if last[0] != '\n' {
				b = append([]byte{'\n'}, b...)
			}
		}
	}
	if _, err := t.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("%s: %w", t.path, err)
	}
	return t.f.Sync()
}

// readTaskFile reads the complete rows of a task file.
func readTaskFile(path string) ([]Row, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		var r Row
		if len(line) == 0 || json.Unmarshal(line, &r) != nil {
			continue // an empty line, or the cut line of a killed task
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// Collect stores in s the rows of every task file in dir that s does not
// hold yet, and returns how many it added. Collecting twice adds nothing.
func Collect(dir string, s *Store) (int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "task-*.jsonl"))
	if err != nil {
		return 0, err
	}
	sort.Strings(files)
	have, err := s.Keys()
	if err != nil {
		return 0, err
	}
	added := 0
	for _, f := range files {
		rows, err := readTaskFile(f)
		if err != nil {
			return added, err
		}
		for _, r := range rows {
			if have[r.Key()] {
				continue
			}
			if err := s.Put(r); err != nil {
				return added, err
			}
			have[r.Key()] = true
			added++
		}
	}
	return added, nil
}
