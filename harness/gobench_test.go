package harness

import (
	"fmt"
	"strings"
	"testing"
)

func TestDecodeGoBench(t *testing.T) {
	t.Parallel()
	text := `goos: linux
goarch: amd64
cpu: AMD EPYC
pkg: example.com/a
BenchmarkX-2   	 1000	      1726 ns/op	  16 B/op	 1 allocs/op
BenchmarkX-2   	 2000	    0.2950 ns/op
BenchmarkY/n=1-2   	 3	 2.5 sec/op
pkg: example.com/b
BenchmarkX-2   	 1000	      10.5 ns/op
`
	f, err := DecodeGoBench(strings.NewReader(text), "t.txt")
	if err != nil {
		t.Fatal(err)
	}
	if f.Workload != GoBenchWorkload || f.Unit != "op" || f.Machine.OS != "linux" || f.Machine.Arch != "amd64" || f.Machine.CPUModel != "AMD EPYC" {
		t.Fatalf("file header: workload %q unit %q machine %+v", f.Workload, f.Unit, f.Machine)
	}
	want := []struct {
		label string
		ns    []float64
	}{
		{"example.com/a X-2", []float64{1726, 0.295}},
		{"example.com/a Y/n=1-2", []float64{2.5e9}},
		{"example.com/b X-2", []float64{10.5}},
	}
	if len(f.Results) != len(want) {
		t.Fatalf("%d results, want %d: %+v", len(f.Results), len(want), f.Results)
	}
	for i, w := range want {
		r := f.Results[i]
		if r.Label != w.label || len(r.Runs) != len(w.ns) {
			t.Fatalf("result %d: %q with %d runs, want %q with %d", i, r.Label, len(r.Runs), w.label, len(w.ns))
		}
		for j, ns := range w.ns {
			if got := float64(r.Runs[j].WallNs) / float64(r.Runs[j].Cells); got != ns {
				t.Fatalf("%s run %d: %v ns/op, want %v", r.Label, j, got, ns)
			}
		}
	}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	// One package: labels without it.
	g, err := DecodeGoBench(strings.NewReader("pkg: p\nBenchmarkX-2 10 5 ns/op\n"), "one.txt")
	if err != nil || g.Results[0].Label != "X-2" {
		t.Fatalf("one package: %v, %+v", err, g)
	}
}

func TestDecodeGoBenchRefuses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, text, want string }{
		{"empty", "", "no benchmark result line"},
		{"prose", "hello\nworld\n", "no benchmark result line"},
		{"syntax", "BenchmarkX-2 100 abc ns/op\n", "t.txt:1"},
		{"not finite", "BenchmarkX-2 100 NaN ns/op\n", "t.txt:1: benchmark X-2: NaN ns/op: need a finite value"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeGoBench(strings.NewReader(c.text), "t.txt")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestDecodeGoBenchUnits checks that every unit of every line is kept, as
// benchfmt tidies it, with what the text's Unit lines declare; that a
// benchmark without a time per op is read; and that a benchmark under two
// configurations is two results, told apart by the key that differs.
func TestDecodeGoBenchUnits(t *testing.T) {
	t.Parallel()
	text := `Unit text-bytes assume=exact
Unit score better=higher
note: before
BenchmarkSize 1 100 text-bytes
BenchmarkX-2 10 5 ns/op 16 B/op 2.5 MB/s 7 score
BenchmarkZ-2 10 0 ns/op
note: after
BenchmarkSize 1 105 text-bytes
`
	f, err := DecodeGoBench(strings.NewReader(text), "u.txt")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range f.GoBench.Units {
		got = append(got, fmt.Sprintf("%s exact=%v better=%d", u.Name, u.Exact, u.Better))
	}
	want := []string{"text-bytes exact=true better=0", "sec/op exact=false better=-1", "B/op exact=false better=-1",
		"B/s exact=false better=1", "score exact=false better=1"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("units %v, want %v", got, want)
	}
	var labels []string
	for _, r := range f.Results {
		labels = append(labels, r.Label)
	}
	if fmt.Sprint(labels) != "[Size note=before X-2 Z-2 Size note=after]" {
		t.Errorf("labels %q", labels)
	}
	x := f.Results[1].Runs[0]
	if x.Values["sec/op"] != 5e-9 || x.Values["B/op"] != 16 || x.Values["B/s"] != 2.5e6 || x.Values["score"] != 7 ||
		x.WallNs != 5*GoBenchOps || x.Cells != GoBenchOps {
		t.Errorf("X-2's run: %+v", x)
	}
	if z := f.Results[2].Runs[0]; z.Values["sec/op"] != 0 || z.WallNs != 0 || len(z.Values) != 1 {
		t.Errorf("Z-2's 0 ns/op: %+v (want sec/op 0, and no work)", z)
	}
	if s := f.Results[0]; s.Params["note"] != "before" || s.Runs[0].Values["text-bytes"] != 100 || s.Runs[0].Cells != 0 {
		t.Errorf("Size before: %+v", s)
	}
}

func TestDecodeAny(t *testing.T) {
	t.Parallel()
	f, err := DecodeAny(strings.NewReader("  \nBenchmarkX-2 10 5 ns/op\n"), "x.txt")
	if err != nil || f.Workload != GoBenchWorkload {
		t.Fatalf("Go benchmark text: %v, %+v", err, f)
	}
	_, err = DecodeAny(strings.NewReader(` {"schema": "other/v9"}`), "x.json")
	if err == nil || !strings.Contains(err.Error(), `schema "other/v9" is not supported`) {
		t.Fatalf("JSON goes to Decode: got %v", err)
	}
}
