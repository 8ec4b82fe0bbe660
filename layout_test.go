package rootbench_test

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

const modulePath = "github.com/rootbench/rootbench"

// layoutRows reads the folders of docs/DESIGN.md's layout table, in order:
// "" for the top folder, "impls/*" for `impls/<name>/`, others without
// their trailing slash.
func layoutRows(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("docs/DESIGN.md")
	if err != nil {
		t.Fatalf("reading the layout table: %v", err)
	}
	defer f.Close()
	first := regexp.MustCompile("^\\| `([^`]+)`")
	var rows []string
	in := false
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "| folder | job |"):
			in = true
		case in && !strings.HasPrefix(line, "|"):
			return rows
		case in:
			m := first.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			row := strings.TrimSuffix(m[1], "/")
			switch {
			case row == "rootbench":
				row = ""
			case strings.HasSuffix(row, "/<name>"):
				row = strings.TrimSuffix(row, "<name>") + "*"
			}
			rows = append(rows, row)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading the layout table: %v", err)
	}
	return rows
}

// rowOf is the index of the row that holds package dir (relative to the
// module): the longest matching folder, "impls/*" matching any folder
// directly under impls/; -1 when none does.
func rowOf(rows []string, dir string) int {
	best, bestLen := -1, -1
	for i, r := range rows {
		var ok bool
		switch {
		case r == "":
			ok = dir == ""
		case strings.HasSuffix(r, "/*"):
			parent := strings.TrimSuffix(r, "*")
			rest, found := strings.CutPrefix(dir, parent)
			ok = found && rest != ""
			if ok {
				rest, _, _ = strings.Cut(rest, "/")
				r = parent + rest
			}
		default:
			ok = dir == r || strings.HasPrefix(dir, r+"/")
		}
		if ok && len(r) > bestLen {
			best, bestLen = i, len(r)
		}
	}
	return best
}

// TestLayoutImportsPointDown checks docs/DESIGN.md's layout table against
// the code: every package has a row, and every import of a project package
// (tests' imports aside) points at its own row or one further down.
func TestLayoutImportsPointDown(t *testing.T) {
	t.Parallel()
	rows := layoutRows(t)
	if len(rows) < 10 {
		t.Fatalf("docs/DESIGN.md's layout table has %d rows: %q", len(rows), rows)
	}
	if testing.Short() {
		t.Skip("runs go list over the module: skipped in -short (the full suite runs it; the table is read above)")
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	rel := func(p string) (string, bool) {
		if p == modulePath {
			return "", true
		}
		r, ok := strings.CutPrefix(p, modulePath+"/")
		return r, ok
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		from, _ := rel(fields[0])
		fromRow := rowOf(rows, from)
		if fromRow < 0 {
			t.Errorf("package %q has no row in docs/DESIGN.md's layout table", fields[0])
			continue
		}
		for _, imp := range fields[1:] {
			to, ok := rel(imp)
			if !ok {
				continue
			}
			if toRow := rowOf(rows, to); toRow < fromRow {
				t.Errorf("%s imports %s, which stands above it in docs/DESIGN.md's layout table (row %q above %q)",
					fields[0], imp, rows[max(toRow, 0)], rows[fromRow])
			}
		}
	}
}

// TestLayoutRowOf checks the table's matching rules.
func TestLayoutRowOf(t *testing.T) {
	t.Parallel()
	rows := []string{"", "internal/cli", "report", "impls", "impls/*", "cell"}
	for dir, want := range map[string]int{
		"": 0, "internal/cli": 1, "internal/cli/clitest": 1, "report/export": 2,
		"impls": 3, "impls/boxroot": 4, "impls/boxroot/sub": 4, "cell/celltest": 5, "nowhere": -1,
	} {
		if got := rowOf(rows, dir); got != want {
			t.Errorf("rowOf(%q) = %d, want %d", dir, got, want)
		}
	}
}
