package harness

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b))
}

// writeFile writes data to the file name in dir, with mode perm, and
// returns its path.
func writeFile(t *testing.T, dir, name, data string, perm os.FileMode) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(data), perm); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeScript writes an executable file name in a new temporary directory
// and returns its path.
func writeScript(t *testing.T, name, text string) string {
	t.Helper()
	return writeFile(t, t.TempDir(), name, text, 0o755)
}

// perRun lists f of each of r's runs, in run order.
func perRun[T any](r *Result, f func(Run) T) []T {
	var out []T
	for _, run := range r.Runs {
		out = append(out, f(run))
	}
	return out
}
