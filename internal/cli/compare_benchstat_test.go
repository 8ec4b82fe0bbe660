package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"
)

// benchstatDir holds benchstat's own test data (see its README.md).
const benchstatDir = "testdata/benchstat"

// benchstatCells are one row as benchstat prints it: each side's median
// and ±, the delta and the test's "p=... n=...".
type benchstatCells struct {
	base, basePct, head, headPct, delta, test string
}

// compareRowJSON is what the test reads of a row of compare --format json.
type compareRowJSON struct {
	Label  string
	Metric string
	Base   sideJSON
	Head   sideJSON
	P      float64
	Alpha  float64
}

type sideJSON struct {
	Median float64
	Lo, Hi *float64
	N      int
}

func (s sideJSON) summary() benchmath.Summary {
	lo, hi := math.Inf(-1), math.Inf(1)
	if s.Lo != nil {
		lo = *s.Lo
	}
	if s.Hi != nil {
		hi = *s.Hi
	}
	return benchmath.Summary{Center: s.Median, Lo: lo, Hi: hi}
}

// asBenchstat prints a row of ours as benchstat's table prints it: both
// medians on the row's common scale (benchunit), their ± (benchmath), the
// delta and the test.
func (r compareRowJSON) asBenchstat() benchstatCells {
	scale := benchunit.CommonScale([]float64{r.Base.Median, r.Head.Median}, benchunit.ClassOf(r.Metric))
	cmp := benchmath.Comparison{P: r.P, N1: r.Base.N, N2: r.Head.N, Alpha: r.Alpha}
	return benchstatCells{
		base: scale.Format(r.Base.Median), basePct: r.Base.summary().PctRangeString(),
		head: scale.Format(r.Head.Median), headPct: r.Head.summary().PctRangeString(),
		delta: cmp.FormatDelta(r.Base.Median, r.Head.Median), test: cmp.String(),
	}
}

// benchstatTableRow is a row of benchstat's text table: name, each side's
// median ± its range (each perhaps with a footnote), delta, (test).
var benchstatTableRow = regexp.MustCompile(`^(\S+)\s+(\S+) ± (\S+)(?: [¹²³⁴])?\s+(\S+) ± (\S+)(?: [¹²³⁴])?\s+(\S+) \(([^)]*)\)`)

// readBenchstatText reads benchstat's text tables: every row, by unit and
// name (geomean rows left out).
func readBenchstatText(t *testing.T, path string) map[string]benchstatCells {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]benchstatCells{}
	unit := ""
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, "vs base") {
			unit = strings.Fields(strings.TrimLeft(strings.TrimSpace(line), "│"))[0]
			continue
		}
		if m := benchstatTableRow.FindStringSubmatch(line); m != nil && m[1] != "geomean" {
			out[unit+" "+m[1]] = benchstatCells{m[2], m[3], m[4], m[5], m[6], m[7]}
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no row read", path)
	}
	return out
}

// splitByNote splits one of benchstat's single-file inputs (read with -col
// note) into its two sides: what precedes the first "note:" line (Unit
// lines, comments) heads both, then "note: before" and "note: after" each
// go to their side.
func splitByNote(t *testing.T, path, dir string) (base, head string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i, j := strings.Index(text, "note: before"), strings.Index(text, "note: after")
	if i < 0 || j < i {
		t.Fatalf("%s: no note: before ... note: after", path)
	}
	name := strings.TrimSuffix(filepath.Base(path), ".txt")
	base, head = filepath.Join(dir, name+"-before.txt"), filepath.Join(dir, name+"-after.txt")
	for p, body := range map[string]string{base: text[:j], head: text[:i] + text[j:]} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return base, head
}

// compareJSON runs compare --method benchstat --format json and returns
// its rows by metric and label.
func compareJSON(t *testing.T, args ...string) map[string]compareRowJSON {
	t.Helper()
	r := inProcess(t, append([]string{"compare", "--method", "benchstat", "--format", "json"}, args...)...)
	r.Must(t, 0)
	var doc struct{ Rows []compareRowJSON }
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
		t.Fatalf("compare %v: %v\n%s", args, err, r.Stdout)
	}
	out := map[string]compareRowJSON{}
	for _, row := range doc.Rows {
		out[row.Metric+" "+row.Label] = row
	}
	return out
}

