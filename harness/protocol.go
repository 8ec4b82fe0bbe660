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
	"sort"
	"strings"
	"time"
)

// The worker protocol: what a build's `rootbench worker` accepts, learned
// before a session so that two builds (ab's base and head, bisect's steps)
// can be driven with the same workload and parameters.
//
// Workers since protocol 1 answer `worker --describe` with one JSON line, a
// WorkerDescription. Older workers (every build from ff81315, where `worker`
// first exists, to 8b5e1bb) have no --describe; DescribeWorker learns what
// they accept from `worker --help` and from probes that each stop at the
// worker's first check, before anything runs: an unknown --workload, --cell
// and --set NAME each make the worker exit 2 with a line that lists what it
// accepts ("accepted: ..."). Their --help text is the same in every such
// build, so it tells a rootbench worker from other programs but not what the
// worker accepts. What the probes cannot show comes from the history:
//   - passes and the unmeasured warm-up pass arrived together (8e283c8): a
//     worker without passes runs one measured pass and no warm-up, a worker
//     with passes and without warmup-passes always runs one warm-up pass;
//   - callback needs cgo: `rootbench version` says whether a build has it.

// ProtocolVersion is the version of the worker protocol this package speaks
// and `worker --describe` prints. Workers that predate --describe are
// protocol 0.
const ProtocolVersion = 1

// Worker parameters the protocol knows by name: the ones some workers lack.
const (
	// ParamPasses is msgpass's measured passes per run (since 8e283c8).
	ParamPasses = "passes"
	// ParamWarmupPasses is the msgpass worker's unmeasured warm-up passes
	// before the measured ones (protocol 1; default 1, 0 measures as the
	// workers before passes did).
	ParamWarmupPasses = "warmup-passes"
)

// WorkerDescription is what `rootbench worker --describe` prints, as one
// JSON line.
type WorkerDescription struct {
	// Protocol is the worker's protocol version (ProtocolVersion).
	Protocol int `json:"protocol"`
	// Workloads are the workloads --workload accepts.
	Workloads map[string]WorkloadDescription `json:"workloads"`
	// Flags are the worker's flags, without dashes (help left out).
	Flags []string `json:"flags"`
	// WarmupPass says whether a msgpass run starts with an unmeasured
	// warm-up pass by default.
	WarmupPass bool `json:"warmup_passes"`
}

// WorkloadDescription is what a worker accepts for one workload.
type WorkloadDescription struct {
	// Params are the names --set accepts.
	Params []string `json:"params"`
	// Cells are the values --cell accepts (msgpass: cells and their aliases;
	// callback: variants). Test-only cells are not listed.
	Cells []string `json:"cells"`
	// Defaults are the value of each parameter when --set leaves it out.
	Defaults map[string]string `json:"defaults,omitempty"`
}

// How a WorkerInfo was learned.
const (
	SourceDescribe = "describe" // from `worker --describe`
	SourceHelp     = "help"     // from `worker --help`, probes and the history
)

// WorkerInfo is what one build's worker accepts, as DescribeWorker learned
// it.
type WorkerInfo struct {
	// Name is how notes and errors name this worker. DescribeWorker sets it
	// to the executable's path; callers name sides, e.g. "base (51c97ff)".
	Name string
	// Exe is the executable DescribeWorker ran.
	Exe string
	// Source says how the rest was learned: SourceDescribe or SourceHelp.
	Source string
	// Protocol is the worker's protocol version; 0 for workers that
	// predate --describe.
	Protocol int
	// Workloads maps each workload the worker runs to the parameter names
	// --set accepts for it.
	Workloads map[string][]string
	// Cells maps each workload to the values --cell accepts (nil when
	// unknown).
	Cells map[string][]string
	// Defaults maps each workload to its parameters' defaults, where known
	// (describe only).
	Defaults map[string]map[string]string
	// Fixed maps each workload to settings the worker does not accept but
	// always runs with, by the parameter name newer workers accept them
	// under: a worker before passes runs passes=1 and warmup-passes=0.
	Fixed map[string]map[string]string
	// Flags are the worker's flags, without dashes.
	Flags []string
	// WarmupPass says whether a msgpass run starts with an unmeasured
	// warm-up pass by default.
	WarmupPass bool
}

