package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history/series"
)

// AddOptions configure Add.
type AddOptions struct {
	// Commits tells the commit time and branch of each side's commit;
	// nil knows none (both stay unknown until an add that knows them).
	Commits CommitLookup
	// Branch, when not empty, is the branch of every commit this add
	// stores: it beats what Commits says, and replaces a branch stored
	// before (a CI job knows its branch; its detached checkout does not).
	Branch string
}

// Added is what Add stored of one Source.
type Added struct {
	// AlreadyStored: a file of the same content was added before, and
	// nothing was added.
	AlreadyStored bool
	// Sides are the measurements stored, in the file's order.
	Sides []AddedSide
	// Series is the number of series that gained runs.
	Series int
}

// AddedSide is what Add stored of one side of a file.
type AddedSide struct {
	Name   string        // "run", "base" or "head"
	Commit series.Commit // as the store now knows it
	// Modified: the build had uncommitted changes. Its runs are stored
	// but belong to no series: they measured no commit.
	Modified bool
	// Runs is the number of runs stored, failed ones included.
	Runs int
	// Repeated is how many of them another file holds too (the same run:
	// same commit, benchmark, parameters, machine, index, start and wall
	// time), as
	// a snapshot written during a session holds some runs of the final
	// file; each run counts once in a series.
	Repeated int
}

// Runs is the number of runs stored over every side.
func (a Added) Runs() int {
	n := 0
	for _, s := range a.Sides {
		n += s.Runs
	}
	return n
}

// Add stores src in one transaction: the file, each side's commit, machine
// and measurement, and every run of every result with the series its
// figures belong to. A file whose content is stored already adds nothing
// (Added.AlreadyStored). Commits the store does not know with their time
// and branch are looked up before the transaction, so that the write lock
// is held only while writing. A failure (a lock held beyond the wait, a
// full disk, a cancelled ctx) rolls the whole file back.
func (s *Store) Add(ctx context.Context, src *Source, opt AddOptions) (Added, error) {
	// A file stored already needs no commit looked up; the transaction
	// checks again, as another process may store it in between.
	var id int64
	switch err := s.db.QueryRowContext(ctx, "SELECT id FROM files WHERE content_sha256 = ?", src.Hash).Scan(&id); {
	case err == nil:
		return Added{AlreadyStored: true}, nil
	case !errors.Is(err, sql.ErrNoRows):
		return Added{}, s.wrap(err)
	}
	commits := make([]series.Commit, len(src.Sides))
	for i, side := range src.Sides {
		c := series.Commit{Hash: side.File.Tool.Revision}
		known, err := s.knownCommit(ctx, c.Hash)
		if err != nil {
			return Added{}, err
		}
		switch {
		case i > 0 && c.Hash == commits[i-1].Hash:
			c = commits[i-1] // an A/A session's two sides
		case known:
			// Stored with its time and branch: git would add nothing.
		case opt.Commits != nil:
			found, ok, err := opt.Commits.LookupCommit(ctx, c.Hash)
			if err != nil {
				return Added{}, fmt.Errorf("%s: commit %s: %w", src.Name, c.Short(), err)
			}
			if ok {
				c.Time, c.Branch = found.Time, found.Branch
			}
		}
		if opt.Branch != "" {
			c.Branch = opt.Branch
		}
		commits[i] = c
	}
	var added Added
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		added = Added{}
		err := tx.QueryRowContext(ctx, "SELECT id FROM files WHERE content_sha256 = ?", src.Hash).Scan(&id)
		if err == nil {
			added.AlreadyStored = true
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		w, err := newWriter(ctx, tx)
		if err != nil {
			return err
		}
		defer w.close()
		fileID, err := w.file(src)
		if err != nil {
			return err
		}
		for i, side := range src.Sides {
			as, err := w.side(fileID, side, commits[i], opt.Branch != "")
			if err != nil {
				return err
			}
			added.Sides = append(added.Sides, as)
		}
		added.Series, err = w.series()
		return err
	})
	if err != nil {
		return Added{}, err
	}
	return added, nil
}

// writer writes one file's rows within one transaction.
type writer struct {
	ctx     context.Context
	tx      *sql.Tx
	run     *sql.Stmt
	configs map[string]int64   // config key -> id
	touched map[seriesRef]bool // series that gained a run
	// stored holds, per commit id, the runs of that commit already
	// stored, by runKey: read once per commit, then kept up to date.
	stored map[int64]map[runKey]bool
}

// runKey is what makes two stored runs of one commit the same run.
type runKey struct {
	config, index, started, wall int64
}

