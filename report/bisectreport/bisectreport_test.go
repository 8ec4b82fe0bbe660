package bisectreport

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rootbench/rootbench/internal/bisect"
	"github.com/rootbench/rootbench/internal/gitrev"
)

// TestStepLineFits: a step's first line fits 80 columns whatever its name
// ("2/5 confirm, retry" is longer than the usual column of 13).
func TestStepLineFits(t *testing.T) {
	t.Parallel()
	c := gitrev.Commit{Hash: strings.Repeat("a", 40), Short: "aaaaaaa", Subject: strings.Repeat("a long subject ", 10)}
	for _, s := range []bisect.Step{
		{Number: 3, Planned: 9, Attempt: 1, Kind: bisect.Search, Commit: c},
		{Number: 2, Planned: 5, Attempt: 2, Kind: bisect.Confirm, Commit: c},
		{Number: 12, Planned: 12, Attempt: 3, Kind: bisect.Recheck, Commit: c},
	} {
		first, _, _ := strings.Cut(StepLine(s, bisect.Outcome{Verdict: bisect.Good, Detail: "d"}), "\n")
		if n := utf8.RuneCountInString(first); n > 80 {
			t.Errorf("%d columns: %q", n, first)
		}
	}
}

// The Markdown comment: one table row per step, a subject's pipe escaped
// so that it stays in its cell, an error in place of the verdict, the
// result in bold on one line, and the changes last.
func TestMarkdown(t *testing.T) {
	t.Parallel()
	good := gitrev.Commit{Hash: strings.Repeat("0", 40), Short: "0000000", Subject: "good"}
	bad := gitrev.Commit{Hash: strings.Repeat("b", 40), Short: "bbbbbbb", Subject: "a | b"}
	culprit := gitrev.Commit{Hash: strings.Repeat("c", 40), Short: "ccccccc", Subject: "the slowdown"}
	res := bisect.Result{
		Status: bisect.Found, Culprit: &culprit, Parent: &good, Good: good, Bad: bad, Planned: 4, Alpha: 0.05, Spent: 0.02,
		Steps: []bisect.StepRecord{
			{Step: bisect.Step{Number: 1, Planned: 4, Attempt: 1, Kind: bisect.Confirm, Commit: bad, Good: good},
				Outcome: bisect.Outcome{Verdict: bisect.Bad, Detail: "ocaml +50.0% | wide"}},
			{Step: bisect.Step{Number: 2, Planned: 4, Attempt: 1, Kind: bisect.Search, Commit: culprit, Good: good},
				Outcome: bisect.Outcome{Err: errors.New("worker crashed")}},
		},
	}
	var b strings.Builder
	if err := Markdown(&b, res, "ccccccc changes files in: x"); err != nil {
		t.Fatal(err)
	}
	// The table's columns are padded: compare with spaces folded.
	out := strings.Join(strings.Fields(b.String()), " ")
	for _, want := range []string{
		"### rootbench bisect: 0000000..bbbbbbb ",
		"| 1/4 confirm | `bbbbbbb` | a \\| b | bad | ocaml +50.0% \\| wide |",
		"| 2/4 | `ccccccc` | the slowdown | error | worker crashed |",
		" **culprit: ccccccc the slowdown (slower than good and than its parent 0000000; 2 step(s); false-alarm levels spent 0.02 of 0.05)** ",
		" ccccccc changes files in: x",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, b.String())
		}
	}
}
