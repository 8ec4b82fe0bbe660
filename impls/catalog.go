// Package impls is the catalog of root-handle implementations: it maps a
// cell name (or alias) to the implementation, its description and whether
// this build can run it, and binds each implementation to the workloads. It
// also maps the callback workload's handle names to their RootHandle.
//
// The catalog is filled by registration, one path for everyone: the
// built-in cells and handles register at package initialisation
// (builtin.go) through Register and RegisterHandle, the functions an
// outside program calls (directly, or through the root package rootbench's
// WithCell and WithHandle) before it runs the CLI. Register is generic over
// the cell type: it instantiates the message-passing workload for it, so the
// catalog itself holds no cell type.
//
// Each built-in implementation lives in its own package under impls/ and
// imports only cell; this package is the one place that knows them all.
//
// Test builds (tag rootbench_faulty) add the deliberately broken cells of
// impls/faulty, hidden from listings, and honour SlowEnv, a planted slowdown
// of named cells; shipped builds have neither.
package impls

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/impls/boxroot"
	"github.com/rootbench/rootbench/workload/msgpass"
)

// Entry is one cell of the catalog.
type Entry struct {
	// Name is the canonical name, e.g. "boxroot" or "boxroot:no-reuse".
	Name string
	// Aliases are other accepted names (the OCaml benchmark's spellings).
	Aliases []string
	// Description is one line saying what a cell is.
	Description string
	// Unavailable says why this build cannot run the cell ("" when it can).
	Unavailable string
	// Ablation marks boxroot's ablation variants (boxroot:<variant>): listed
	// and in "all", but not in the default set.
	Ablation bool
	// Hidden marks test-only cells (built only with the rootbench_faulty
	// tag): never listed, never in the default set, reachable only by their
	// exact name.
	Hidden bool
	// Builtin marks the cells of this repository, registered by package
	// impls itself; cells a program registers have Builtin false.
	Builtin bool

	run func(ctx context.Context, p msgpass.Params) (msgpass.Result, error)
}

// Available reports whether this build can run the cell.
func (e Entry) Available() bool { return e.Unavailable == "" && e.run != nil }

// RunMsgPass runs the message-passing workload once on a fresh instance of
// the implementation.
func (e Entry) RunMsgPass(ctx context.Context, p msgpass.Params) (msgpass.Result, error) {
	if !e.Available() {
		return msgpass.Result{}, fmt.Errorf("cell %q is unavailable: %s", e.Name, e.Unavailable)
	}
	res, err := e.run(ctx, p)
	if err != nil {
		return res, fmt.Errorf("cell %s: %w", e.Name, err)
	}
	return res, nil
}

// Register adds a cell to the catalog: name (and any aliases) then selects
// newImpl in every command (`rootbench run --cell NAME`, list, compare, ab,
// the worker), and the message-passing workload runs on a fresh
// newImpl() per pass. The generic workload is instantiated here, where the
// cell type C is known. The cell joins the default set.
//
// Names are matched case-insensitively. A name or alias already held by a
// cell (name or alias), a handle's name, or one of the reserved words "all"
// and "none" is refused with an error of one line naming its holder; so is a
// name that is empty or holds anything but letters, digits and - _ . : +
// (a name must fit a comma-separated --cell list). Nothing is registered
// when Register fails.
//
// Register is safe for concurrent use; register before running the CLI
// (rootbench.Main does).
func Register[C any](name, description string, newImpl func() cell.Impl[C], aliases ...string) error {
	if newImpl == nil {
		return fmt.Errorf("cannot register cell %q: newImpl is nil", name)
	}
	return register(bind(name, description, newImpl, aliases))
}

// bind makes an Entry for an implementation of any cell type: the generic
// workload is instantiated here, where the cell type is known.
func bind[C any](name, desc string, newImpl func() cell.Impl[C], aliases []string) Entry {
	return Entry{
		Name:        name,
		Aliases:     aliases,
		Description: desc,
		run: func(ctx context.Context, p msgpass.Params) (msgpass.Result, error) {
			return msgpass.Run(ctx, newImpl(), p)
		},
	}
}

// catalog is the registry of cells and handles. Its lists only grow, in
// registration order (the order `rootbench list` shows).
type catalog struct {
	mu      sync.RWMutex
	cells   []Entry
	handles []Handle
	// builtin is true while package impls registers its own cells and
	// handles (see builtin.go), which marks them Builtin.
	builtin bool
}

var reg catalog

// reserved are the words no cell or handle may be called: "all" selects
// every cell, "none" is the callback workload's absence of a handle.
var reserved = []string{"all", "none"}

// key is the form names are compared in.
func key(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// nameRule says which names validName accepts, for refusals.
const nameRule = "accepted names are letters, digits and - _ . : + (no spaces or commas)"

// validName reports whether name may be registered: letters, digits and
// - _ . : + only, so that it fits a comma-separated --cell list and a
// NAME=VALUE setting.
func validName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("-_.:+", r):
		default:
			return false
		}
	}
	return true
}

// checkDescription refuses an empty or multi-line description.
func checkDescription(what, name, desc string) error {
	if strings.TrimSpace(desc) == "" || strings.ContainsAny(desc, "\r\n") {
		return fmt.Errorf("cannot register %s %q: the description must be one line, not empty", what, name)
	}
	return nil
}

