package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// StoredFile is a file the store holds.
type StoredFile struct {
	ID      int64
	Name    string // as it was given to Add
	Schema  string
	Hash    string // SHA-256 of its content (Source.Hash)
	AddedAt time.Time
	// Runs counts its runs over every side, failed and repeated ones
	// included: a file is stored whole or not at all, so this is the
	// number of runs the file holds.
	Runs int
}

// Files lists the stored files in the order they were added.
func (s *Store) Files(ctx context.Context) ([]StoredFile, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT f.id, f.name, f.schema, f.content_sha256, f.added_at_ns, coalesce(n.runs, 0)
		FROM files f LEFT JOIN (SELECT m.file_id, count(*) AS runs FROM runs r JOIN measurements m ON m.id = r.measurement_id
			GROUP BY m.file_id) n ON n.file_id = f.id
		ORDER BY f.id`)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer rows.Close()
	var out []StoredFile
	for rows.Next() {
		var f StoredFile
		var added int64
		if err := rows.Scan(&f.ID, &f.Name, &f.Schema, &f.Hash, &added, &f.Runs); err != nil {
			return nil, s.wrap(err)
		}
		f.AddedAt = time.Unix(0, added).UTC()
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(err)
	}
	return out, nil
}

// Check verifies the store's file: SQLite's integrity check (every page,
// index and constraint) and its foreign keys. It reports the first
// problems found as one error.
func (s *Store) Check(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return s.wrap(err)
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return s.wrap(err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return s.wrap(err)
	}
	var table string
	switch err := s.db.QueryRowContext(ctx, "SELECT \"table\" FROM pragma_foreign_key_check LIMIT 1").Scan(&table); {
	case err == nil:
		problems = append(problems, "a row of "+table+" refers to a row that does not exist")
	case !errors.Is(err, sql.ErrNoRows):
		return s.wrap(err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("history store %s is damaged: %s", s.path, strings.Join(problems, "; "))
	}
	return nil
}