// WorkerRequest is one worker run to render as a command line.
type WorkerRequest struct {
	Workload string
	// Cell is the msgpass cell or the callback variant.
	Cell string
	// Params are the workload's parameters by name (canonical or
	// environment spelling: batch-size, BATCH_SIZE).
	Params map[string]string
	// Pin is the CPU list to pin the worker to ("" for none).
	Pin string
}

// ErrNotRootbench is wrapped by DescribeWorker's errors that say the
// executable is not a rootbench build (or not a program at all).
var ErrNotRootbench = errors.New("not a rootbench build")

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
// or, for a worker that predates it, `exe worker --help` and the probes
// described above. env is extra environment ("NAME=value") on top of this
// process's, as for the workers themselves. The whole handshake is bounded by
// HandshakeTimeout. Every error is one line naming exe; an exe that is not a
// rootbench build (missing, a directory, not executable, or printing nothing
// recognisable) gives an error wrapping ErrNotRootbench.
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
// the lists its refusals give (see the package comment above), and the
// rest from the history.
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

// canonicalParam is a parameter name as the protocol compares it: lower
// case, '-' for '_' (batch-size for BATCH_SIZE), as the workers match names.
func canonicalParam(name string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "_", "-")
}

// sameValue compares parameter values as the workers read them: case and
// surrounding spaces ignored, and '_' separators in numbers (100_000).
func sameValue(a, b string) bool {
	norm := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		if d := strings.ReplaceAll(s, "_", ""); d != "" && strings.Trim(d, "+-0123456789") == "" {
			return d
		}
		return s
	}
	return norm(a) == norm(b)
}

// canonicalParams is params under canonical names; two spellings of one
// name are an error.
func canonicalParams(params map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(params))
	for _, k := range sortedKeys(params) {
		c := canonicalParam(k)
		if _, dup := out[c]; dup {
			return nil, fmt.Errorf("parameter %s given twice (as %s and another spelling)", c, k)
		}
		out[c] = params[k]
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// accepts reports whether the worker's --set takes name for workload.
func (w *WorkerInfo) accepts(workload, name string) bool {
	return slices.Contains(w.Workloads[workload], name)
}

// fixed is the value the worker always runs name with, if it does not
// accept name and its value is known.
func (w *WorkerInfo) fixed(workload, name string) (string, bool) {
	v, ok := w.Fixed[workload][name]
	return v, ok
}

// workloadErr is nil if the worker runs workload.
func (w *WorkerInfo) workloadErr(workload string) error {
	if _, ok := w.Workloads[workload]; ok {
		return nil
	}
	return fmt.Errorf("%s has no %s workload (it has: %s)", w.Name, workload, strings.Join(sortedKeys(w.Workloads), ", "))
}

// CheckCell returns nil if the worker's --cell accepts cell for workload,
// case-insensitively, or if its cells are unknown; otherwise an error of one
// line listing what it accepts. Test-only cells (-tags rootbench_faulty) are
// never listed: callers that run them skip this check.
func (w *WorkerInfo) CheckCell(workload, cell string) error {
	if err := w.workloadErr(workload); err != nil {
		return err
	}
	cells := w.Cells[workload]
	if cells == nil {
		return nil
	}
	for _, c := range cells {
		if strings.EqualFold(c, strings.TrimSpace(cell)) {
			return nil
		}
	}
	return fmt.Errorf("%s has no %s cell %q (accepted: %s)", w.Name, workload, cell, strings.Join(cells, ", "))
}

// Args renders req as this worker's command line (its arguments after the
// executable): worker --workload W --cell C [--pin CPUS] --set NAME=VALUE...,
// parameters under their canonical names in sorted order. A parameter the
// worker does not accept is left out when the worker always runs with that
// value (Fixed: passes=1 on a worker before passes); otherwise it is an
// error, as are a workload the worker lacks and --pin on a worker without
// it. Args does not check the cell (see CheckCell).
func (w *WorkerInfo) Args(req WorkerRequest) ([]string, error) {
	if err := w.workloadErr(req.Workload); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Cell) == "" {
		return nil, fmt.Errorf("%s: a %s run needs a cell", w.Name, req.Workload)
	}
	args := []string{"worker", "--workload", req.Workload, "--cell", req.Cell}
	if req.Pin != "" {
		if !slices.Contains(w.Flags, "pin") {
			return nil, fmt.Errorf("%s has no --pin flag (its flags: %s)", w.Name, strings.Join(w.Flags, ", "))
		}
		args = append(args, "--pin", req.Pin)
	}
	params, err := canonicalParams(req.Params)
	if err != nil {
		return nil, err
	}
	for _, name := range sortedKeys(params) {
		v := params[name]
		if w.accepts(req.Workload, name) {
			args = append(args, "--set", name+"="+v)
			continue
		}
		if f, ok := w.fixed(req.Workload, name); ok {
			if sameValue(f, v) {
				continue
			}
			return nil, fmt.Errorf("%s always runs %s %s=%s (it has no parameter %s): %s=%s cannot be expressed",
				w.Name, req.Workload, name, f, name, name, v)
		}
		return nil, fmt.Errorf("%s has no %s parameter %s (accepted: %s)",
			w.Name, req.Workload, name, strings.Join(w.Workloads[req.Workload], ", "))
	}
	return args, nil
}

