package history

import (
	"context"
	"fmt"
	"time"
)

// Bisection is one bisection of a series' change point (rootbench history
// bisect): the range it searched, how it ended and the culprit it named.
type Bisection struct {
	// SeriesID is the series whose change point it bisected (Series.ID).
	SeriesID int64
	// Good and Bad are the full hashes of the range: the change point's
	// last good and first bad commits.
	Good, Bad string
	// Outcome is how the bisection ended, in bisect's words ("found", "no
	// regression", "ambiguous", ...).
	Outcome string
	// Culprit is the full hash of the commit it named; "" when it named
	// none ("no single culprit").
	Culprit string
	// Detail is its result line, as it printed it.
	Detail string
	// At is when it ended.
	At time.Time
}

// AddBisection records b in one transaction. Its series must exist.
func (s *Store) AddBisection(ctx context.Context, b Bisection) error {
	if b.Good == "" || b.Bad == "" || b.Outcome == "" {
		return fmt.Errorf("history store %s: a bisection needs its range and outcome", s.path)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO bisections (series_id, good, bad, outcome, culprit, detail, at_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, b.SeriesID, b.Good, b.Bad, b.Outcome, b.Culprit, b.Detail, unixNano(b.At))
	return s.wrap(err)
}

// Bisections lists the bisections recorded for a series, oldest first.
func (s *Store) Bisections(ctx context.Context, seriesID int64) ([]Bisection, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT series_id, good, bad, outcome, culprit, detail, at_ns
		FROM bisections WHERE series_id = ? ORDER BY at_ns, id`, seriesID)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer rows.Close()
	var out []Bisection
	for rows.Next() {
		var b Bisection
		var at int64
		if err := rows.Scan(&b.SeriesID, &b.Good, &b.Bad, &b.Outcome, &b.Culprit, &b.Detail, &at); err != nil {
			return nil, s.wrap(err)
		}
		b.At = time.Unix(0, at).UTC()
		out = append(out, b)
	}
	return out, s.wrap(rows.Err())
}
