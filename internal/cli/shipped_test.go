//go:build !rootbench_faulty

package cli

import (
	"strings"
	"testing"
)

// The shipped build has no test-only cell and cannot plant a slowdown: both
// are refused as usage errors before any worker starts.
func TestShippedBuildRefusesTestOnlyCells(t *testing.T) {
	t.Parallel()
	r := inProcess(t, "run", "--cell", "faulty:crash", "--runs", "1")
	r.Must(t, exitUsage)
	if !strings.Contains(r.Stderr, `unknown cell "faulty:crash"`) || strings.Contains(r.Stderr, "faulty:leak") {
		t.Errorf("stderr does not call faulty:crash unknown, or lists test-only cells:\n%s", r.Stderr)
	}
	r = rootbench(t, []string{"ROOTBENCH_SLOW=boxroot=20%"}, "run", "--cell", "boxroot", "--runs", "1")
	r.Must(t, exitUsage)
	if !strings.Contains(r.Stderr, "ROOTBENCH_SLOW") || !strings.Contains(r.Stderr, "rootbench_faulty") {
		t.Errorf("stderr does not explain that ROOTBENCH_SLOW needs a test build:\n%s", r.Stderr)
	}
	if n := strings.Count(strings.TrimSpace(r.Stderr), "\n"); n != 0 {
		t.Errorf("want one line on stderr, got %d:\n%s", n+1, r.Stderr)
	}
}
