package report

import (
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/tw"
)

func TestMarkdownTableEscapesAndAligns(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	err := MarkdownTable(&b, []string{"Configuration", "ns/cell"},
		[][]string{{MdEscape("a|b"), "1.5"}, {"long configuration name", "12.25"}}, []tw.Align{tw.AlignLeft, tw.AlignRight})
	if err != nil {
		t.Fatal(err)
	}
	got := b.String()
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[1], "|:-") || !strings.HasSuffix(lines[1], "-:|") {
		t.Fatalf("table:\n%s\nwant a header, an alignment row (left, right) and two rows", got)
	}
	if !strings.Contains(lines[2], `a\|b`) {
		t.Errorf("row %q: the label's | is not escaped", lines[2])
	}
	for _, l := range lines[1:] {
		if len(l) != len(lines[0]) {
			t.Errorf("rows of unequal width: %q and %q", lines[0], l)
		}
	}
}

func TestFourDigits(t *testing.T) {
	t.Parallel()
	for v, want := range map[float64]string{14063.4: "14063", 187.94: "187.9", 10.254: "10.25", 7.51: "7.510", 0: "0.000"} {
		if got := FourDigits(v); got != want {
			t.Errorf("FourDigits(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestJoinNonEmpty(t *testing.T) {
	t.Parallel()
	if got := JoinNonEmpty(", ", "", "a", "", "b", ""); got != "a, b" {
		t.Errorf("JoinNonEmpty = %q, want \"a, b\"", got)
	}
	if got := JoinNonEmpty("/"); got != "" {
		t.Errorf("JoinNonEmpty of nothing = %q, want \"\"", got)
	}
}
