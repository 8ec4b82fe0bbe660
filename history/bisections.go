package history

import (
	"context"
	"fmt"
	"time"

	"github.com/rootbench/rootbench/history/series"
)

// AddBisection records b in one transaction. Its series must exist.
func (s *Store) AddBisection(ctx context.Context, b series.Bisection) error {
	if b.Good == "" || b.Bad == "" || b.Outcome == "" {
		return fmt.Errorf("history store %s: a bisection needs its range and outcome", s.path)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO bisections (series_id, good, bad, outcome, culprit, detail, at_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, b.SeriesID, b.Good, b.Bad, b.Outcome, b.Culprit, b.Detail, unixNano(b.At))
	return s.wrap(err)
}

// Bisections lists the bisections recorded for a series, oldest first.
func (s *Store) Bisections(ctx context.Context, seriesID int64) ([]series.Bisection, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT series_id, good, bad, outcome, culprit, detail, at_ns
		FROM bisections WHERE series_id = ? ORDER BY at_ns, id`, seriesID)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer rows.Close()
	var out []series.Bisection
	for rows.Next() {
		var b series.Bisection
		var at int64
		if err := rows.Scan(&b.SeriesID, &b.Good, &b.Bad, &b.Outcome, &b.Culprit, &b.Detail, &at); err != nil {
			return nil, s.wrap(err)
		}
		b.At = time.Unix(0, at).UTC()
		out = append(out, b)
	}
	return out, s.wrap(rows.Err())
}
