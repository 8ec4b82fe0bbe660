package main

// Reproducible noise: N processes that each keep one CPU busy, started
// before the sessions of a busy condition and stopped after them, on every
// path out (return, error, signal; and, on Linux, the supervisor's own
// death: the kernel kills them with it).

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/rootbench/rootbench/harness/procgroup"
)

// condition is what else ran while sessions were recorded or checked:
// noise busy-loop processes (0: nothing, the quiet condition).
type condition struct {
	noise int
}

// Names of conditions, as their directories under the sessions directory
// are named: "quiet", or "noise" and the count.
const (
	quietName   = "quiet"
	noisePrefix = "noise"
	// unrecordedName is the condition of sessions found outside a
	// condition's directory: what else ran is not known.
	unrecordedName = "unrecorded"
)

// name is the condition's directory name: quiet or noiseN.
func (c condition) name() string {
	if c.noise == 0 {
		return quietName
	}
	return noisePrefix + strconv.Itoa(c.noise)
}

// describe says the condition in a sentence's words.
func (c condition) describe() string {
	if c.noise == 0 {
		return "quiet (nothing else running)"
	}
	if c.noise == 1 {
		return "busy (1 CPU-bound noise process)"
	}
	return fmt.Sprintf("busy (%d CPU-bound noise processes)", c.noise)
}

// parseCondition reads a condition's directory name; ok is false for any
// other name.
func parseCondition(name string) (c condition, ok bool) {
	if name == quietName {
		return condition{}, true
	}
	n, found := strings.CutPrefix(name, noisePrefix)
	if !found {
		return condition{}, false
	}
	v, err := strconv.Atoi(n)
	if err != nil || v < 1 || strconv.Itoa(v) != n {
		return condition{}, false
	}
	return condition{noise: v}, true
}

// parseNoise reads a count of noise processes (-noise): a whole number, 0
// or more.
func parseNoise(s string) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || v < 0 {
		return 0, fmt.Errorf("-noise %q: the number of CPU-bound noise processes, 0 or more (0: quiet)", s)
	}
	return v, nil
}

// spinFlag makes gatecheck a noise process: it busy-loops until killed.
const spinFlag = "-spin"

// spinForever is a noise process's whole life: one thread kept busy.
func spinForever() {
	x := uint64(1)
	for {
		x = x*6364136223846793005 + 1442695040888963407
		if x == 0 { // never: keeps the loop's work from being optimised away
			fmt.Println(x)
		}
	}
}

// noise is a set of running noise processes.
type noise struct {
	cancel context.CancelFunc
	cmds   []*exec.Cmd
}

// startNoise starts n noise processes, each the leader of its own process
// group, killed with SIGKILL by stop (and, on Linux, when this process
// dies: dieWithParent). With n = 0 it starts nothing.
func startNoise(n int) (*noise, error) {
	ctx, cancel := context.WithCancel(context.Background())
	nz := &noise{cancel: cancel}
	if n == 0 {
		return nz, nil
	}
	self, err := os.Executable()
	if err != nil {
		cancel()
		return nil, fmt.Errorf("noise: find this program: %w", err)
	}
	for i := range n {
		cmd := exec.CommandContext(ctx, self, spinFlag)
		procgroup.Own(cmd, time.Second)
		dieWithParent(cmd.SysProcAttr)
		cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
		if err := cmd.Start(); err != nil {
			nz.stop()
			return nil, fmt.Errorf("noise: start process %d of %d: %w", i+1, n, err)
		}
		nz.cmds = append(nz.cmds, cmd)
	}
	return nz, nil
}

// stop kills every noise process and waits for them; safe to call again.
func (nz *noise) stop() {
	nz.cancel()
	for _, cmd := range nz.cmds {
		_ = cmd.Wait() // killed: the error says so, and nothing is lost
	}
	nz.cmds = nil
}
