// Package impls is the catalog of root-handle implementations: it maps a
// cell name (or alias) to the implementation, its description and whether
// this build can run it, and binds each implementation to the workloads.
//
// Each implementation lives in its own package under impls/ and imports only
// cell; this package is the one place that knows them all.
//
// Test builds (tag rootbench_faulty) add the deliberately broken cells of
// impls/faulty, hidden from listings, and honour SlowEnv, a planted slowdown
// of named cells; shipped builds have neither.
package impls

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/impls/boxroot"
	"github.com/rootbench/rootbench/impls/bxboxed"
	"github.com/rootbench/rootbench/impls/generational"
	"github.com/rootbench/rootbench/impls/ocaml"
	"github.com/rootbench/rootbench/impls/ref"
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
	// Ablation marks boxroot's ablation variants (boxroot:<variant>).
	Ablation bool
	// Hidden marks test-only cells (built only with the rootbench_faulty
	// tag): never listed, never in the default set, reachable only by their
	// exact name.
	Hidden bool

	// rootHandle is the cell's drop-in handle API, if it has one (see
	// RootHandleFor).
	rootHandle RootHandle
	run        func(ctx context.Context, p msgpass.Params) (msgpass.Result, error)
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

// bind makes an Entry for an implementation of any cell type: the generic
// workload is instantiated here, where the cell type is known.
func bind[C any](name string, aliases []string, desc string, newImpl func() cell.Impl[C]) Entry {
	return Entry{
		Name:        name,
		Aliases:     aliases,
		Description: desc,
		run: func(ctx context.Context, p msgpass.Params) (msgpass.Result, error) {
			return msgpass.Run(ctx, newImpl(), p)
		},
	}
}

func catalog() []Entry {
	entries := []Entry{
		bind("ocaml", []string{"direct"},
			"control: the cell is the value itself, no rooting work", ocaml.New),
		bind("boxroot", nil,
			"Go boxroot: domain-owned pools of slots, integer handles, lock-free batched remote frees",
			func() cell.Impl[boxroot.Handle] { return boxroot.New(boxroot.Options{}) }),
		bind("ref", []string{"ocaml-ref"},
			"a fresh heap box holding the value; delete clears it, the GC frees it", ref.New),
		bind("generational", nil,
			"a heap box registered in one global registry under one mutex (OCaml's global roots)", generational.New),
		bind("bxboxed", []string{"bx-boxed", "boxroot-boxed"},
			"one extra heap allocation per cell (a box), the box rooted through boxroot", bxboxed.New),
		cgoHandleEntry(),
		boxrootHandleEntry(),
	}
	for _, v := range boxroot.Variants() {
		opts := v.Options
		e := bind("boxroot:"+v.Name, nil, "ablation: "+v.Description,
			func() cell.Impl[boxroot.Handle] { return boxroot.New(opts) })
		e.Ablation = true
		entries = append(entries, e)
	}
	return append(entries, testOnlyEntries()...)
}

// boxrootHandleEntry is boxroot's drop-in API as a cell, and as the callback
// workload's boxroot-handle.
func boxrootHandleEntry() Entry {
	e := bind("boxroot-handle", nil,
		"boxroot behind a drop-in runtime/cgo.Handle-shaped API (no explicit domains)", boxroot.HandleImpl)
	e.rootHandle = boxrootHandle{}
	return e
}

var entries = catalog()

// All returns every cell that is not test-only, available or not, in
// catalog order.
func All() []Entry {
	var out []Entry
	for _, e := range entries {
		if !e.Hidden {
			out = append(out, e)
		}
	}
	return out
}

// Default returns the cells `rootbench run` measures when no cell is named:
// every available cell that is not test-only.
func Default() []Entry {
	var out []Entry
	for _, e := range All() {
		if e.Available() {
			out = append(out, e)
		}
	}
	return out
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
	n := strings.ToLower(strings.TrimSpace(name))
	for _, e := range entries {
		if strings.ToLower(e.Name) == n {
			return e, nil
		}
		for _, a := range e.Aliases {
			if strings.ToLower(a) == n {
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
// without duplicates. "all" stands for Default(). Unknown and unavailable
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
		if strings.EqualFold(strings.TrimSpace(n), "all") {
			for _, e := range Default() {
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
