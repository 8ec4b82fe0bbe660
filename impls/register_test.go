package impls

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/impls/ref"
	"github.com/rootbench/rootbench/workload/msgpass"
)

// Registration tests add cells to the process's one catalog, which only
// grows: each registers names of its own, made unique by fresh (so that
// -count=N runs them again in one process).

var freshSeq atomic.Int64

// fresh returns prefix with a number no earlier call returned.
func fresh(prefix string) string { return fmt.Sprintf("%s-%d", prefix, freshSeq.Add(1)) }

// countingImpl is a ref cell that counts the implementations made, to show
// that a registered cell runs on a fresh one per pass.
func countingImpl(n *atomic.Int64) func() cell.Impl[*ref.Box] {
	return func() cell.Impl[*ref.Box] {
		n.Add(1)
		return ref.New()
	}
}

func TestRegisteredCellRunsEverywhereABuiltInDoes(t *testing.T) {
	var made atomic.Int64
	name, alias := fresh("test-outsider"), fresh("Test-Outsider-Alias")
	if err := Register(name, "a ref cell registered by a test", countingImpl(&made), alias); err != nil {
		t.Fatal(err)
	}
	e, err := Lookup(strings.ToUpper(alias))
	if err != nil || e.Name != name || e.Builtin || e.Hidden || e.Ablation || !e.Available() {
		t.Fatalf("Lookup by alias = %+v, %v; want the registered, available, listed cell", e, err)
	}
	p := msgpass.DefaultParams()
	p.NIters, p.BatchSize = 4, 16
	res, err := e.RunMsgPass(context.Background(), p)
	if err != nil || res.Cells != int64(p.NIters*p.BatchSize) || made.Load() != 1 {
		t.Fatalf("RunMsgPass = %+v, %v with %d implementations made; want %d cells on one fresh implementation", res, err, made.Load(), p.NIters*p.BatchSize)
	}
	for which, set := range map[string][]Entry{"All": All(), "Every": Every(), "Default": Default()} {
		if !contains(Names(set), name) {
			t.Errorf("%s() lacks the registered cell", which)
		}
	}
	if e, _ := Lookup("boxroot"); !e.Builtin {
		t.Error("boxroot is not marked built-in")
	}
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

func TestRegisterRefusesCollisionsWithOneLineNamingTheHolder(t *testing.T) {
	holder, holderAlias, holderHandle := fresh("test-holder"), fresh("test-holder-alias"), fresh("test-holder-handle")
	if err := Register(holder, "a holder", ref.New, holderAlias); err != nil {
		t.Fatal(err)
	}
	if err := RegisterHandle(holderHandle, "a handle", boxrootHandle{}); err != nil {
		t.Fatal(err)
	}
	n := func(i int) string { return fmt.Sprintf("%s-new-%d", holder, i) }
	for _, c := range []struct {
		name    string
		aliases []string
		want    []string
	}{
		{"boxroot", nil, []string{`"boxroot"`, "taken by the built-in cell boxroot"}},
		{"BoxRoot", nil, []string{"taken by the built-in cell boxroot"}},
		{"direct", nil, []string{`taken by the built-in cell ocaml (alias "direct")`}},
		{n(1), []string{"cgo"}, []string{`alias "cgo"`, "the built-in cell cgo-handle"}},
		{n(2), []string{strings.ToUpper(holder)}, []string{"taken by cell " + holder}},
		{n(3), []string{holderAlias}, []string{fmt.Sprintf("cell %s (alias %q)", holder, holderAlias)}},
		{n(4), []string{holderHandle}, []string{"taken by handle " + holderHandle}},
		{"ALL", nil, []string{`reserved word "all"`}},
		{"none", nil, []string{`reserved word "none"`}},
		{n(5), []string{"all"}, []string{`reserved word "all"`}},
		{n(6), []string{"x", "X"}, []string{"given twice"}},
		{"my cell", nil, []string{"letters, digits"}},
		{"a,b", nil, []string{"letters, digits"}},
		{"", nil, []string{"letters, digits"}},
		{n(7), []string{"a=b"}, []string{"letters, digits"}},
	} {
		err := Register(c.name, "a colliding cell", ref.New, c.aliases...)
		checkOneLine(t, fmt.Sprintf("Register(%q, aliases %q)", c.name, c.aliases), err, c.want)
	}
	// A refused registration registers nothing, not even its free names.
	for _, name := range []string{n(1), n(2), n(4), n(6), "x"} {
		if _, err := lookup(name); err == nil {
			t.Errorf("%s was registered by a refused Register", name)
		}
	}
	if err := Register(n(8), "a cell", ref.New); err != nil {
		t.Errorf("a free name was refused: %v", err)
	}
	var nilImpl func() cell.Impl[*ref.Box]
	checkOneLine(t, "Register(nil newImpl)", Register(n(9), "a cell", nilImpl), []string{"newImpl is nil"})
	checkOneLine(t, "Register(two-line description)", Register(n(10), "one\ntwo", ref.New), []string{"one line"})
}

func TestRegisterHandleRefusesCollisions(t *testing.T) {
	h := boxrootHandle{}
	for _, c := range []struct {
		name string
		want []string
	}{
		{"boxroot-handle", []string{"taken by the built-in handle boxroot-handle"}},
		{"NONE", []string{`reserved word "none"`}},
		{"ocaml-ref", []string{`the built-in cell ref (alias "ocaml-ref")`}},
		{"bad name", []string{"letters, digits"}},
	} {
		checkOneLine(t, fmt.Sprintf("RegisterHandle(%q)", c.name), RegisterHandle(c.name, "a handle", h), c.want)
	}
	checkOneLine(t, "RegisterHandle(nil)", RegisterHandle(fresh("test-nil-handle"), "a handle", nil), []string{"nil"})
	// A handle may take a cell's canonical name: it is that cell's drop-in
	// API, and answers to the cell's aliases.
	pair, pairAlias := fresh("test-pair"), fresh("test-pair-alias")
	if err := Register(pair, "a cell with a handle", ref.New, pairAlias); err != nil {
		t.Fatal(err)
	}
	if err := RegisterHandle(pair, "its handle", h); err != nil {
		t.Fatalf("a handle named after its cell was refused: %v", err)
	}
	for _, n := range []string{pair, strings.ToUpper(pairAlias)} {
		got, err := RootHandleFor(n)
		if err != nil || got != RootHandle(h) {
			t.Errorf("RootHandleFor(%q) = %v, %v; want the registered handle", n, got, err)
		}
	}
	if !contains(HandleNames(), pair) {
		t.Errorf("HandleNames() = %v lacks %s", HandleNames(), pair)
	}
}

// checkOneLine asserts err is one line containing every want.
func checkOneLine(t *testing.T, what string, err error, want []string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error; want one containing %q", what, want)
		return
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") {
		t.Errorf("%s: error of several lines:\n%s", what, msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("%s: error %q lacks %q", what, msg, w)
		}
	}
}

// FuzzRegister registers names and aliases as a program might spell them:
// Register never panics, fails with one line, or succeeds once, after which
// every spelling finds the cell and registering it again fails.
func FuzzRegister(f *testing.F) {
	for _, s := range []string{"fz-a", "fz-b,fz-c", "Boxroot", "fz-d,CGO", "all", "fz-e,fz-e", "", ",", "fz f", "fz-g,none", "fz:h.i+j_k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		parts := strings.Split(spec, ",")
		name, aliases := parts[0], parts[1:]
		err := Register(name, "a fuzzed cell", ref.New, aliases...)
		if err != nil {
			if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
				t.Fatalf("Register(%q, %q) error %q: want one line", name, aliases, msg)
			}
			return
		}
		for _, n := range parts {
			if e, err := lookup(n); err != nil || e.Name != name {
				t.Fatalf("after Register(%q, %q), lookup(%q) = %q, %v", name, aliases, n, e.Name, err)
			}
		}
		if err := Register(name, "again", ref.New); err == nil {
			t.Fatalf("Register(%q) succeeded twice", name)
		}
	})
}
