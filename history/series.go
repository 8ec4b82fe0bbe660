package history

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rootbench/rootbench/history/series"
)

// Filter selects series; an empty field selects every value.
type Filter struct {
	Benchmarks []string // cells (or callback variants), exactly as stored
	Metrics    []string // metric names
	Workload   string
	// Machine is a fingerprint or a prefix of one.
	Machine string
}

func (f Filter) keeps(s series.Series) bool {
	return (len(f.Benchmarks) == 0 || slices.Contains(f.Benchmarks, s.Benchmark)) &&
		(len(f.Metrics) == 0 || slices.Contains(f.Metrics, s.Metric)) &&
		(f.Workload == "" || f.Workload == s.Workload) &&
		strings.HasPrefix(s.Machine, f.Machine)
}

// Series lists the series f selects, ordered by machine, workload,
// benchmark, parameters, then metric in the order of Metrics.
func (s *Store) Series(ctx context.Context, f Filter) ([]series.Series, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT s.id, s.metric, c.machine, c.workload, c.unit, c.params, c.benchmark,
		m.cpu_model, m.logical_cpus, m.gomaxprocs, m.os, m.arch, m.memory_gib
		FROM series s JOIN configs c ON c.id = s.config_id JOIN machines m ON m.fingerprint = c.machine`)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer rows.Close()
	var out []series.Series
	for rows.Next() {
		var x series.Series
		var unit, params string
		k := &x.MachineKind
		if err := rows.Scan(&x.ID, &x.Metric, &x.Machine, &x.Workload, &unit, &params, &x.Benchmark,
			&k.CPUModel, &k.LogicalCPUs, &k.GOMAXPROCS, &k.OS, &k.Arch, &k.MemoryGiB); err != nil {
			return nil, s.wrap(err)
		}
		if err := json.Unmarshal([]byte(params), &x.Params); err != nil {
			return nil, s.wrap(fmt.Errorf("series %d: parameters %q: %w", x.ID, params, err))
		}
		if m, ok := MetricNamed(x.Metric); ok {
			x.Unit = strings.Replace(m.Unit, perUnit, "/"+unit, 1)
		}
		if f.keeps(x) {
			out = append(out, x)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(err)
	}
	slices.SortFunc(out, func(a, b series.Series) int {
		return cmp.Or(cmp.Compare(a.Machine, b.Machine), cmp.Compare(a.Workload, b.Workload),
			cmp.Compare(a.Benchmark, b.Benchmark), cmp.Compare(a.ParamsText(), b.ParamsText()),
			cmp.Compare(metricOrder(a.Metric), metricOrder(b.Metric)), cmp.Compare(a.Metric, b.Metric))
	})
	return out, nil
}

// Points reads a series' points in commit order: by commit time, commits
// of unknown time last; commits of one time in the order they were first
// added to the store. Each run counts once, however many files hold it;
// runs of builds with uncommitted changes are in no point.
func (s *Store) Points(ctx context.Context, x series.Series) ([]series.Point, error) {
	m, ok := MetricNamed(x.Metric)
	if !ok {
		return nil, fmt.Errorf("series %d: unknown metric %q (known: %s)", x.ID, x.Metric, strings.Join(MetricNames(), ", "))
	}
	// m.expr is this package's constant text, never input. The rows come
	// in index order and are sorted here: cheaper than SQLite's sorter.
	rows, err := s.db.QueryContext(ctx, `SELECT commit_id, started_at_ns, run_index, failed, `+m.expr+`
		FROM runs WHERE config_id = (SELECT config_id FROM series WHERE id = ?) AND in_series`, x.ID)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer rows.Close()
	type runRow struct {
		commit         *storedCommit
		started, index int64
		failed         bool
		value          sql.NullFloat64
	}
	commits := map[int64]*storedCommit{}
	var runs []runRow
	for rows.Next() {
		var id int64
		var r runRow
		if err := rows.Scan(&id, &r.started, &r.index, &r.failed, &r.value); err != nil {
			return nil, s.wrap(err)
		}
		if r.commit = commits[id]; r.commit == nil {
			r.commit = &storedCommit{}
			commits[id] = r.commit
		}
		runs = append(runs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(err)
	}
	if err := s.readCommits(ctx, commits); err != nil {
		return nil, err
	}
	slices.SortStableFunc(runs, func(a, b runRow) int {
		if a.commit != b.commit {
			return a.commit.compare(b.commit)
		}
		return cmp.Or(cmp.Compare(a.started, b.started), cmp.Compare(a.index, b.index))
	})
	var out []series.Point
	for _, r := range runs {
		if n := len(out); n == 0 || out[n-1].Commit.Hash != r.commit.Hash {
			out = append(out, series.Point{Commit: r.commit.Commit})
		}
		p := &out[len(out)-1]
		switch {
		case r.failed:
			p.Failed++
		case r.value.Valid:
			p.Values = append(p.Values, r.value.Float64)
		}
	}
	// A commit whose runs all lack the metric (files of an older schema)
	// has no point.
	return slices.DeleteFunc(out, func(p series.Point) bool { return len(p.Values) == 0 && p.Failed == 0 }), nil
}

// storedCommit is a commit with what orders it in a series.
type storedCommit struct {
	series.Commit
	firstFile int64 // the first file added that holds it
}

// compare orders commits in a series: known times first, in time order;
// commits of one time (or of unknown times) in the order they were first
// added.
func (c *storedCommit) compare(d *storedCommit) int {
	return cmp.Or(cmpBool(c.Time.IsZero(), d.Time.IsZero()), c.Time.Compare(d.Time),
		cmp.Compare(c.firstFile, d.firstFile), cmp.Compare(c.Hash, d.Hash))
}

// readCommits fills in the commits of the given ids.
func (s *Store) readCommits(ctx context.Context, commits map[int64]*storedCommit) error {
	ids := make([]int64, 0, len(commits))
	for id := range commits {
		ids = append(ids, id)
	}
	// One parameter, a JSON array, whatever the number of commits.
	rows, err := s.db.QueryContext(ctx, `SELECT id, hash, time_unix, branch, first_file FROM commits
		WHERE id IN (SELECT value FROM json_each(?))`, jsonText(ids))
	if err != nil {
		return s.wrap(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var c storedCommit
		var unix sql.NullInt64
		if err := rows.Scan(&id, &c.Hash, &unix, &c.Branch, &c.firstFile); err != nil {
			return s.wrap(err)
		}
		c.Commit = commitOf(c.Hash, unix, c.Branch)
		*commits[id] = c
	}
	return s.wrap(rows.Err())
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// readCommit reads a stored commit.
func readCommit(ctx context.Context, q querier, id int64) (series.Commit, error) {
	var unix sql.NullInt64
	var hash, branch string
	if err := q.QueryRowContext(ctx, "SELECT hash, time_unix, branch FROM commits WHERE id = ?", id).Scan(&hash, &unix, &branch); err != nil {
		return series.Commit{}, err
	}
	return commitOf(hash, unix, branch), nil
}

func commitOf(hash string, unix sql.NullInt64, branch string) series.Commit {
	c := series.Commit{Hash: hash, Branch: branch}
	if unix.Valid {
		c.Time = time.Unix(unix.Int64, 0).UTC()
	}
	return c
}
