package exitstatus

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite README.md's exit-status table from Table")

const (
	readme     = "../README.md"
	beginMark  = "<!-- exit-statuses:begin"
	endMark    = "<!-- exit-statuses:end -->"
	headerLine = " (rendered from package exitstatus; go test ./exitstatus -update) -->\n"
)

// TestReadmeTable checks that README.md's exit-status table is Table's
// rendering; -update rewrites it.
func TestReadmeTable(t *testing.T) {
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatalf("reading %s: %v", readme, err)
	}
	s := string(b)
	i := strings.Index(s, beginMark)
	j := strings.Index(s, endMark)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q block", readme, beginMark, endMark)
	}
	want := beginMark + headerLine + Markdown()
	if got := s[i:j]; got != want {
		if !*update {
			t.Fatalf("README.md's exit-status table differs from exitstatus.Table; run go test ./exitstatus -update\ngot:\n%s\nwant:\n%s", got, want)
		}
		if err := os.WriteFile(readme, []byte(s[:i]+want+s[j:]), 0o644); err != nil {
			t.Fatalf("rewriting %s: %v", readme, err)
		}
	}
}

// TestTableCoversEveryCode checks that each status constant has exactly one row.
func TestTableCoversEveryCode(t *testing.T) {
	seen := map[int]int{}
	for _, s := range Table {
		for _, c := range s.Codes {
			seen[c]++
		}
	}
	for _, c := range []int{Success, Failed, Usage, Inconclusive, Interrupted, Terminated} {
		if seen[c] != 1 {
			t.Errorf("status %d appears in %d rows of Table, want 1", c, seen[c])
		}
	}
}

// TestTextListsEveryRow checks the help rendering names every code.
func TestTextListsEveryRow(t *testing.T) {
	txt := Text()
	for _, c := range []string{"0", "1", "2", "3", "130 / 143"} {
		if !strings.Contains(txt, "  "+c+" ") {
			t.Errorf("Text() has no row for %s:\n%s", c, txt)
		}
	}
	for _, line := range strings.Split(txt, "\n") {
		if len(line) > helpWidth {
			t.Errorf("Text() line over %d columns: %q", helpWidth, line)
		}
	}
	if strings.Contains(txt, "`") {
		t.Errorf("Text() keeps Markdown backquotes:\n%s", txt)
	}
}
