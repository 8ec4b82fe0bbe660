package export

import (
	"bytes"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/rootbench/rootbench/internal/harnesstest"
)

func TestGoBench(t *testing.T) {
	t.Parallel()
	f := fixture()
	var b bytes.Buffer
	if err := GoBench(&b, f); err != nil {
		t.Fatal(err)
	}
	rd := benchfmt.NewReader(&b, "export")
	count := map[string]int{}
	var iters []int
	var secs []float64
	for rd.Scan() {
		rec, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			t.Fatalf("unexpected record %#v", rd.Result())
		}
		count[rec.Name.String()]++
		iters = append(iters, rec.Iters)
		for key, want := range map[string]string{"goos": "linux", "goarch": "amd64", "cpu": "Test CPU @ 2.0GHz", "workload": "msgpass",
			"unit": "cell", "machine": "bench-host", "go-version": "go1.26.0", "revision": "abc123", "niters": "100000", "max-delay": "-1"} {
			if got := rec.GetConfig(key); got != want {
				t.Errorf("config %s = %q, want %q", key, got, want)
			}
		}
		if got := rec.GetConfig("batch-size"); got != "" {
			t.Errorf("a varying parameter belongs in the name, not the config (%q)", got)
		}
		sec, ok1 := rec.Value("sec/op")
		bop, ok2 := rec.Value("B/op")
		allocs, ok3 := rec.Value("allocs/op")
		_, ok4 := rec.Value("gc-cpu-%")
		_, ok5 := rec.Value("peak-RSS-bytes")
		if !(ok1 && ok2 && ok3 && ok4 && ok5) || len(rec.Values) != 5 {
			t.Errorf("%s: units = %+v", rec.Name, rec.Values)
		}
		secs = append(secs, sec)
		// Every run of the fixture allocates the same per cell.
		run := f.Results[0].Runs[0]
		wantB, wantAllocs := float64(run.GC.HeapAllocBytes)/float64(run.Cells), float64(run.GC.HeapAllocObjs)/float64(run.Cells)
		if bop != wantB || allocs != wantAllocs {
			t.Errorf("%s: %v B/op %v allocs/op, want %v and %v per cell", rec.Name, bop, allocs, wantB, wantAllocs)
		}
		base, parts := rec.Name.Parts()
		if string(base) != "Msgpass" || len(parts) != 3 || string(parts[2]) != "-2" {
			t.Errorf("name %s: base %s parts %q", rec.Name, base, parts)
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"Msgpass/cell=boxroot/batch-size=1024-2": 3,
		"Msgpass/cell=ocaml/batch-size=1024-2":   3,
		"Msgpass/cell=boxroot/batch-size=16-2":   2, // one of its three runs failed
	}
	if !reflect.DeepEqual(count, want) {
		t.Errorf("results per name = %v, want one per successful run %v", count, want)
	}
	// iterations × sec/op is each successful run's wall time.
	var walls []float64
	for _, r := range f.Results {
		for _, run := range r.Runs {
			if !run.Failed {
				walls = append(walls, float64(run.WallNs)/1e9)
			}
		}
	}
	for i := range walls {
		if iters[i] != harnesstest.SeedCells || math.Abs(float64(iters[i])*secs[i]-walls[i]) > 1e-9 {
			t.Errorf("result %d: %d × %v sec/op, want %d cells and %v s in all", i, iters[i], secs[i], harnesstest.SeedCells, walls[i])
		}
	}
}

func TestGoBenchNames(t *testing.T) {
	t.Parallel()
	f := fixture()
	f.Workload, f.Unit = "call back", "call"
	f.Machine.GOMAXPROCS = 0
	f.Results[0].Cell = "boxroot:force remote/x"
	for i := range f.Results {
		f.Results[i].Params["max-delay"] = strconv.Itoa(-i - 1) // varies, and ends in -digits
	}
	var b bytes.Buffer
	if err := GoBench(&b, f); err != nil {
		t.Fatal(err)
	}
	rd := benchfmt.NewReader(&b, "export")
	var names []string
	for rd.Scan() {
		rec := rd.Result().(*benchfmt.Result)
		if rec.GetConfig("unit") != "call" {
			t.Errorf("unit config = %q", rec.GetConfig("unit"))
		}
		base, parts := rec.Name.Parts()
		if string(base) != "Callback" || len(parts) != 4 || string(parts[3]) != "-1" || !strings.HasPrefix(string(parts[2]), "/max-delay=-") {
			t.Errorf("name %s: base %s parts %q", rec.Name, base, parts)
		}
		names = append(names, rec.Name.String())
	}
	if len(names) == 0 || names[0] != "Callback/cell=boxroot:force_remote_x/batch-size=1024/max-delay=-1-1" {
		t.Errorf("names = %q", names)
	}

	f.Results[1].Runs[0].Cells = 0
	if err := GoBench(io.Discard, f); err == nil || !strings.Contains(err.Error(), "ocaml") {
		t.Errorf("a successful run without cells should fail naming the result, got %v", err)
	}
}
