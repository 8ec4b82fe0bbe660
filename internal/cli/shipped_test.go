//go:build !rootbench_faulty

package cli

import (
	"strings"
	"testing"
)

// The shipped build has no test-only cell and cannot plant a slowdown: both
// are refused as usage errors before any worker starts.
func TestShippedBuildRefusesTestOnlyCells(t *testing.T) {
	r := rootbench(t, nil, "run", "--cell", "faulty:crash", "--runs", "1")
	r.must(t, exitUsage)
	if !strings.Contains(r.stderr, `unknown cell "faulty:crash"`) || strings.Contains(r.stderr, "faulty:leak") {
		t.Errorf("stderr does not call faulty:crash unknown, or lists test-only cells:\n%s", r.stderr)
	}
	r = rootbench(t, []string{"ROOTBENCH_SLOW=boxroot=20%"}, "run", "--cell", "boxroot", "--runs", "1")
	r.must(t, exitUsage)
	if !strings.Contains(r.stderr, "ROOTBENCH_SLOW") || !strings.Contains(r.stderr, "rootbench_faulty") {
		t.Errorf("stderr does not explain that ROOTBENCH_SLOW needs a test build:\n%s", r.stderr)
	}
	if n := strings.Count(strings.TrimSpace(r.stderr), "\n"); n != 0 {
		t.Errorf("want one line on stderr, got %d:\n%s", n+1, r.stderr)
	}
}