// MatchSides returns the parameters that make every side measure the same
// thing, for each side to render with its own Args, and notes that say
// where a side could only run the nearest equivalent. params should hold
// every parameter (msgpass.Params.Map()), so that no side falls back to a
// default of its own.
//
// The rules, in order:
//   - every side must have the workload;
//   - if a side predates passes (Fixed passes=1, warmup-passes=0), every side
//     runs passes=1 and, where it can, warmup-passes=0: one measured pass and
//     no warm-up, as that side does. A note says so, and says which side
//     cannot skip its warm-up pass (a worker from 8e283c8 up to protocol 1).
//     An explicit warmup-passes other than 0 is refused;
//   - a parameter a side does not accept is kept if that side always runs
//     the asked value (Fixed), dropped with a note if the value is the
//     default of every side that accepts it (those run it by default), and
//     refused otherwise.
//
// Every error is one line naming the side and the parameter.
func MatchSides(workload string, params map[string]string, sides ...*WorkerInfo) (common map[string]string, notes []string, err error) {
	if len(sides) == 0 {
		return nil, nil, errors.New("match sides: no side")
	}
	for _, s := range sides {
		if err := s.workloadErr(workload); err != nil {
			return nil, nil, err
		}
	}
	common, err = canonicalParams(params)
	if err != nil {
		return nil, nil, err
	}
	notes, err = matchPasses(workload, common, sides)
	if err != nil {
		return nil, nil, err
	}
	for _, name := range sortedKeys(common) {
		note, err := matchParam(workload, name, common, sides)
		if err != nil {
			return nil, nil, err
		}
		if note != "" {
			notes = append(notes, note)
		}
	}
	return common, notes, nil
}

