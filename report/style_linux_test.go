package report

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// openTerminal opens the follower side of a new pseudo-terminal.
func openTerminal(t *testing.T) *os.File {
	t.Helper()
	leader, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal in this environment: %v", err)
	}
	t.Cleanup(func() { leader.Close() })
	if err := unix.IoctlSetPointerInt(int(leader.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(leader.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("pseudo-terminal number: %v", err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("cannot open the pseudo-terminal's follower: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty
}

func TestResolveStyleTerminal(t *testing.T) {
	tty := openTerminal(t)
	t.Setenv("NO_COLOR", "")
	if got := ResolveStyle(AutoStyle, tty); got != Full {
		t.Errorf("ResolveStyle(auto, terminal) = %v, want full", got)
	}
	t.Setenv("NO_COLOR", "1")
	if got := ResolveStyle(AutoStyle, tty); got != NoColor || got.Color() || !got.Progress() {
		t.Errorf("ResolveStyle(auto, terminal) with NO_COLOR=1 = %v, want nocolor (progress, no colour)", got)
	}
	if got := ResolveStyle(Full, tty); got != Full {
		t.Errorf("explicit --style full with NO_COLOR = %v, want full (the flag wins)", got)
	}
}
