// Package procgroup starts a command as the leader of its own process group,
// so that cancelling it kills everything it started (a worker's threads, the
// Go command's compiler and linker) and a terminal's SIGINT reaches only the
// caller, which decides what to do.
package procgroup

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Own makes cmd, not yet started, lead its own process group; when its
// context is cancelled the whole group is killed with SIGKILL, and Wait
// gives up on its output pipes waitDelay after that.
func Own(cmd *exec.Cmd, waitDelay time.Duration) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// os/exec calls Cancel only while Wait has not returned, so the
		// group still exists unless the process exited this very moment.
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			return os.ErrProcessDone
		}
		return err
	}
	cmd.WaitDelay = waitDelay
}