// matchPasses applies MatchSides' passes rule to common.
func matchPasses(workload string, common map[string]string, sides []*WorkerInfo) ([]string, error) {
	var before, noSkip []*WorkerInfo // sides without passes; sides that always warm up
	for _, s := range sides {
		if f, ok := s.fixed(workload, ParamPasses); ok && sameValue(f, "1") {
			before = append(before, s)
		}
		if f, ok := s.fixed(workload, ParamWarmupPasses); ok && !sameValue(f, "0") {
			noSkip = append(noSkip, s)
		}
	}
	if len(before) == 0 {
		return nil, nil
	}
	asked, hasPasses := common[ParamPasses]
	if w, ok := common[ParamWarmupPasses]; ok && !sameValue(w, "0") {
		return nil, fmt.Errorf("%s %s the warm-up pass: %s=%s cannot be expressed there (0 can)",
			names(before), verb(before, "predates", "predate"), ParamWarmupPasses, w)
	}
	instead := ""
	if hasPasses && !sameValue(asked, "1") {
		instead = fmt.Sprintf(" (instead of %s=%s)", ParamPasses, asked)
	}
	common[ParamPasses] = "1"
	if len(noSkip) == 0 {
		common[ParamWarmupPasses] = "0"
		return []string{fmt.Sprintf("%s %s %s and the warm-up pass: %s 1 pass%s, no warm-up",
			names(before), verb(before, "predates", "predate"), ParamPasses, every(len(sides)), instead)}, nil
	}
	// A side that cannot skip its warm-up runs it; the others then run
	// their defaults (a warm-up where they have one) rather than a
	// warmup-passes=0 that side cannot match.
	delete(common, ParamWarmupPasses)
	return []string{fmt.Sprintf("%s %s %s and the warm-up pass: %s 1 measured pass%s; %s always %s an unmeasured warm-up pass first (%s %s %s), %s never %s",
		names(before), verb(before, "predates", "predate"), ParamPasses, every(len(sides)), instead,
		names(noSkip), verb(noSkip, "runs", "run"), verb(noSkip, "it", "they"), verb(noSkip, "predates", "predate"), ParamWarmupPasses,
		names(before), verb(before, "does", "do"))}, nil
}

// matchParam applies MatchSides' last rule to one parameter of common.
func matchParam(workload, name string, common map[string]string, sides []*WorkerInfo) (string, error) {
	v := common[name]
	var lacking []*WorkerInfo
	for _, s := range sides {
		if s.accepts(workload, name) {
			continue
		}
		if f, ok := s.fixed(workload, name); ok {
			if sameValue(f, v) {
				continue
			}
			return "", fmt.Errorf("%s always runs %s %s=%s (it has no parameter %s): %s=%s cannot be expressed there",
				s.Name, workload, name, f, name, name, v)
		}
		lacking = append(lacking, s)
	}
	if len(lacking) == 0 {
		return "", nil
	}
	if len(lacking) == len(sides) {
		return "", fmt.Errorf("%s %s no %s parameter %s (accepted: %s)",
			names(lacking), verb(lacking, "has", "have"), workload, name, strings.Join(sides[0].Workloads[workload], ", "))
	}
	for _, s := range sides {
		if !s.accepts(workload, name) {
			continue
		}
		def, ok := s.Defaults[workload][name]
		if !ok || !sameValue(def, v) {
			return "", fmt.Errorf("%s %s no %s parameter %s, and %s=%s is not the default of %s: it cannot be expressed there",
				names(lacking), verb(lacking, "has", "have"), workload, name, name, v, s.Name)
		}
	}
	delete(common, name)
	return fmt.Sprintf("%s %s no %s parameter %s: the other sides run its default, %s",
		names(lacking), verb(lacking, "has", "have"), workload, name, v), nil
}

// names joins the sides' names for a note: "base (51c97ff)", "a and b".
func names(sides []*WorkerInfo) string {
	ns := make([]string, len(sides))
	for i, s := range sides {
		ns[i] = s.Name
	}
	if len(ns) <= 2 {
		return strings.Join(ns, " and ")
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

// verb is singular for one side, plural for more.
func verb(sides []*WorkerInfo, singular, plural string) string {
	if len(sides) == 1 {
		return singular
	}
	return plural
}

// every says what all n sides do in a note: "both sides run".
func every(n int) string {
	switch n {
	case 1:
		return "it runs"
	case 2:
		return "both sides run"
	}
	return fmt.Sprintf("all %d sides run", n)
}
