package impls

import (
	"strings"
	"testing"
)

func TestLookupNamesAndAliases(t *testing.T) {
	for name, want := range map[string]string{
		"ocaml": "ocaml", "direct": "ocaml", "OCaml": "ocaml",
		"ref": "ref", "ocaml-ref": "ref",
		"bx-boxed": "bxboxed", "boxroot-boxed": "bxboxed", "bxboxed": "bxboxed",
		"cgo": "cgo-handle", "generational": "generational",
		"boxroot:no-reuse": "boxroot:no-reuse", " Boxroot:Force-Remote ": "boxroot:force-remote",
		"boxroot-handle": "boxroot-handle",
	} {
		e, err := Lookup(name)
		if err != nil || e.Name != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", name, e.Name, err, want)
		}
	}
}

func TestLookupErrorsListWhatIsAccepted(t *testing.T) {
	_, err := Lookup("nosuch")
	if err == nil || !strings.Contains(err.Error(), "nosuch") || !strings.Contains(err.Error(), "boxroot") || !strings.Contains(err.Error(), "ocaml-ref") {
		t.Errorf("Lookup(nosuch) error = %v", err)
	}
	if strings.Contains(err.Error(), "faulty") {
		t.Errorf("the error lists test-only cells: %v", err)
	}
	_, err = Lookup("boxroot:nosuch")
	if err == nil || !strings.Contains(err.Error(), "force-remote") || !strings.Contains(err.Error(), "locked-remote") {
		t.Errorf("Lookup(boxroot:nosuch) error = %v", err)
	}
}

func TestResolve(t *testing.T) {
	es, err := Resolve([]string{"boxroot", "direct", "ocaml", "boxroot:no-reuse"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(Names(es), ","); got != "boxroot,ocaml,boxroot:no-reuse" {
		t.Errorf("Resolve kept order and dropped duplicates wrongly: %s", got)
	}
	all, err := Resolve([]string{"all"})
	if err != nil || len(all) != len(Every()) {
		t.Errorf("Resolve(all) = %d cells, %v; want %d", len(all), err, len(Every()))
	}
	ablations := 0
	for _, e := range all {
		if e.Hidden || !e.Available() {
			t.Errorf("all holds %s (hidden %v, available %v)", e.Name, e.Hidden, e.Available())
		}
		if e.Ablation {
			ablations++
		}
	}
	if ablations == 0 {
		t.Error("all holds no boxroot ablation")
	}
	for _, e := range Default() {
		if e.Hidden || !e.Available() || e.Ablation {
			t.Errorf("the default set holds %s (hidden %v, available %v, ablation %v)", e.Name, e.Hidden, e.Available(), e.Ablation)
		}
	}
	if len(Default())+ablations != len(all) {
		t.Errorf("the default set (%d) and the ablations (%d) are not all (%d)", len(Default()), ablations, len(all))
	}
	if _, err := Resolve(nil); err == nil {
		t.Error("Resolve(nil) should fail: no cells")
	}
}

func TestEveryCellIsDescribed(t *testing.T) {
	for _, e := range entries() {
		if e.Name == "" || e.Description == "" {
			t.Errorf("entry %+v lacks a name or description", e)
		}
		if e.Available() == (e.Unavailable != "") {
			t.Errorf("%s: Available() disagrees with Unavailable %q", e.Name, e.Unavailable)
		}
	}
}

// FuzzResolve feeds cell lists as users type them (names, aliases,
// boxroot:<variant>, case and spaces) to Resolve: it never panics, and it
// either fails with a message or returns known, available, unique cells.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"boxroot", "ocaml,boxroot", "all", "boxroot:no-reuse,boxroot:nosuch", "BX-BOXED, direct", "", ",", "boxroot:", ":", "faulty:leak", "faulty:crash"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		es, err := Resolve(strings.Split(list, ","))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		seen := map[string]bool{}
		for _, e := range es {
			if seen[e.Name] || !e.Available() {
				t.Fatalf("Resolve(%q) returned %s twice or unavailable", list, e.Name)
			}
			seen[e.Name] = true
			if _, err := Lookup(e.Name); err != nil {
				t.Fatalf("Resolve(%q) returned %s, which Lookup does not know", list, e.Name)
			}
		}
	})
}

func TestRootHandleFor(t *testing.T) {
	names := []string{"boxroot-handle"}
	if e, _ := Lookup("cgo-handle"); e.Available() {
		names = append(names, "cgo", "CGO-Handle")
	}
	for _, name := range names {
		h, err := RootHandleFor(name)
		if err != nil {
			t.Fatalf("RootHandleFor(%q): %v", name, err)
		}
		v := new(int)
		hd := h.New(v)
		if got, ok := h.Value(hd).(*int); !ok || got != v {
			t.Errorf("%s: Value(New(v)) = %v, want v", name, h.Value(hd))
		}
		h.Delete(hd)
	}
	_, err := RootHandleFor("ref")
	if err == nil || !strings.Contains(err.Error(), "no drop-in handle API") || !strings.Contains(err.Error(), "boxroot-handle") {
		t.Errorf("RootHandleFor(ref) error = %v; want one saying so and listing boxroot-handle", err)
	}
	if _, err := RootHandleFor("nosuch"); err == nil || !strings.Contains(err.Error(), "boxroot-handle") {
		t.Errorf("RootHandleFor(nosuch) error = %v; want one listing boxroot-handle", err)
	}
}
