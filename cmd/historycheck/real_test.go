package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/report/historyreport"
)

// realDoc is a history of the two cells: the drop-in rises over a..b and
// falls over c..d; the domain API has one change point over e..f.
func realDoc() historyreport.Document {
	commit := func(h string) historyreport.Commit {
		return historyreport.Commit{Hash: strings.Repeat(h, 40), Short: strings.Repeat(h, 7)}
	}
	var points []historyreport.Point
	for _, h := range []string{"a", "b", "c", "d", "e", "f"} {
		points = append(points, historyreport.Point{Commit: commit(h), Runs: 10})
	}
	params := map[string]string{"niters": "2000", "passes": "1", "warmup-passes": "0"}
	drop := historyreport.Series{ID: 1, Benchmark: dropIn, Metric: "wall", Unit: "ns/cell", Params: params, Points: points,
		ChangePoints: []historyreport.ChangePoint{
			{Number: 1, LastGood: commit("a"), FirstBad: commit("b"), Ratio: 1.7, Lo: 1.6, Hi: 1.8, P: 1e-9},
			{Number: 2, LastGood: commit("c"), FirstBad: commit("d"), Ratio: 0.6, Lo: 0.55, Hi: 0.65, P: 1e-7},
		}}
	dom := historyreport.Series{ID: 2, Benchmark: domain, Metric: "wall", Unit: "ns/cell", Params: params, Points: points,
		ChangePoints: []historyreport.ChangePoint{{Number: 1, LastGood: commit("e"), FirstBad: commit("f"), Ratio: 1.04, Lo: 1.01, Hi: 1.07, P: 1e-3}}}
	return historyreport.Document{Method: "E-divisive", Series: []historyreport.Series{drop, dom}}
}

// The section says whether the drop-in rises in a range that holds the
// known step up and falls in one that holds the step down, and gives each
// change point of the domain API the ab command that judges it across
// layouts at the series' parameters.
func TestRealSection(t *testing.T) {
	t.Parallel()
	holds := func(commit, lastGood, firstBad string) (bool, error) {
		return commit == stepUp && lastGood[0] == 'a' || commit == stepDown && lastGood[0] == 'c', nil
	}
	sec, err := realSection(realDoc(), holds)
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(sec), " ")
	for _, want := range []string{
		"**a rise in a range that holds 3e8f312: yes**, change ↑1 aaaaaaa..bbbbbbb, +70.0% [+60.0%, +80.0%]",
		"**a fall in a range that holds db6e7d7: yes**, change ↓2 ccccccc..ddddddd",
		"`rootbench ab --base-rev eeeeeee --head-rev fffffff --layouts 0,5,9,13 --cell boxroot --niters 2000 --passes 1`",
		"#### boxroot-handle, wall (ns/cell), series 1",
		"#### boxroot, wall (ns/cell), series 2",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the section lacks %q:\n%s", want, sec)
		}
	}
	none := func(string, string, string) (bool, error) { return false, nil }
	sec, _ = realSection(realDoc(), none)
	if !strings.Contains(sec, "**a rise in a range that holds 3e8f312: no**") || !strings.Contains(sec, "**a fall in a range that holds db6e7d7: no**") {
		t.Errorf("ranges that hold neither step:\n%s", sec)
	}
	broken := func(string, string, string) (bool, error) { return false, errors.New("git: bad object") }
	if _, err := realSection(realDoc(), broken); err == nil {
		t.Error("a range git cannot judge was judged")
	}
}

// -real takes Markdown as it is, and refuses a history document that is
// not one.
func TestReadReal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	md := filepath.Join(dir, "real.md")
	os.WriteFile(md, []byte("## Real history\n"), 0o644)
	if sec, err := readReal(md); err != nil || sec != "## Real history\n" {
		t.Errorf("Markdown: %q, %v", sec, err)
	}
	bad := filepath.Join(dir, "real.json")
	os.WriteFile(bad, []byte(`{"schema":"rootbench/v2"}`), 0o644)
	if _, err := readReal(bad); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), historyreport.Schema) {
		t.Errorf("a results file as -real: %v; want a usage error naming %s", err, historyreport.Schema)
	}
}
