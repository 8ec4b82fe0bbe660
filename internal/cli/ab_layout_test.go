package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// sameContents tells one build from two: one file, or a copy with the same
// bytes, is one build; other bytes, or a file that cannot be read, two.
func TestSameContents(t *testing.T) {
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
