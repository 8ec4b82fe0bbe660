package cli

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/internal/gitrev/gittest"
)

// sameContents tells one build from two: one file, or a copy with the same
// bytes, is one build; other bytes, or a file that cannot be read, two.
func TestSameContents(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a", "the same build")
	copyOfA := write("copy", "the same build")
	b := write("b", "the same bUild")
	longer := write("longer", "the same build, relinked")
	link := filepath.Join(dir, "link")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x, y string
		want bool
	}{
		{a, a, true},
		{a, link, true},
		{a, copyOfA, true},
		{a, b, false},
		{a, longer, false},
		{a, filepath.Join(dir, "missing"), false},
	} {
		if got := sameContents(c.x, c.y); got != c.want {
			t.Errorf("sameContents(%s, %s) = %v, want %v", filepath.Base(c.x), filepath.Base(c.y), got, c.want)
		}
	}
}

func TestABLayoutsBadInput(t *testing.T) {
	t.Parallel()
	self := os.Args[0]
	for _, tc := range []struct {
		env  []string
		args []string
		want string
	}{
		{nil, []string{"ab", "--base-rev", "HEAD", "--layouts", "5"}, "give two layouts or more"},
		{nil, []string{"ab", "--base-rev", "HEAD", "--layouts", "0,x"}, `"x": a layout is a linker seed`},
		{nil, []string{"ab", "--base-rev", "HEAD", "--layouts", "3,5,3"}, "layout 3 twice"},
		{nil, []string{"ab", "--base", self, "--layouts", "0,5"}, "both sides must be built from git"},
		{nil, []string{"ab", "--base-rev", "HEAD", "--head", self, "--layouts", "0,5"}, "both sides must be built from git"},
		{[]string{"GOFLAGS=-ldflags=-s"}, []string{"ab", "--base-rev", "HEAD", "--layouts", "0,5"}, "GOFLAGS already sets -ldflags=-s"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			refusedInOneLine(t, refuse(t, tc.env, tc.args...), tc.want)
		})
	}
}

