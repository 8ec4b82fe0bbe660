package history

import (
	"cmp"
	"context"
	"slices"
	"time"
)

// What a backfill (rootbench history backfill) asks of the store: which
// commits are measured already under its plan, and which it skipped
// before, so that a backfill started again resumes where it stopped.

// Config is one benchmark of a plan: its cell (or callback variant) and
// every parameter, as its results carry them.
type Config struct {
	Benchmark string
	Params    map[string]string
}

// Plan is what a backfill measures on one kind of machine: a workload and
// its benchmarks.
type Plan struct {
	// Machine is the machine kind's fingerprint (series.MachineKind.Fingerprint).
	Machine  string
	Workload string
	Configs  []Config
}

// key is the plan without its machine as one text: the workload and the
// benchmarks in order of name, each with its canonical parameters.
func (p Plan) key() string {
	type cfg struct {
		B string `json:"benchmark"`
		P string `json:"params"`
	}
	cs := make([]cfg, len(p.Configs))
	for i, c := range p.Configs {
		cs[i] = cfg{c.Benchmark, canonicalParams(c.Params)}
	}
	slices.SortFunc(cs, func(a, b cfg) int { return cmp.Or(cmp.Compare(a.B, b.B), cmp.Compare(a.P, b.P)) })
	return jsonText(struct {
		W string `json:"workload"`
		C []cfg  `json:"configs"`
	}{p.Workload, cs})
}

// MeasuredVisits returns, for each commit (full hash) measured under the
// plan, how many whole measurements hold it: measurements (one side of a
// results file; a backfill's visit to a revision) on the plan's machine
// kind with a successful run of every benchmark of the plan, not partial
// (an interrupted run's file) and not of a build with uncommitted
// changes. A commit measured for some benchmarks only is not in it.
func (s *Store) MeasuredVisits(ctx context.Context, p Plan) (map[string]int, error) {
	type visit struct {
		hash        string
		measurement int64
	}
	var holds map[visit]bool // the visits every config so far has runs in
	for _, c := range p.Configs {
		rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT k.hash, r.measurement_id FROM runs r
			JOIN configs c ON c.id = r.config_id
			JOIN measurements m ON m.id = r.measurement_id
			JOIN commits k ON k.id = r.commit_id
			WHERE c.machine = ? AND c.workload = ? AND c.params = ? AND c.benchmark = ? AND m.partial = 0 AND m.modified = 0 AND r.failed = 0`,
			p.Machine, p.Workload, canonicalParams(c.Params), c.Benchmark)
		if err != nil {
			return nil, s.wrap(err)
		}
		these := map[visit]bool{}
		for rows.Next() {
			var v visit
			if err := rows.Scan(&v.hash, &v.measurement); err != nil {
				rows.Close()
				return nil, s.wrap(err)
			}
			if holds == nil || holds[v] {
				these[v] = true
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, s.wrap(err)
		}
		holds = these
	}
	out := map[string]int{}
	for v := range holds {
		out[v.hash]++
	}
	return out, nil
}

// RecordSkip records that a backfill under p could not measure commit
// (hash), and why: the reason replaces one recorded before.
func (s *Store) RecordSkip(ctx context.Context, hash string, p Plan, reason string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO backfill_skips (hash, machine, plan, reason, at_ns) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (hash, machine, plan) DO UPDATE SET reason = excluded.reason, at_ns = excluded.at_ns`,
		hash, p.Machine, p.key(), reason, time.Now().UnixNano())
	return s.wrap(err)
}

// ForgetSkip removes the record that commit was skipped under p (a retry
// measured it).
func (s *Store) ForgetSkip(ctx context.Context, hash string, p Plan) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM backfill_skips WHERE hash = ? AND machine = ? AND plan = ?", hash, p.Machine, p.key())
	return s.wrap(err)
}

// Skipped returns the commits recorded as skipped under p, each with its
// reason.
func (s *Store) Skipped(ctx context.Context, p Plan) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT hash, reason FROM backfill_skips WHERE machine = ? AND plan = ?", p.Machine, p.key())
	if err != nil {
		return nil, s.wrap(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var h, reason string
		if err := rows.Scan(&h, &reason); err != nil {
			return nil, s.wrap(err)
		}
		out[h] = reason
	}
	return out, s.wrap(rows.Err())
}
