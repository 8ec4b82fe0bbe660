package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// The handshake: DescribeWorker asks a build's worker what it accepts, by
// `worker --describe` or, for older workers, by --help and probes.

// HandshakeTimeout bounds DescribeWorker: the --describe call, and for an
// older worker its --help and probes.
const HandshakeTimeout = 5 * time.Second

// handshakeOutputLimit bounds what DescribeWorker reads from each call.
const handshakeOutputLimit = 1 << 20

// slowEnv is impls.SlowEnv (harness does not import impls): a shipped build
// refuses every cell while it is set, which would hide a probe's answer.
const slowEnv = "ROOTBENCH_SLOW"

// probeName is a name no worker accepts: the probes pass it where a workload,
// cell or parameter name goes, so that the worker lists what it accepts.
const probeName = "rootbench-probe"

// DescribeWorker learns what exe's worker accepts: `exe worker --describe`,
// or, for a worker that predates it, `exe worker --help` and the probes the
// worker protocol's comment (protocol.go) describes. env is extra
// environment ("NAME=value") on top of this process's, as for the workers
// themselves. The whole handshake is bounded by HandshakeTimeout. Every
// error is one line naming exe; an exe that is not a rootbench build
// (missing, a directory, not executable, or printing nothing recognisable)
// gives an error wrapping ErrNotRootbench.
func DescribeWorker(ctx context.Context, exe string, env []string) (*WorkerInfo, error) {
	if err := checkExecutable(exe); err != nil {
		return nil, err
	}
	budget := HandshakeTimeout
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < budget {
		budget = time.Until(dl)
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	h := handshake{ctx: ctx, exe: exe, env: probeEnv(env), budget: budget}

	desc := h.call("worker", "--describe")
	if info, ok := parseDescription(desc.stdout); ok && desc.err == nil {
		info.Name, info.Exe = exe, exe
		return info, nil
	}
	if err := h.timedOut("worker --describe"); err != nil {
		return nil, err
	}
	help := h.call("worker", "--help")
	if err := h.timedOut("worker --help"); err != nil {
		return nil, err
	}
	flags, ok := parseWorkerHelp(help.stdout)
	if !ok {
		return nil, notRootbench(exe, desc, help)
	}
	return h.fromProbes(flags)
}

// checkExecutable refuses, with one line, an exe that cannot be a rootbench
// build: missing, a directory, or not executable.
func checkExecutable(exe string) error {
	path := exe
	if !strings.ContainsRune(exe, os.PathSeparator) {
		p, err := exec.LookPath(exe)
		if err != nil {
			return fmt.Errorf("%s: not found in PATH: %w", exe, ErrNotRootbench)
		}
		path = p
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s: no such file: %w", exe, ErrNotRootbench)
	case err != nil:
		return fmt.Errorf("%s: %w", exe, err)
	case fi.IsDir():
		return fmt.Errorf("%s: a directory, %w", exe, ErrNotRootbench)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s: not a regular file (%s), %w", exe, fi.Mode().Type(), ErrNotRootbench)
	case fi.Mode().Perm()&0o111 == 0:
		return fmt.Errorf("%s: not executable (mode %s), %w", exe, fi.Mode().Perm(), ErrNotRootbench)
	}
	return nil
}

// probeEnv is extra on top of this process's environment, without slowEnv.
func probeEnv(extra []string) []string {
	var out []string
	for _, kv := range append(os.Environ(), extra...) {
		if !strings.HasPrefix(kv, slowEnv+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// handshake runs one executable's handshake calls under one deadline.
type handshake struct {
	ctx    context.Context
	exe    string
	env    []string
	budget time.Duration // the deadline's distance when the handshake started
}

// answer is what one handshake call printed.
type answer struct {
	stdout, stderr string
	err            error // nil when the call exited 0
}

// text is everything the call printed.
func (a answer) text() string { return strings.TrimSpace(a.stdout + "\n" + a.stderr) }

func (h handshake) call(args ...string) answer {
	cmd := exec.CommandContext(h.ctx, h.exe, args...)
	cmd.Env = h.env
	cmd.WaitDelay = time.Second // a child holding the pipes open does not outlive the deadline by more
	var out, errb limitedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return answer{stdout: out.String(), stderr: errb.String(), err: err}
}

// timedOut is the error when the handshake's deadline has passed.
func (h handshake) timedOut(what string) error {
	switch err := h.ctx.Err(); {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("%s: %s: %w", h.exe, what, err)
	}
	return fmt.Errorf("%s: %s did not answer within %s (is it a rootbench build? is the machine overloaded?)",
		h.exe, what, h.budget.Round(time.Millisecond))
}

// limitedBuffer keeps the first handshakeOutputLimit bytes written to it and
// drops the rest.
type limitedBuffer struct{ bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := handshakeOutputLimit - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// notRootbench says that neither call printed anything a rootbench worker
// prints, quoting the start of what they did print.
func notRootbench(exe string, calls ...answer) error {
	var printed string
	for _, a := range calls {
		if t := a.text(); t != "" {
			printed = t
			break
		}
	}
	what := "printed nothing recognisable"
	if printed == "" {
		what = "printed nothing"
	}
	err := fmt.Errorf("%s: %w (worker --describe and worker --help %s)", exe, ErrNotRootbench, what)
	if printed != "" {
		const quoteMax = 80
		if len(printed) > quoteMax {
			printed = printed[:quoteMax] + "..."
		}
		err = fmt.Errorf("%w: it printed %q", err, printed)
	}
	return err
}

// parseDescription reads a --describe answer: its last non-empty line, a
// WorkerDescription with a protocol and at least one workload.
func parseDescription(stdout string) (*WorkerInfo, bool) {
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var d WorkerDescription
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &d); err != nil || d.Protocol < 1 || len(d.Workloads) == 0 {
		return nil, false
	}
	info := &WorkerInfo{
		Source:     SourceDescribe,
		Protocol:   d.Protocol,
		Workloads:  map[string][]string{},
		Cells:      map[string][]string{},
		Defaults:   map[string]map[string]string{},
		Fixed:      map[string]map[string]string{},
		Flags:      slices.Clone(d.Flags),
		WarmupPass: d.WarmupPass,
		CPUTime:    d.CPUTime,
	}
	for w, wd := range d.Workloads {
		info.Workloads[w] = slices.Clone(wd.Params)
		info.Cells[w] = slices.Clone(wd.Cells)
		if wd.Defaults != nil {
			info.Defaults[w] = wd.Defaults
		}
	}
	if ps, ok := info.Workloads["msgpass"]; ok && !slices.Contains(ps, ParamWarmupPasses) {
		// A worker that cannot set its warm-up runs what it describes.
		warmups := "0"
		if d.WarmupPass {
			warmups = "1"
		}
		info.Fixed["msgpass"] = map[string]string{ParamWarmupPasses: warmups}
	}
	return info, true
}

// workerHelpFlags are the flags every rootbench worker's --help lists.
var workerHelpFlags = []string{"workload", "cell", "set"}

// parseWorkerHelp reads `worker --help`: the flags it lists, and whether it
// is a rootbench worker's help (its usage line and workerHelpFlags).
func parseWorkerHelp(stdout string) (flags []string, ok bool) {
	if !strings.Contains(stdout, "rootbench worker") {
		return nil, false
	}
	for _, line := range strings.Split(stdout, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if strings.HasPrefix(f[0], "-") && !strings.HasPrefix(f[0], "--") && len(f) > 1 {
			f = f[1:] // "-h, --help"
		}
		if name, ok := strings.CutPrefix(f[0], "--"); ok && name != "help" && name != "" {
			flags = append(flags, name)
		}
	}
	for _, want := range workerHelpFlags {
		if !slices.Contains(flags, want) {
			return nil, false
		}
	}
	return flags, true
}

// fromProbes learns an older worker's workloads, cells and parameters from
// the lists its refusals give (see the worker protocol's comment in
// protocol.go), and the rest from the history.
func (h handshake) fromProbes(flags []string) (*WorkerInfo, error) {
	info := &WorkerInfo{
		Name:      h.exe,
		Exe:       h.exe,
		Source:    SourceHelp,
		Workloads: map[string][]string{},
		Cells:     map[string][]string{},
		Fixed:     map[string]map[string]string{},
		Flags:     flags,
	}
	workloads, err := h.accepted(`--workload "`+probeName+`"`, "worker", "--workload="+probeName)
	if err != nil {
		return nil, err
	}
	for _, w := range workloads {
		cells, err := h.accepted(`"`+probeName+`"`, "worker", "--workload="+w, "--cell="+probeName)
		if err != nil {
			return nil, err
		}
		if len(cells) == 0 {
			return nil, fmt.Errorf("%s: worker --workload=%s lists no cell", h.exe, w)
		}
		cell := cells[0]
		if slices.Contains(cells, "ocaml") {
			cell = "ocaml"
		}
		params, err := h.accepted(`"`+probeName+`"`, "worker", "--workload="+w, "--cell="+cell, "--set="+probeName+"=0")
		if err != nil {
			return nil, err
		}
		info.Workloads[w], info.Cells[w] = params, cells
	}
	if params, ok := info.Workloads["msgpass"]; ok {
		switch {
		case !slices.Contains(params, ParamPasses):
			info.Fixed["msgpass"] = map[string]string{ParamPasses: "1", ParamWarmupPasses: "0"}
		case !slices.Contains(params, ParamWarmupPasses):
			info.WarmupPass = true
			info.Fixed["msgpass"] = map[string]string{ParamWarmupPasses: "1"}
		default:
			info.WarmupPass = true
		}
	}
	if _, ok := info.Workloads["callback"]; ok {
		if v := h.call("version"); v.err == nil && versionSays(v.stdout, "cgo", "false") {
			delete(info.Workloads, "callback")
			delete(info.Cells, "callback")
		}
	}
	if err := h.timedOut("worker's probes"); err != nil {
		return nil, err
	}
	return info, nil
}

// accepted runs a probe that the worker must refuse (exit 2) with a line
// holding mark and then "accepted: a, b, c" (up to ";", ")" or the end of
// the line), and returns that list.
func (h handshake) accepted(mark string, args ...string) ([]string, error) {
	a := h.call(args...)
	if err := h.timedOut(strings.Join(args, " ")); err != nil {
		return nil, err
	}
	for _, line := range strings.Split(a.stderr, "\n") {
		i := strings.Index(line, mark)
		if i < 0 {
			continue
		}
		_, list, ok := strings.Cut(line[i:], "accepted: ")
		if !ok {
			continue
		}
		if j := strings.IndexAny(list, ";)"); j >= 0 {
			list = list[:j]
		}
		var out []string
		for _, s := range strings.Split(list, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		if a.err != nil && len(out) > 0 {
			return out, nil
		}
	}
	return nil, fmt.Errorf("%s: worker %s: expected a refusal listing what it accepts, got %q",
		h.exe, strings.Join(args[1:], " "), firstLine(a.text()))
}

// versionSays reports whether `rootbench version` printed a line "key value".
func versionSays(stdout, key, value string) bool {
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == key {
			return f[1] == value
		}
	}
	return false
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