// seriesRef is a series by its config and metric, before it has an id.
type seriesRef struct {
	config int64
	metric string
}

// insertRun stores one run.
const insertRun = `INSERT INTO runs (measurement_id, commit_id, config_id, in_series, label, run_index, started_at_ns,
	wall_ns, cells, pass_ns, cpu_user_ns, cpu_sys_ns, process_wall_ns, user_ns, sys_ns, peak_rss_bytes,
	load1, steal, run_queue, gc_cpu_total_ns, gc_max_pause_ns, gc_heap_alloc_bytes, gc, stats,
	pair, outlier, failed, error)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

func newWriter(ctx context.Context, tx *sql.Tx) (*writer, error) {
	run, err := tx.PrepareContext(ctx, insertRun)
	if err != nil {
		return nil, err
	}
	return &writer{ctx: ctx, tx: tx, run: run, configs: map[string]int64{}, touched: map[seriesRef]bool{},
		stored: map[int64]map[runKey]bool{}}, nil
}

func (w *writer) close() { w.run.Close() }

func (w *writer) file(src *Source) (int64, error) {
	res, err := w.tx.ExecContext(w.ctx, "INSERT INTO files (content_sha256, name, schema, added_at_ns) VALUES (?, ?, ?, ?)",
		src.Hash, src.Name, src.Schema, time.Now().UnixNano())
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// upsertCommit stores a commit, or completes a stored one: a time and a
// branch fill unknown ones; an explicit branch replaces the stored one.
const upsertCommit = `INSERT INTO commits (hash, time_unix, branch, first_file) VALUES (?1, ?2, ?3, ?4)
ON CONFLICT (hash) DO UPDATE SET
	time_unix = coalesce(commits.time_unix, excluded.time_unix),
	branch = CASE WHEN excluded.branch != '' AND (?5 OR commits.branch = '') THEN excluded.branch ELSE commits.branch END