// TestABLayoutsFindsAPlantedSlowdown judges a synthetic change that doubles
// the worker's time in three function layouts: each layout relinks both
// sides (six different binaries), each session is printed under its
// layout and exported on its own, and the combination across layouts fails
// the gate.
func TestABLayoutsFindsAPlantedSlowdown(t *testing.T) {
	fullSuiteOnly(t, "builds a git history in several function layouts")
	t.Parallel()
	repo := gittest.New(t)
	base := repo.Commit(t, map[string]string{"go.mod": gittest.GoMod, "cmd/rootbench/main.go": fakeWorker(t, 30)}, "base")
	head := repo.Commit(t, map[string]string{"go.mod": gittest.GoMod, "cmd/rootbench/main.go": fakeWorker(t, 60)}, "the planted slowdown")
	cache, out := t.TempDir(), t.TempDir()
	export := filepath.Join(out, "ab.json")
	r := rootbench(t, []string{"ROOTBENCH_CACHE=" + cache}, "ab", "--repo", repo.Dir, "--base-rev", base, "--head-rev", head,
		"--layouts", "0,3,5", "--cell", "ocaml", "--looks", "6", "--max-time", "1m", "--no-gc-table",
		"--export-json", export, "--fail-on-regression", "50%")
	r.Must(t, exitFailed)
	for _, want := range []string{"Function layout 0 (the linker's default):", "Function layout 3 (-ldflags=-randlayout=3):",
		"Function layout 5 (-ldflags=-randlayout=5):", "Across 3 function layouts (0, 3, 5)", "REGRESSION"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.Stdout)
		}
	}
	if !strings.Contains(r.Stderr, "across 3 layouts, regression beyond the gate in: ocaml") {
		t.Errorf("stderr does not give the combined verdict:\n%s", r.Stderr)
	}
	for _, l := range []string{"0", "3", "5"} {
		if _, err := os.Stat(filepath.Join(out, "ab.layout-"+l+".json")); err != nil {
			t.Errorf("layout %s's session was not exported: %v", l, err)
		}
	}
	// Six builds, each linked differently: no two binaries alike.
	digests := map[string]string{}
	err := filepath.WalkDir(cache, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		if info, err := d.Info(); err != nil || info.Mode()&0o111 == 0 {
			return err
		}
		sum, err := fileDigest(path)
		if err != nil {
			return err
		}
		if other, ok := digests[string(sum)]; ok {
			t.Errorf("%s and %s are the same binary", other, path)
		}
		digests[string(sum)] = path
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(digests) != 6 {
		t.Errorf("%d binaries built, want 6 (two sides in three layouts): %v", len(digests), digests)
	}

	// The exports, combined by compare, give the combination ab printed.
	var exports []string
	for _, l := range []string{"5", "0", "3"} {
		exports = append(exports, filepath.Join(out, "ab.layout-"+l+".json"))
	}
	rc := rootbench(t, nil, append([]string{"compare", "--layouts", "--fail-on-regression", "50%"}, exports...)...)
	rc.Must(t, exitFailed)
	if !strings.Contains(rc.Stdout, "across 3 function layouts (5, 0, 3)") || rowOf(rc.Stdout, "ocaml") != rowOf(r.Stdout[strings.Index(r.Stdout, "Across 3"):], "ocaml") {
		t.Errorf("compare --layouts of the exports differs from ab's combination:\n%s\nab:\n%s", rc.Stdout, r.Stdout)
	}
	rj := rootbench(t, nil, append([]string{"compare", "--layouts", "--format", "json", "--metric", "wall"}, exports...)...)
	rj.Must(t, 0)
	var doc struct {
		Mode    string   `json:"mode"`
		Layouts []string `json:"layouts"`
		Rows    []struct {
			Layouts int `json:"layouts"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(rj.Stdout), &doc); err != nil || doc.Mode != "layouts" ||
		strings.Join(doc.Layouts, ",") != "5,0,3" || len(doc.Rows) != 1 || doc.Rows[0].Layouts != 3 {
		t.Errorf("compare --layouts --format json: %+v, %v:\n%s", doc, err, rj.Stdout)
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--layouts", exports[0]}, "two or more A/B session files"},
		{[]string{"compare", "--layouts", exports[0], exports[0]}, "are both layout 5"},
		{[]string{"compare", "--layouts", "--cells", "a,b", exports[0], exports[1]}, "takes no --cells"},
		{[]string{"compare", "--layouts", exports[0], filepath.Join(out, "nosuch.json")}, "no such file"},
	} {
		rb := rootbench(t, nil, bad.args...)
		rb.Must(t, exitUsage)
		if !strings.Contains(rb.Stderr, bad.want) {
			t.Errorf("%v: stderr does not say %q:\n%s", bad.args, bad.want, rb.Stderr)
		}
	}

	// As a PR comment: each layout's session folded, the combination last
	// and open.
	r = rootbench(t, []string{"ROOTBENCH_CACHE=" + cache}, "ab", "--repo", repo.Dir, "--base-rev", base, "--head-rev", head,
		"--layouts", "0,3,5", "--cell", "ocaml", "--looks", "6", "--max-time", "1m", "--no-gc-table",
		"--fail-on-regression", "50%", "--format", "markdown")
	r.Must(t, exitFailed)
	combined := strings.Index(r.Stdout, "across 3 function layouts\n")
	if combined < 0 || strings.Count(r.Stdout, "<details><summary>Function layout ") != 3 ||
		strings.LastIndex(r.Stdout, "<details><summary>Function layout 5 (-ldflags=-randlayout=5): gate") > combined ||
		!strings.Contains(r.Stdout[combined:], "REGRESSION") {
		t.Errorf("the Markdown does not fold the three sessions before an open combination:\n%s", r.Stdout)
	}
}

// rowOf is the first line of a text table that starts with label, spaces
// trimmed ("" when none does).
func rowOf(table, label string) string {
	for _, line := range strings.Split(table, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == label {
			return strings.Join(f, " ")
		}
	}
	return ""
}