// holder returns who holds name, or "" when it is free: a reserved word,
// a cell's alias, a cell's name (when cellNames) or a handle's name (when
// handleNames). Cell names are checked for every cell name and alias; a
// handle's name may equal a cell's name (the handle is then that cell's
// drop-in API) but no alias, and a cell's alias no handle's name, which
// would make one name mean one thing for --cell and another for --handle.
// The caller holds c.mu.
func (c *catalog) holder(name string, cellNames, handleNames bool) string {
	k := key(name)
	if r := reservedHolder(k); r != "" {
		return r
	}
	for _, e := range c.cells {
		if cellNames && key(e.Name) == k {
			return e.kind() + " " + e.Name
		}
		for _, a := range e.Aliases {
			if key(a) == k {
				return fmt.Sprintf("%s %s (alias %q)", e.kind(), e.Name, a)
			}
		}
	}
	for _, h := range c.handles {
		if handleNames && key(h.Name) == k {
			return h.kind() + " " + h.Name
		}
	}
	return ""
}

// reservedHolder names the reserved word k is, or returns "".
func reservedHolder(k string) string {
	for _, r := range reserved {
		if k == r {
			return fmt.Sprintf("the reserved word %q (\"all\" selects every cell, \"none\" means no handle)", r)
		}
	}
	return ""
}

// kind names the entry for collision messages.
func (e Entry) kind() string {
	if e.Builtin {
		return "the built-in cell"
	}
	return "cell"
}

// register is the one path into the cell catalog: Register and the
// built-ins (builtin.go) come through it.
func register(e Entry) error {
	if !validName(e.Name) {
		return fmt.Errorf("cannot register cell %q: %s", e.Name, nameRule)
	}
	if err := checkDescription("cell", e.Name, e.Description); err != nil {
		return err
	}
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if h := reg.holder(e.Name, true, false); h != "" {
		return fmt.Errorf("cannot register cell %q: the name is taken by %s", e.Name, h)
	}
	seen := map[string]bool{key(e.Name): true}
	for _, a := range e.Aliases {
		if !validName(a) {
			return fmt.Errorf("cannot register cell %q: alias %q: %s", e.Name, a, nameRule)
		}
		if seen[key(a)] {
			return fmt.Errorf("cannot register cell %q: alias %q is given twice (or equals the name)", e.Name, a)
		}
		seen[key(a)] = true
		if h := reg.holder(a, true, true); h != "" {
			return fmt.Errorf("cannot register cell %q: its alias %q is taken by %s", e.Name, a, h)
		}
	}
	e.Aliases = append([]string(nil), e.Aliases...)
	e.Builtin = reg.builtin
	reg.cells = append(reg.cells, e)
	return nil
}

// entries returns a snapshot of every registered cell, hidden ones
// included, in registration order.
func entries() []Entry {
	reg.mu.RLock()
	defer reg.mu.RUnlock()
	return append([]Entry(nil), reg.cells...)
}

// All returns every cell that is not test-only, available or not, in
// registration order.
func All() []Entry {
	return slices.DeleteFunc(entries(), func(e Entry) bool { return e.Hidden })
}

// Every returns the cells "all" stands for: every available cell that is
// not test-only, ablations included.
func Every() []Entry {
	return slices.DeleteFunc(All(), func(e Entry) bool { return !e.Available() })
}

// Default returns the cells `rootbench run` measures when no cell is named:
// every available cell that is neither test-only nor an ablation (one
// figure per implementation; "all" adds boxroot's ablations).
func Default() []Entry {
	return slices.DeleteFunc(Every(), func(e Entry) bool { return e.Ablation })
}

// Names returns the canonical names of the listed cells.
func Names(es []Entry) []string {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Name
	}
	return names
}

// Lookup finds a cell by name or alias, case-insensitively. The error lists
// the accepted names. In a test build (tag rootbench_faulty) the entry runs
// with the slowdown ROOTBENCH_SLOW plants on it, if any; a shipped build
// refuses to look anything up while ROOTBENCH_SLOW is set (see SlowEnv).
func Lookup(name string) (Entry, error) {
	e, err := lookup(name)
	if err != nil {
		return Entry{}, err
	}
	return plant(e)
}

// lookup is Lookup without the planted slowdown.
func lookup(name string) (Entry, error) {
	n := key(name)
	for _, e := range entries() {
		if key(e.Name) == n {
			return e, nil
		}
		for _, a := range e.Aliases {
			if key(a) == n {
				return e, nil
			}
		}
	}
	if rest, ok := strings.CutPrefix(n, "boxroot:"); ok {
		var vs []string
		for _, v := range boxroot.Variants() {
			vs = append(vs, v.Name)
		}
		return Entry{}, fmt.Errorf("unknown boxroot variant %q (accepted: %s)", rest, strings.Join(vs, ", "))
	}
	return Entry{}, fmt.Errorf("unknown cell %q (accepted: %s; or \"all\")", name, strings.Join(acceptedNames(), ", "))
}

func acceptedNames() []string {
	var names []string
	for _, e := range All() {
		names = append(names, e.Name)
		names = append(names, e.Aliases...)
	}
	sort.Strings(names)
	return names
}

// Resolve turns a list of cell names into entries, in the order given,
// without duplicates. "all" stands for Every(). Unknown and unavailable
// cells are errors.
func Resolve(names []string) ([]Entry, error) {
	var out []Entry
	seen := map[string]bool{}
	add := func(e Entry) {
		if !seen[e.Name] {
			seen[e.Name] = true
			out = append(out, e)
		}
	}
	for _, n := range names {
		if key(n) == "all" {
			for _, e := range Every() {
				add(e)
			}
			continue
		}
		e, err := Lookup(n)
		if err != nil {
			return nil, err
		}
		if !e.Available() {
			return nil, fmt.Errorf("cell %q is unavailable in this build: %s", e.Name, e.Unavailable)
		}
		add(e)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no cells given (accepted: %s; or \"all\")", strings.Join(acceptedNames(), ", "))
	}
	return out, nil
}
