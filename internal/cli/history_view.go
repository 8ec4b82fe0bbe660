package cli

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/history/series"
	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/parse"
	"github.com/rootbench/rootbench/report/historyreport"
)

// defaultHistoryMetrics are the metrics history show and report --history
// read unless --metric says otherwise: the two every comparison judges.
const defaultHistoryMetrics = "wall,cpu"

// historyQuery is what selects the series a history command reads: the
// flags --cell, --metric, --since, --repo and --all-commits.
type historyQuery struct {
	cells, metrics, since, repo string
	// allCommits keeps every stored commit, in commit-time order, rather
	// than HEAD's first-parent line (see historyView.line).
	allCommits bool
}

// register adds the query's flags to f.
func (q *historyQuery) register(f *pflag.FlagSet) {
	f.StringVar(&q.cells, "cell", "", "comma-separated cells (or callback variants) whose series to read (default: every one)")
	f.StringVar(&q.metrics, "metric", defaultHistoryMetrics, "comma-separated metrics: "+strings.Join(history.MetricNames(), ", "))
	f.StringVar(&q.since, "since", "", "start each series at this revision's commit time (a hash, branch, tag or other revision of --repo, or a stored commit's hash prefix)")
	f.StringVar(&q.repo, "repo", ".", "the git repository that names revisions, orders commits and gives their subjects (any directory inside it; optional)")
	f.BoolVar(&q.allCommits, "all-commits", false, "every stored commit in commit-time order, side branches interleaved, instead of only the commits on HEAD's first-parent line in its order")
}

// historyView is a query checked against the store: the filter, and the
// commit --since names.
type historyView struct {
	filter history.Filter
	since  *series.Commit
	repo   *gitrev.Repo // nil outside a repository
	// line is HEAD's first-parent line, each commit's hash to its place
	// (oldest 0), when the repository is known and --all-commits is not
	// given: a series is then read along it, which is linear history (each
	// merge stands for the branch it brought in, so a step on a side
	// branch shows at its merge, and last good..first bad is a git range
	// that holds it), and commits off the line are left out. nil: every
	// commit, in commit-time order, as for a series none of whose commits
	// is on the line.
	line map[string]int
}

// resolve checks the query against s: cells and metrics as lists, metrics
// known, --since a revision the repository or the store knows. Every
// error is one line for a usage error.
func (q *historyQuery) resolve(ctx context.Context, s *history.Store) (*historyView, error) {
	v := &historyView{}
	if q.cells != "" {
		cells, err := parse.List(q.cells)
		if err != nil {
			return nil, fmt.Errorf("--cell: %w", err)
		}
		v.filter.Benchmarks = cells
	}
	metrics, err := parse.List(q.metrics)
	if err != nil {
		return nil, fmt.Errorf("--metric: %w", err)
	}
	for _, m := range metrics {
		if _, ok := history.MetricNamed(m); !ok {
			return nil, fmt.Errorf("--metric %s: unknown metric; accepted: %s", m, strings.Join(history.MetricNames(), ", "))
		}
	}
	v.filter.Metrics = metrics
	if repo, err := gitrev.Open(q.repo); err == nil {
		v.repo = repo
	} else if q.repo != "." {
		return nil, fmt.Errorf("--repo: %w", err)
	}
	if v.repo != nil && !q.allCommits {
		head, err := v.repo.Head(ctx)
		if err != nil {
			return nil, fmt.Errorf("HEAD's first-parent line (--all-commits reads every commit without it): %w", err)
		}
		hashes, err := v.repo.FirstParents(ctx, head)
		if err != nil {
			return nil, fmt.Errorf("HEAD's first-parent line (--all-commits reads every commit without it): %w", err)
		}
		v.line = make(map[string]int, len(hashes))
		for i, h := range hashes {
			v.line[h] = i
		}
	}
	if q.since != "" {
		c, err := v.sinceCommit(ctx, s, q.since)
		if err != nil {
			return nil, err
		}
		v.since = &c
	}
	return v, nil
}

// sinceCommit is the commit rev names: in the repository (its committer
// time from git), else a stored commit whose hash starts with rev.
func (v *historyView) sinceCommit(ctx context.Context, s *history.Store, rev string) (series.Commit, error) {
	where := "the store"
	if v.repo != nil {
		where = "the repository at " + v.repo.Dir + " nor of the store"
		if c, err := v.repo.Resolve(ctx, rev); err == nil {
			t, err := v.repo.CommitTime(ctx, c)
			if err != nil {
				return series.Commit{}, fmt.Errorf("--since %s: %w", rev, err)
			}
			return series.Commit{Hash: c.Hash, Time: t}, nil
		} else if !errors.Is(err, gitrev.ErrUnknownRevision) {
			return series.Commit{}, fmt.Errorf("--since %s: %w", rev, err)
		}
	}
	c, found, err := s.FindCommit(ctx, rev)
	switch {
	case err != nil:
		return series.Commit{}, fmt.Errorf("--since %s: %w", rev, err)
	case !found:
		return series.Commit{}, fmt.Errorf("--since %s: unknown revision: not a commit of %s (accepted: a hash, branch, tag or other revision)", rev, where)
	}
	return c, nil
}

