package history

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are the store's schema, one step per version: migrations[i]
// takes a store from version i to version i+1 (PRAGMA user_version), in
// one transaction with the version change, so that a store is always at
// one version, whatever kills a migration. A new version appends a step;
// a step is never edited once released. Open applies the missing steps and
// refuses a store whose version is beyond the last (ErrTooNew).
var migrations = []string{
	// 1: files, the commits and machines they measured, their measurements
	// (a results file has one, an A/B file two), the runs, and the
	// series over them. A run's commit and whether it counts in its series
	// (in_series: not a repeat of a run stored before, not of a modified
	// build) are kept on the run, so that a series is read from one
	// table; the GC figures metrics read have columns of their own beside
	// the whole GC record.
	`
CREATE TABLE files (
	id INTEGER PRIMARY KEY,
	content_sha256 TEXT NOT NULL UNIQUE,
	name TEXT NOT NULL,
	schema TEXT NOT NULL,
	added_at_ns INTEGER NOT NULL
);
CREATE TABLE commits (
	id INTEGER PRIMARY KEY,
	hash TEXT NOT NULL UNIQUE,
	time_unix INTEGER,
	branch TEXT NOT NULL,
	first_file INTEGER NOT NULL REFERENCES files(id)
);
CREATE TABLE machines (
	fingerprint TEXT PRIMARY KEY,
	cpu_model TEXT NOT NULL,
	logical_cpus INTEGER NOT NULL,
	gomaxprocs INTEGER NOT NULL,
	os TEXT NOT NULL,
	arch TEXT NOT NULL,
	memory_gib INTEGER NOT NULL
);
CREATE TABLE measurements (
	id INTEGER PRIMARY KEY,
	file_id INTEGER NOT NULL REFERENCES files(id),
	side TEXT NOT NULL,
	commit_id INTEGER NOT NULL REFERENCES commits(id),
	modified INTEGER NOT NULL,
	tool_name TEXT NOT NULL,
	tool_version TEXT NOT NULL,
	go_version TEXT NOT NULL,
	command_line TEXT NOT NULL,
	machine TEXT NOT NULL REFERENCES machines(fingerprint),
	hostname TEXT NOT NULL,
	kernel TEXT NOT NULL,
	governor TEXT NOT NULL,
	memory_bytes INTEGER NOT NULL,
	load_avg TEXT NOT NULL,
	workload TEXT NOT NULL,
	unit TEXT NOT NULL,
	params TEXT NOT NULL,
	started_at_ns INTEGER NOT NULL,
	finished_at_ns INTEGER NOT NULL,
	partial INTEGER NOT NULL
);
CREATE INDEX measurements_file ON measurements(file_id);
CREATE TABLE configs (
	id INTEGER PRIMARY KEY,
	machine TEXT NOT NULL REFERENCES machines(fingerprint),
	workload TEXT NOT NULL,
	unit TEXT NOT NULL,
	params TEXT NOT NULL,
	benchmark TEXT NOT NULL,
	UNIQUE (machine, workload, params, benchmark)
);
CREATE TABLE series (
	id INTEGER PRIMARY KEY,
	config_id INTEGER NOT NULL REFERENCES configs(id),
	metric TEXT NOT NULL,
	UNIQUE (config_id, metric)
);
CREATE TABLE runs (
	id INTEGER PRIMARY KEY,
	measurement_id INTEGER NOT NULL REFERENCES measurements(id),
	commit_id INTEGER NOT NULL REFERENCES commits(id),
	config_id INTEGER NOT NULL REFERENCES configs(id),
	in_series INTEGER NOT NULL,
	label TEXT NOT NULL,
	run_index INTEGER NOT NULL,
	started_at_ns INTEGER NOT NULL,
	wall_ns INTEGER NOT NULL,
	cells INTEGER NOT NULL,
	pass_ns TEXT,
	cpu_user_ns INTEGER,
	cpu_sys_ns INTEGER,
	process_wall_ns INTEGER NOT NULL,
	user_ns INTEGER NOT NULL,
	sys_ns INTEGER NOT NULL,
	peak_rss_bytes INTEGER NOT NULL,
	load1 REAL,
	steal REAL,
	run_queue REAL,
	gc_cpu_total_ns INTEGER NOT NULL,
	gc_max_pause_ns INTEGER NOT NULL,
	gc_heap_alloc_bytes INTEGER NOT NULL,
	gc TEXT NOT NULL,
	stats TEXT,
	pair INTEGER NOT NULL,
	outlier INTEGER NOT NULL,
	failed INTEGER NOT NULL,
	error TEXT NOT NULL
);
CREATE INDEX runs_config ON runs(config_id);
CREATE INDEX runs_commit ON runs(commit_id);
`,
	// 2: the bisections started from a series' change point (history
	// bisect: the series, the range, how it ended, the culprit if it named
	// one), and the revisions a backfill skipped (its plan: machine kind,
	// workload, parameters and cells; the reason), so that a resumed
	// backfill does not retry them.
	`
CREATE TABLE bisections (
	id INTEGER PRIMARY KEY,
	series_id INTEGER NOT NULL REFERENCES series(id),
	good TEXT NOT NULL,
	bad TEXT NOT NULL,
	outcome TEXT NOT NULL,
	culprit TEXT NOT NULL,
	detail TEXT NOT NULL,
	at_ns INTEGER NOT NULL
);
CREATE INDEX bisections_series ON bisections(series_id);
CREATE TABLE backfill_skips (
	id INTEGER PRIMARY KEY,
	hash TEXT NOT NULL,
	machine TEXT NOT NULL,
	plan TEXT NOT NULL,
	reason TEXT NOT NULL,
	at_ns INTEGER NOT NULL,
	UNIQUE (hash, machine, plan)
);
`,
}

// SchemaVersion is the store schema version this binary writes: the
// number of migrations it knows.
func SchemaVersion() int { return len(migrations) }

// migrate brings the store from version (read without a lock) to
// SchemaVersion, one transaction per step. Each step re-reads the version
// under the write lock: another process may have migrated the store in
// between, and then the step is not repeated.
func (s *Store) migrate(ctx context.Context, version int) error {
	for version < len(migrations) {
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			id, v, tables, err := s.identity(ctx, tx)
			if err != nil {
				return err
			}
			if err := s.checkIdentity(id, v, tables); err != nil {
				return err
			}
			if version = v; version >= len(migrations) {
				return nil
			}
			if _, err := tx.ExecContext(ctx, migrations[version]); err != nil {
				return fmt.Errorf("migrating to schema version %d: %w", version+1, err)
			}
			version++
			// Pragmas take no parameters; both values are this package's
			// integers.
			_, err = tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d; PRAGMA application_id = %d", version, applicationID))
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}
