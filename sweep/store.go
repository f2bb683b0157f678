package sweep

import (
	"database/sql"
	"errors"
	"fmt"
	"sync"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, "sqlite"
)

// Store keeps the rows of one experiment in a SQLite database: a table
// "runs" with one row per run (its key is the primary key, so a run is
// never stored twice) and a table "experiment" with the experiment's text,
// its SHA-256 and the hpcwl version that made the rows.
type Store struct {
	db *sql.DB
	mu sync.Mutex
}

// ErrOtherExperiment is returned by [Open] for a database that holds the
// rows of a different experiment.
var ErrOtherExperiment = errors.New("the database holds the results of another experiment")

const schema = `
CREATE TABLE IF NOT EXISTS experiment (
	name TEXT NOT NULL, sha256 TEXT NOT NULL, source TEXT NOT NULL, hpcwl_version TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
	key TEXT PRIMARY KEY,
	log TEXT NOT NULL, variant INTEGER NOT NULL, load REAL NOT NULL, scheduler TEXT NOT NULL,
	speed REAL NOT NULL, procs_factor REAL NOT NULL, replay TEXT NOT NULL,
	jobs INTEGER NOT NULL,
	wait_mean REAL, wait_median REAL, wait_p95 REAL, response_mean REAL,
	slowdown_mean REAL, bounded_slowdown_mean REAL,
	utilization REAL, makespan REAL, throughput_per_week REAL, queue_mean REAL);
`

// Columns are the columns of the runs table, in order.
var Columns = []string{"key", "log", "variant", "load", "scheduler", "speed", "procs_factor", "replay", "jobs",
	"wait_mean", "wait_median", "wait_p95", "response_mean", "slowdown_mean", "bounded_slowdown_mean",
	"utilization", "makespan", "throughput_per_week", "queue_mean"}

// Open opens (or creates) the results database of experiment e at path.
// A database made for another experiment (another text) is refused.
func Open(path string, e *Experiment, version string) (*Store, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // one writer; rows are small and few per second
	fail := func(err error) (*Store, error) {
		db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := db.Exec(`PRAGMA busy_timeout=10000; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;` + schema); err != nil {
		return fail(err)
	}
	var name, sum string
	switch err := db.QueryRow(`SELECT name, sha256 FROM experiment`).Scan(&name, &sum); {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := db.Exec(`INSERT INTO experiment VALUES (?, ?, ?, ?)`, e.Name, e.Hash, string(e.Source), version); err != nil {
			return fail(err)
		}
	case err != nil:
		return fail(err)
	case sum != e.Hash:
		return fail(fmt.Errorf("%w (%q, SHA-256 %.12s, not %.12s): use another database", ErrOtherExperiment, name, sum, e.Hash))
	}
	return &Store{db: db}, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Keys returns the keys of the runs stored.
func (s *Store) Keys() (map[string]bool, error) {
	rows, err := s.db.Query(`SELECT key FROM runs`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	keys := map[string]bool{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		keys[k] = true
	}
	return keys, rows.Err()
}

// Put stores one row in its own transaction: once Put returns, the row
// survives the process being killed.
func (s *Store) Put(r Row) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.db.Exec(`INSERT INTO runs VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		r.Key(), r.Log, r.Variant, r.Load, r.Scheduler, r.Speed, r.ProcsFactor, r.Replay, r.Jobs,
		r.WaitMean, r.WaitMedian, r.WaitP95, r.ResponseMean, r.SlowdownMean, r.BSLDMean,
		r.Utilization, r.Makespan, r.Throughput, r.QueueMean)
	if err != nil {
		return fmt.Errorf("storing run %s: %w", r.Key(), err)
	}
	return nil
}

// Rows returns every stored row, ordered by key.
func (s *Store) Rows() ([]Row, error) {
	rows, err := s.db.Query(`SELECT log, variant, load, scheduler, speed, procs_factor, replay, jobs,
		wait_mean, wait_median, wait_p95, response_mean, slowdown_mean, bounded_slowdown_mean,
		utilization, makespan, throughput_per_week, queue_mean FROM runs ORDER BY key`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Row
	for rows.Next() {
		var r Row
		if err := rows.Scan(&r.Log, &r.Variant, &r.Load, &r.Scheduler, &r.Speed, &r.ProcsFactor, &r.Replay, &r.Jobs,
			&r.WaitMean, &r.WaitMedian, &r.WaitP95, &r.ResponseMean, &r.SlowdownMean, &r.BSLDMean,
			&r.Utilization, &r.Makespan, &r.Throughput, &r.QueueMean); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Count returns the number of stored runs.
func (s *Store) Count() (int, error) {
	var n int
	err := s.db.QueryRow(`SELECT count(*) FROM runs`).Scan(&n)
	return n, err
}
