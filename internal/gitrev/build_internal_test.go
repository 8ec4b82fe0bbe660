package gitrev

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// A compiler or Go command ended by a signal is not the commit's failure.
func TestBuildFailureSignals(t *testing.T) {
	exitErr := func(script string) *exec.ExitError {
		t.Helper()
		err := exec.Command("sh", "-c", script).Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("sh -c %q: %v, want an exit error", script, err)
		}
		return ee
	}
	var be *BuildError
	compile := "# example.com/tiny\n./main.go:3:15: undefined: signal\n"
	if err := buildFailure(exitErr("exit 1"), compile); !errors.As(err, &be) || be.Output != strings.TrimSpace(compile) {
		t.Errorf("compile error: %v, want a *BuildError with the output", err)
	}
	killedCompiler := "# example.com/tiny\ngo build example.com/tiny: /usr/local/go/pkg/tool/linux_amd64/compile: signal: killed\n"
	if err := buildFailure(exitErr("exit 1"), killedCompiler); err == nil || errors.As(err, &be) {
		t.Errorf("compiler killed: %v, want a plain error", err)
	}
	if err := buildFailure(exitErr("kill -KILL $$"), ""); err == nil || errors.As(err, &be) {
		t.Errorf("go command killed: %v, want a plain error", err)
	}
}
