// Package historyreport formats a history's series and their change points
// (rootbench history show, report --history): text for a terminal of 80
// columns (Text), Markdown for a job summary or an issue (Markdown), and
// JSON of schema rootbench-history/v1 (WriteJSON, Decode) that carries
// everything the other two show. Every figure in a Document is decided
// elsewhere: the medians' intervals and the change points by analysis
// (analysis.MedianSummary, analysis.ChangePoints), the culprits by a
// recorded bisection; this package decides nothing.
package historyreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"
)

// Schema names the JSON a Document is written as.
const Schema = "rootbench-history/v1"

// Document is what history show prints: the series selected from a store,
// each with its points and change points.
type Document struct {
	Schema string `json:"schema"`
	// Store is the store's path.
	Store string `json:"store"`
	// Since is the revision --since named, when given: the series start at
	// its commit time.
	Since *Commit `json:"since,omitempty"`
	// Method names the change-point method and its levels, in one line.
	Method string   `json:"method"`
	Series []Series `json:"series"`
}

// Series is one history: one metric of one benchmark with one set of
// parameters on one kind of machine, its points in commit order.
type Series struct {
	// ID names the series in the store (history bisect --series).
	ID int64 `json:"id"`
	// Machine is the machine kind's fingerprint, MachineKind its
	// description.
	Machine     string            `json:"machine"`
	MachineKind string            `json:"machine_kind"`
	Workload    string            `json:"workload"`
	Benchmark   string            `json:"benchmark"`
	Params      map[string]string `json:"params"`
	Metric      string            `json:"metric"`
	// Unit is the values' unit ("ns/cell").
	Unit         string        `json:"unit"`
	Points       []Point       `json:"points"`
	ChangePoints []ChangePoint `json:"change_points"`
	// Note says why no change point was sought, when none was (values
	// the method cannot take).
	Note string `json:"note,omitempty"`
}

// Commit is a commit as a series shows it.
type Commit struct {
	Hash  string `json:"hash"`
	Short string `json:"short"`
	// Time is the committer time; nil when unknown.
	Time   *time.Time `json:"time,omitempty"`
	Branch string     `json:"branch,omitempty"`
	// Subject is the first line of its message, when git knows it.
	Subject string `json:"subject,omitempty"`
}

// Point is one commit of a series: the median of its runs' values with
// its interval.
type Point struct {
	Commit
	// Median is the median of the successful runs' values; Lo and Hi its
	// interval at Confidence, nil when there are too few runs for one.
	// All three are absent when every run failed.
	Median     *float64 `json:"median,omitempty"`
	Lo         *float64 `json:"lo,omitempty"`
	Hi         *float64 `json:"hi,omitempty"`
	Confidence float64  `json:"confidence,omitempty"`
	// Runs counts the successful runs, Failed the failed ones.
	Runs   int `json:"runs"`
	Failed int `json:"failed,omitempty"`
	// Change is the number of the change point whose first bad commit
	// this is (1 for the series' first change point); 0 for none.
	Change int `json:"change,omitempty"`
}

// ChangePoint is a change of the series' level, as analysis.ChangePoints
// found it; indices are positions in Series.Points.
type ChangePoint struct {
	// Number counts the series' change points from 1, in commit order.
	Number int `json:"number"`
	// Index is the first point of the new level; LastGood and FirstBad
	// bound the change (it happened after LastGood, at or before
	// FirstBad): the range to bisect.
	Index         int    `json:"index"`
	LastGoodIndex int    `json:"last_good_index"`
	FirstBadIndex int    `json:"first_bad_index"`
	LastGood      Commit `json:"last_good"`
	FirstBad      Commit `json:"first_bad"`
	// From and To are the segments compared: points [From, Index) and
	// [Index, To).
	From int `json:"from"`
	To   int `json:"to"`
	// Before and After are the segments' geometric means, in the series'
	// unit.
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	// Ratio is After/Before with its interval Lo..Hi at Level.
	Ratio float64 `json:"ratio"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Level float64 `json:"level"`
	// P is the p-value of the split.
	P float64 `json:"p"`
	// Bisections are the bisections recorded over this range (history
	// bisect), oldest first.
	Bisections []Bisection `json:"bisections,omitempty"`
}

// Up reports whether the level rose: a slowdown for a time or a cost.
func (c ChangePoint) Up() bool { return c.Ratio > 1 }

// Bisection is a recorded bisection of a change point's range.
type Bisection struct {
	Good    string `json:"good"`
	Bad     string `json:"bad"`
	Outcome string `json:"outcome"`
	// Culprit is the commit it named; nil for none.
	Culprit *Commit   `json:"culprit,omitempty"`
	Detail  string    `json:"detail,omitempty"`
	At      time.Time `json:"at"`
}

// Culprit is the culprit the change point's last bisection named, if any.
func (c ChangePoint) Culprit() *Commit {
	if n := len(c.Bisections); n > 0 {
		return c.Bisections[n-1].Culprit
	}
	return nil
}

// Finite is v as a JSON number, nil when v is not finite (an unbounded
// interval).
func Finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// WriteJSON writes d as indented JSON, its schema set.
func WriteJSON(w io.Writer, d Document) error {
	d.Schema = Schema
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		return fmt.Errorf("history: write JSON: %w", err)
	}
	return nil
}

// Decode reads a Document written by WriteJSON; another schema, or fields
// it does not know, are refused in one line naming name.
func Decode(data []byte, name string) (Document, error) {
	var head struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return Document{}, fmt.Errorf("%s: not a history document (rootbench history show --format json): %v", name, err)
	}
	if head.Schema != Schema {
		return Document{}, fmt.Errorf("%s: schema %q; accepted: %s (rootbench history show --format json)", name, head.Schema, Schema)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var d Document
	if err := dec.Decode(&d); err != nil {
		return Document{}, fmt.Errorf("%s: %v", name, err)
	}
	return d, nil
}