RETURNING id`

// side stores one measurement and its runs.
func (w *writer) side(fileID int64, side Side, c series.Commit, explicitBranch bool) (AddedSide, error) {
	f := side.File
	as := AddedSide{Name: side.Name, Modified: f.Tool.Modified}
	var commitTime any
	if !c.Time.IsZero() {
		commitTime = c.Time.Unix()
	}
	var commitID int64
	if err := w.tx.QueryRowContext(w.ctx, upsertCommit, c.Hash, commitTime, c.Branch, fileID, explicitBranch).Scan(&commitID); err != nil {
		return as, err
	}
	var err error
	if as.Commit, err = readCommit(w.ctx, w.tx, commitID); err != nil {
		return as, err
	}
	stored, err := w.storedRuns(commitID)
	if err != nil {
		return as, err
	}
	kind := KindOf(f.Machine)
	fp := kind.Fingerprint()
	if _, err := w.tx.ExecContext(w.ctx, `INSERT OR IGNORE INTO machines
		(fingerprint, cpu_model, logical_cpus, gomaxprocs, os, arch, memory_gib) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		fp, kind.CPUModel, kind.LogicalCPUs, kind.GOMAXPROCS, kind.OS, kind.Arch, kind.MemoryGiB); err != nil {
		return as, err
	}
	res, err := w.tx.ExecContext(w.ctx, `INSERT INTO measurements (file_id, side, commit_id, modified,
		tool_name, tool_version, go_version, command_line, machine, hostname, kernel, governor, memory_bytes, load_avg,
		workload, unit, params, started_at_ns, finished_at_ns, partial) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		fileID, side.Name, commitID, f.Tool.Modified, f.Tool.Name, f.Tool.Version, f.Tool.GoVersion, jsonText(f.Tool.CommandLine),
		fp, f.Machine.Hostname, f.Machine.Kernel, f.Machine.Governor, f.Machine.MemoryBytes, jsonText(f.Machine.LoadAvg),
		f.Workload, f.Unit, canonicalParams(f.Params), unixNano(f.StartedAt), unixNano(f.FinishedAt), f.Partial)
	if err != nil {
		return as, err
	}
	measurement, err := res.LastInsertId()
	if err != nil {
		return as, err
	}
	for i := range f.Results {
		r := &f.Results[i]
		config, err := w.config(fp, f.Workload, f.Unit, r)
		if err != nil {
			return as, err
		}
		for j := range r.Runs {
			run := &r.Runs[j]
			key := runKey{config, int64(run.Index), unixNano(run.StartedAt), run.WallNs}
			repeat := stored[key]
			stored[key] = true
			counts := !repeat && !as.Modified
			if _, err := w.run.ExecContext(w.ctx, runArgs(measurement, commitID, config, counts, r.Label, run)...); err != nil {
				return as, fmt.Errorf("result %s run %d: %w", r.Label, run.Index, err)
			}
			as.Runs++
			if repeat {
				as.Repeated++
			}
			if !counts || run.Failed {
				continue
			}
			for _, m := range Metrics {
				if m.has(run) {
					w.touched[seriesRef{config, m.Name}] = true
				}
			}
		}
	}
	return as, nil
}

// storedRuns returns the runs of a commit stored before, read once per
// commit and file; the caller adds the runs it stores.
func (w *writer) storedRuns(commitID int64) (map[runKey]bool, error) {
	if set, ok := w.stored[commitID]; ok {
		return set, nil
	}
	rows, err := w.tx.QueryContext(w.ctx, "SELECT config_id, run_index, started_at_ns, wall_ns FROM runs WHERE commit_id = ?", commitID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	set := map[runKey]bool{}
	for rows.Next() {
		var k runKey
		if err := rows.Scan(&k.config, &k.index, &k.started, &k.wall); err != nil {
			return nil, err
		}
		set[k] = true
	}
	w.stored[commitID] = set
	return set, rows.Err()
}

// config returns the id of a result's config (machine, workload,
// parameters, benchmark), storing it when new.
func (w *writer) config(machine, workload, unit string, r *harness.Result) (int64, error) {
	params := canonicalParams(r.Params)
	key := machine + "\x00" + workload + "\x00" + params + "\x00" + r.Cell
	if id, ok := w.configs[key]; ok {
		return id, nil
	}
	if _, err := w.tx.ExecContext(w.ctx, `INSERT OR IGNORE INTO configs (machine, workload, unit, params, benchmark)
		VALUES (?, ?, ?, ?, ?)`, machine, workload, unit, params, r.Cell); err != nil {
		return 0, err
	}
	var id int64
	err := w.tx.QueryRowContext(w.ctx, `SELECT id FROM configs WHERE machine = ? AND workload = ? AND params = ? AND benchmark = ?`,
		machine, workload, params, r.Cell).Scan(&id)
	w.configs[key] = id
	return id, err
}

// series stores the series the file's runs touched and counts them.
func (w *writer) series() (int, error) {
	for ref := range w.touched {
		if _, err := w.tx.ExecContext(w.ctx, "INSERT OR IGNORE INTO series (config_id, metric) VALUES (?, ?)", ref.config, ref.metric); err != nil {
			return 0, err
		}
	}
	return len(w.touched), nil
}

// runArgs are insertRun's arguments for one run.
func runArgs(measurement, commit, config int64, inSeries bool, label string, r *harness.Run) []any {
	var cpuUser, cpuSys any
	if r.CPUNs() > 0 {
		cpuUser, cpuSys = r.CPUUserNs, r.CPUSysNs
	}
	var load1, steal, runQueue any
	if r.Env != nil {
		load1, steal, runQueue = r.Env.Load1, r.Env.Steal, r.Env.RunQueue
	}
	var passNs, stats any
	if len(r.PassNs) > 0 {
		passNs = jsonText(r.PassNs)
	}
	if len(r.Stats) > 0 {
		stats = jsonText(r.Stats)
	}
	return []any{measurement, commit, config, inSeries, label, r.Index, unixNano(r.StartedAt),
		r.WallNs, r.Cells, passNs, cpuUser, cpuSys, r.ProcessWallNs, r.UserNs, r.SysNs, r.PeakRSSBytes,
		load1, steal, runQueue, r.GC.CPUTotalNs, r.GC.MaxPauseNs, r.GC.HeapAllocBytes, jsonText(r.GC), stats,
		r.Pair, r.Outlier, r.Failed, r.Error}
}

// canonicalParams is the parameters' one text: a JSON object, keys sorted
// (encoding/json sorts a map's keys), {} for none.
func canonicalParams(p map[string]string) string {
	if len(p) == 0 {
		return "{}"
	}
	return jsonText(p)
}

// jsonText is v as JSON; the values stored are plain data that always
// encode.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("history: encoding %T: %v", v, err))
	}
	return string(b)
}

// unixNano is t in nanoseconds since 1970, 0 for the zero time (which has
// no such value).
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// knownCommit reports whether the store has the commit with its time and
// branch, which a lookup could only repeat.
func (s *Store) knownCommit(ctx context.Context, hash string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM commits WHERE hash = ? AND time_unix IS NOT NULL AND branch != ''", hash).Scan(&n)
	return n > 0, s.wrap(err)
}
