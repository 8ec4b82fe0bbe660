package historyreport

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// fixture is a document of one series of eight commits with a step up at
// the fifth (bisected, culprit named) and a step down at the seventh, and
// a second series without change points.
func fixture() Document {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	commit := func(i int) Commit {
		t := day.Add(time.Duration(i) * 24 * time.Hour)
		return Commit{Hash: strings.Repeat(fmt.Sprint(i), 40), Short: strings.Repeat(fmt.Sprint(i), 7), Time: &t, Branch: "main",
			Subject: fmt.Sprintf("change %d: %s", i, strings.Repeat("a rather long subject ", 4))}
	}
	s := Series{ID: 12, Machine: "3f2a9c1b7d2e", MachineKind: "AMD EPYC 7B13, 2 CPUs, GOMAXPROCS 2, linux/amd64, 8 GiB",
		Workload: "msgpass", Benchmark: "boxroot-handle", Metric: "wall", Unit: "ns/cell",
		Params: map[string]string{"batch-size": "1024", "consumers": "1", "max-delay": "128", "max-outstanding": "0", "niters": "2000",
			"passes": "3", "payload": "static", "producers": "1", "queue": "shared", "scheduler": "parallel"}}
	for i := range 8 {
		v := 10.0
		if i >= 4 {
			v = 17
		}
		if i >= 6 {
			v = 11
		}
		lo, hi := v*0.98, v*1.02
		s.Points = append(s.Points, Point{Commit: commit(i), Median: &v, Lo: &lo, Hi: &hi, Confidence: 0.96, Runs: 10})
	}
	s.Points[2].Lo, s.Points[2].Hi, s.Points[2].Runs, s.Points[2].Failed = nil, nil, 3, 2
	s.Points[4].Change, s.Points[6].Change = 1, 2
	culprit := commit(4)
	s.ChangePoints = []ChangePoint{
		{Number: 1, Index: 4, LastGoodIndex: 3, FirstBadIndex: 4, LastGood: commit(3), FirstBad: commit(4), From: 0, To: 6,
			Before: 10, After: 17, Ratio: 1.7, Lo: 1.6, Hi: 1.8, Level: 0.997, P: 1.2e-9,
			Bisections: []Bisection{{Good: commit(3).Hash, Bad: commit(4).Hash, Outcome: "found", Culprit: &culprit, At: day}}},
		{Number: 2, Index: 6, LastGoodIndex: 5, FirstBadIndex: 6, LastGood: commit(5), FirstBad: commit(6), From: 4, To: 8,
			Before: 17, After: 11, Ratio: 11.0 / 17, Lo: 0.6, Hi: 0.7, Level: 0.997, P: 3e-6},
	}
	flat := s
	flat.ID, flat.Benchmark, flat.ChangePoints = 13, "boxroot", nil
	flat.Points = append([]Point(nil), s.Points...)
	for i := range flat.Points {
		flat.Points[i].Change = 0
	}
	return Document{Store: "/tmp/h.db", Method: "E-divisive means with a t-test at 0.003", Series: []Series{s, flat}}
}

// The text fits 80 columns, marks each change point on its first bad
// commit's row, lists each with its range, magnitude, interval and
// p-value, and names the culprit or the command that bisects it.
func TestText(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	if err := Text(&b, fixture()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for i, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > Width {
			t.Errorf("line %d has %d columns:\n%s", i+1, n, line)
		}
	}
	t.Logf("\n%s", out)
	for _, want := range []string{
		"boxroot-handle, wall (ns/cell), series 12: 8 commits, 2 change points",
		"machine 3f2a9c1b7d2e: AMD EPYC 7B13",
		"↑1  4444444  2026-12-05",
		"↓2  6666666  2026-12-07",
		"↑1 3333333..4444444: +70.0% [+60.0%, +80.0%], p 1.2e-09; 10.00 → 17.00 ns/cell",
		"culprit: 4444444 change 4: a rather long",
		"bisect: rootbench history bisect --series 12 --change 2",
		"3 +2 failed",
		"boxroot, wall (ns/cell), series 13: 8 commits, 0 change points",
		"change points: E-divisive means",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the text lacks %q", want)
		}
	}
}

// Markdown: a change table per series (the culprit in it) and the
// commits in a collapsed table; a series without change points says so.
func TestMarkdown(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	if err := Markdown(&b, fixture(), 3); err != nil {
		t.Fatal(err)
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	for _, want := range []string{
		"### boxroot-handle, wall (ns/cell), series 12: 8 commits, 2 change points",
		"| ↑1 | `3333333..4444444` | +70.0% | [+60.0%, +80.0%] | 1.2e-09 | 10.00 → 17.00 ns/cell | culprit: 4444444 change 4:",
		"| ↓2 | `5555555..6666666` | -35.3% |",
		"<details><summary>8 commits</summary>",
		"| ↑1 | `4444444` | 2026-12-05 | 17.00 | [16.66, 17.34] | 10 |",
		"No change point in 8 commits.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, b.String())
		}
	}
}

// JSON carries the whole document under its schema, and Decode reads it
// back; another schema or an unknown field is refused in one line.
func TestJSONRoundTrip(t *testing.T) {
	t.Parallel()
	d := fixture()
	var b bytes.Buffer
	if err := WriteJSON(&b, d); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b.Bytes(), "h.json")
	if err != nil {
		t.Fatal(err)
	}
	if got.Schema != Schema || len(got.Series) != 2 || got.Series[0].ChangePoints[0].Culprit().Hash != d.Series[0].Points[4].Hash ||
		got.Series[0].Points[2].Lo != nil || *got.Series[0].Points[1].Median != 10 {
		t.Errorf("round trip lost something: %+v", got.Series[0])
	}
	for _, bad := range []string{`{"schema":"rootbench-history/v9"}`, `{"schema":"` + Schema + `","extra":1}`, `not json`} {
		if _, err := Decode([]byte(bad), "x.json"); err == nil || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "x.json: ") {
			t.Errorf("Decode(%s): %v; want one line naming x.json", bad, err)
		}
	}
}
