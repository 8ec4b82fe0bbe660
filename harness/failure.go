package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Failed runs: each one is named ("boxroot batch-size=16 run 3"), announced in
// one line on Options.Notices as it happens, and its worker's whole output is
// saved to a log file that the run's Error names.

// logDir returns the directory of failed runs' logs: Options.LogDir, or
// rootbench-<pid> in the system's temporary directory.
func (o *Options) logDir() string {
	if o.LogDir != "" {
		return o.LogDir
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("rootbench-%d", os.Getpid()))
}

// runName names a run for its log file: the label made safe for a file name,
// then "-run3" (the third measured run) or "-warmup1".
func runName(label string, warmup bool, warm, measured int) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '=', r == ',':
			return r
		}
		return '_'
	}, label)
	if warmup {
		return fmt.Sprintf("%s-warmup%d", safe, warm)
	}
	return fmt.Sprintf("%s-run%d", safe, measured)
}

// logPath is the log file of the named run in dir.
func logPath(dir, name string) string {
	return filepath.Join(dir, name+".log")
}

// failureNotice is the one line announcing a failed run: "boxroot run 3
// failed: killed by signal 9 (SIGKILL; likely the OOM killer); full output in
// /tmp/rootbench-123/boxroot-run3.log".
func failureNotice(label string, warmup bool, warm, measured int, run *Run) string {
	which := fmt.Sprintf("run %d", measured)
	if warmup {
		which = fmt.Sprintf("warm-up run %d", warm)
	}
	return fmt.Sprintf("%s %s failed: %s", label, which, run.Error)
}