// onLine is the points on the view's first-parent line, in its order. A
// series none of whose commits is on the line (no line, or a store of
// another repository's commits) is read as stored, in commit-time order.
func (v *historyView) onLine(points []series.Point) []series.Point {
	if !slices.ContainsFunc(points, func(p series.Point) bool { _, ok := v.line[p.Commit.Hash]; return ok }) {
		return points
	}
	points = slices.DeleteFunc(points, func(p series.Point) bool {
		_, ok := v.line[p.Commit.Hash]
		return !ok
	})
	slices.SortStableFunc(points, func(a, b series.Point) int { return v.line[a.Commit.Hash] - v.line[b.Commit.Hash] })
	return points
}

// from is the points at or after --since: by commit time when --since
// has one (points of unknown time are kept: they sort last), else from
// --since's own commit on (none when the series lacks it).
func (v *historyView) from(points []series.Point) []series.Point {
	if v.since == nil {
		return points
	}
	if !v.since.Time.IsZero() {
		return slices.DeleteFunc(points, func(p series.Point) bool {
			return !p.Commit.Time.IsZero() && p.Commit.Time.Before(v.since.Time)
		})
	}
	if i := slices.IndexFunc(points, func(p series.Point) bool { return p.Commit.Hash == v.since.Hash }); i >= 0 {
		return points[i:]
	}
	return nil
}

// document reads every series the view selects, with what analysis finds
// in each: each point's median and interval (analysis.MedianSummary) and
// the change points (analysis.ChangePoints at its defaults) over the
// points from --since on; the bisections recorded; the subjects git knows.
// A series with no point from --since on is left out.
func (v *historyView) document(ctx context.Context, s *history.Store) (historyreport.Document, error) {
	doc := historyreport.Document{Store: s.Path(), Method: historyreport.MethodText(analysis.DefaultChangePointStrictLevel)}
	if v.since != nil {
		c := historyreport.Commit{Hash: v.since.Hash, Short: v.since.Short()}
		if !v.since.Time.IsZero() {
			t := v.since.Time
			c.Time = &t
		}
		doc.Since = &c
	}
	all, err := s.Series(ctx, v.filter)
	if err != nil {
		return doc, err
	}
	type read struct {
		x          series.Series
		points     []series.Point
		found      historyreport.Found
		bisections []series.Bisection
	}
	var reads []read
	var hashes []string
	for _, x := range all {
		points, err := s.Points(ctx, x)
		if err != nil {
			return doc, err
		}
		if points = v.from(v.onLine(points)); len(points) == 0 {
			continue
		}
		found, err := analyse(points)
		if err != nil {
			return doc, fmt.Errorf("series %d (%s %s): %w", x.ID, x.Benchmark, x.Metric, err)
		}
		bisections, err := s.Bisections(ctx, x.ID)
		if err != nil {
			return doc, err
		}
		for _, p := range points {
			hashes = append(hashes, p.Commit.Hash)
		}
		for _, b := range bisections {
			hashes = append(hashes, b.Culprit)
		}
		reads = append(reads, read{x, points, found, bisections})
	}
	subjects := map[string]string{}
	if v.repo != nil && len(hashes) > 0 {
		slices.Sort(hashes)
		if subjects, err = v.repo.Subjects(ctx, slices.Compact(hashes)); err != nil {
			return doc, err
		}
	}
	for _, r := range reads {
		doc.Series = append(doc.Series, historyreport.SeriesOf(r.x, r.points, r.found, r.bisections, subjects))
	}
	return doc, nil
}

// analyse asks analysis what a series' points show: each point's median
// with its interval, and the change points over the points that have
// values (a commit whose runs all failed has none). The method compares
// log values: a series with a value of zero (a load of 0, no allocation)
// gets a note instead of change points.
func analyse(points []series.Point) (historyreport.Found, error) {
	found := historyreport.Found{Medians: make([]analysis.Summary, len(points)), Level: 1 - analysis.DefaultChangePointStrictLevel}
	var sp []analysis.SeriesPoint
	for i, p := range points {
		if len(p.Values) == 0 {
			continue
		}
		found.Medians[i] = analysis.MedianSummary(p.Values)
		sp = append(sp, analysis.SeriesPoint{Values: p.Values})
		if found.Note == "" && slices.ContainsFunc(p.Values, func(v float64) bool { return !(v > 0) || math.IsInf(v, 1) }) {
			found.Note = fmt.Sprintf("No change point sought: %s has a value of zero (the method compares log values).", p.Commit.Short())
		}
	}
	if found.Note != "" {
		return found, nil
	}
	var err error
	found.ChangePoints, err = analysis.ChangePoints(sp, analysis.ChangePointOptions{})
	return found, err
}

// readHistory reads the series q selects from the store at path (it must
// exist), with what analysis finds in them; a store that cannot be opened
// or a query it refuses is a one-line usage error.
func readHistory(ctx context.Context, path string, q historyQuery) (historyreport.Document, error) {
	s, err := history.Open(ctx, path, history.Options{MustExist: true})
	if err != nil {
		return historyreport.Document{}, usageError(err)
	}
	defer s.Close()
	v, err := q.resolve(ctx, s)
	if err != nil {
		return historyreport.Document{}, usageError(err)
	}
	return v.document(ctx, s)
}