// TestCompareMatchesBenchstatTestdata runs compare --method benchstat on
// benchstat's own test data and checks every row against what benchstat
// printed for it: each side's median (at benchstat's precision, or exactly
// where it printed every digit), its ±, the delta and the p-value with the
// runs, on every unit, with the same rows on both.
func TestCompareMatchesBenchstatTestdata(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(benchstatDir, name) }
	cases := []struct {
		name   string
		args   []string
		stdout string
	}{
		{"crc", []string{"--ignore", "note", in("crc-old.txt"), in("crc-new.txt")}, "crcIgnore.stdout"},
	}
	for _, name := range []string{"units", "zero", "smallSample"} {
		base, head := splitByNote(t, in(name+".txt"), dir)
		cases = append(cases, struct {
			name   string
			args   []string
			stdout string
		}{name, []string{"--ignore", "note", base, head}, name + ".stdout"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ours, want := compareJSON(t, c.args...), readBenchstatText(t, in(c.stdout))
			if len(ours) != len(want) {
				t.Errorf("%d rows, benchstat %d", len(ours), len(want))
			}
			for key, w := range want {
				row, ok := ours[key]
				if !ok {
					t.Errorf("%s: no such row in compare's output", key)
					continue
				}
				if got := row.asBenchstat(); got != w {
					t.Errorf("%s: compare %+v\n   benchstat %+v", key, got, w)
				}
			}
		})
	}
	t.Run("old-new", func(t *testing.T) {
		// benchstat -format csv prints every digit of the medians.
		ours := compareJSON(t, in("old.txt"), in("new.txt"))
		f, err := os.Open(in("csvOldNew.stdout"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rd := csv.NewReader(f)
		rd.FieldsPerRecord = -1
		records, err := rd.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, rec := range records {
			if len(rec) != 7 || rec[0] == "" || rec[0] == "geomean" {
				continue
			}
			n++
			row, ok := ours["sec/op "+rec[0]]
			if !ok {
				t.Fatalf("%s: no such row in compare's output", rec[0])
			}
			b := row.asBenchstat()
			got := []string{fmt.Sprint(row.Base.Median), b.basePct, fmt.Sprint(row.Head.Median), b.headPct, b.delta, b.test}
			if fmt.Sprint(got) != fmt.Sprint(rec[1:]) {
				t.Errorf("%s: compare %q, benchstat %q", rec[0], got, rec[1:])
			}
		}
		if n != 2 || len(ours) != n {
			t.Errorf("%d rows of benchstat's, %d of compare's; want 2 each", n, len(ours))
		}
	})
}

// TestCompareRefusesDifferentConfigurations: benchstat compares
// crc-old.txt and crc-new.txt only with -ignore note, their "note:" lines
// differing; compare refuses them without --ignore note, saying why, in
// one line, and refuses an --ignore or a --unit no file has, naming what
// they have.
func TestCompareRefusesDifferentConfigurations(t *testing.T) {
	t.Parallel()
	old, cur := filepath.Join(benchstatDir, "crc-old.txt"), filepath.Join(benchstatDir, "crc-new.txt")
	refusedInOneLine(t, inProcess(t, "compare", old, cur), "note", "hw acceleration disabled", "--ignore")
	refusedInOneLine(t, inProcess(t, "compare", "--ignore", "nosuch", old, cur), "nosuch", "goarch, goos, note, pkg")
	refusedInOneLine(t, inProcess(t, "compare", "--ignore", "note", "--unit", "nosuch", old, cur), "nosuch", "sec/op, B/s")
	r := inProcess(t, "compare", "--ignore", "note", "--unit", "MB/s", old, cur)
	r.Must(t, 0)
	if strings.Contains(r.Stdout, "sec/op") || !strings.Contains(r.Stdout, "B/s") {
		t.Errorf("--unit MB/s: want the B/s rows alone:\n%s", r.Stdout)
	}
}
