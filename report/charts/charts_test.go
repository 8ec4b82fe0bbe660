package charts

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"pgregory.net/rapid"

	"github.com/rootbench/rootbench/harness"
)

// draw is one chart to draw into a path.
type drawFn func(path string) error

func allCharts(files ...*harness.File) map[string]drawFn {
	f := files[0]
	return map[string]drawFn{
		"bars":        func(p string) error { return Bars(files, p, WithNames([]string{"alpha.json"})) },
		"boxes":       func(p string) error { return Boxes(files, p) },
		"scan":        func(p string) error { return Scan(f, "batch-size", p) },
		"progression": func(p string) error { return Progression(f, p, WithLabels(SeriesGroups(f)[0].Labels)) },
	}
}

// pngSize decodes path's PNG header: its width and height in pixels.
func pngSize(t *testing.T, path string) (int, int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: not a PNG: %v", path, err)
	}
	return cfg.Width, cfg.Height
}

// checkPNG asserts path is a decodable PNG of a sensible size.
func checkPNG(t *testing.T, path string) {
	t.Helper()
	if w, h := pngSize(t, path); w < 600 || h < 400 {
		t.Errorf("%s: %dx%d pixels, too small to read", path, w, h)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		t.Errorf("%s: PNG does not decode: %v", path, err)
	}
}

// svgText asserts path is well-formed SVG and returns its text content.
func svgText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var text strings.Builder
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: not well-formed XML: %v", path, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Local
			}
		case xml.CharData:
			text.Write(tok)
			text.WriteString("\n")
		}
	}
	if root != "svg" {
		t.Fatalf("%s: root element %q, want svg", path, root)
	}
	return text.String()
}

func TestChartsAreWrittenAndReadable(t *testing.T) {
	t.Parallel() // PNG rendering is slow under -race
	dir := t.TempDir()
	f := scanFile(1, "alpha", 1)
	for name, draw := range allCharts(f) {
		for _, ext := range []string{".png", ".svg"} {
			p := filepath.Join(dir, name+ext)
			if err := draw(p); err != nil {
				t.Fatalf("%s%s: %v", name, ext, err)
			}
			if ext == ".png" {
				checkPNG(t, p)
			} else {
				svgText(t, p)
			}
		}
	}
	// What a reader needs to see, in the SVGs' text: titles, axis labels,
	// tick labels, legends, all in absolute ns per cell.
	for name, wants := range map[string][]string{
		// Means from 8 to 160 ns per cell: a log axis, labelled 1-2-5.
		"bars":  {"Mean time per cell (error bars ±1σ), log scale", "ns per cell", "ocaml batch-size=16", "bxboxed batch-size=4096", "10", "20", "50", "100"},
		"boxes": {"Time per cell of every run", "ns per cell, log scale", "boxroot batch-size=256", "10", "100"},
		// One line per cell, named in the legend; a tick at each scanned value.
		"scan":        {"Mean time per cell against batch-size", "ns per cell (log scale)", "batch-size (log scale)", "ocaml", "boxroot", "ref", "generational", "bxboxed", "16", "256", "4096", "20", "50", "100"},
		"progression": {"Time per cell in run order (drift check)", "run index (session order)", "ns per cell (log scale)", "ref batch-size=16"},
	} {
		text := svgText(t, filepath.Join(dir, name+".svg"))
		for _, w := range wants {
			if !strings.Contains(text, w) {
				t.Errorf("%s.svg lacks %q", name, w)
			}
		}
		for _, bad := range []string{"median", "relative", "time / "} {
			if name != "boxes" && strings.Contains(text, bad) {
				t.Errorf("%s.svg reads %q: charts plot absolute time per unit", name, bad)
			}
		}
	}
	// No legend on a one-file bars chart; a legend naming each file on a
	// two-file one.
	if text := svgText(t, filepath.Join(dir, "bars.svg")); strings.Contains(text, "alpha.json") {
		t.Error("one-file bars chart has a legend")
	}
	p := filepath.Join(dir, "bars2.svg")
	if err := Bars([]*harness.File{f, scanFile(2, "beta", 1.3)}, p, WithNames([]string{"alpha.json"})); err != nil {
		t.Fatal(err)
	}
	if text := svgText(t, p); !strings.Contains(text, "alpha.json") || !strings.Contains(text, "beta") {
		t.Errorf("two-file bars chart: legend lacks the names alpha.json and beta (host name)")
	}
}

func TestLinearWhenClose(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := scanFile(1, "alpha", 1)
	// One batch size, cells within 10× of each other.
	f.Results = slices.DeleteFunc(f.Results, func(r harness.Result) bool {
		return r.Params["batch-size"] != "4096" || r.Cell == "bxboxed" || r.Cell == "generational"
	})
	for name, draw := range map[string]drawFn{
		"bars":        func(p string) error { return Bars([]*harness.File{f}, p) },
		"boxes":       func(p string) error { return Boxes([]*harness.File{f}, p) },
		"progression": func(p string) error { return Progression(f, p) },
	} {
		p := filepath.Join(dir, name+".svg")
		if err := draw(p); err != nil {
			t.Fatal(err)
		}
		text := svgText(t, p)
		if strings.Contains(text, "log scale") {
			t.Errorf("%s: means within 10× drawn on a log axis", name)
		}
		if !strings.Contains(text, "ns per cell") {
			t.Errorf("%s: no axis in ns per cell", name)
		}
	}
}

func TestDeterministic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := scanFile(3, "alpha", 1)
	for name, draw := range allCharts(f) {
		exts := []string{".svg"}
		if name == "bars" {
			exts = append(exts, ".png") // one PNG: they are slow under -race
		}
		for _, ext := range exts {
			a, b := filepath.Join(dir, name+"-a"+ext), filepath.Join(dir, name+"-b"+ext)
			if err := draw(a); err != nil {
				t.Fatal(err)
			}
			if err := draw(b); err != nil {
				t.Fatal(err)
			}
			da, _ := os.ReadFile(a)
			db, _ := os.ReadFile(b)
			if !bytes.Equal(da, db) {
				t.Errorf("%s%s differs between two renderings of the same input", name, ext)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := scanFile(1, "alpha", 1)
	check := func(what string, err error, wants ...string) {
		t.Helper()
		if err == nil {
			t.Errorf("%s: no error", what)
			return
		}
		for _, w := range wants {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", what, err, w)
			}
		}
	}
	check("jpeg", Bars([]*harness.File{f}, filepath.Join(dir, "x.jpg")), `".jpg"`, ".svg or .png")
	check("no files", Bars(nil, filepath.Join(dir, "x.png")), "no results file")
	check("nil file", Boxes([]*harness.File{nil}, filepath.Join(dir, "x.png")), "missing")
	check("unknown param", Scan(f, "producers", filepath.Join(dir, "x.png")), `"producers"`, "accepted: batch-size")
	check("too many series", Progression(gridFile(1), filepath.Join(dir, "x.png")), "36 configurations", "at most 12", "SeriesGroups")
	check("bad dir", Progression(f, filepath.Join(dir, "no", "such", "x.svg"), WithLabels([]string{"ocaml batch-size=16"})), "x.svg")

	failed := scanFile(1, "alpha", 1)
	for i := range failed.Results {
		for j := range failed.Results[i].Runs {
			failed.Results[i].Runs[j].Failed = true
		}
	}
	check("all failed bars", Bars([]*harness.File{failed}, filepath.Join(dir, "x.png")), "no successful run")
	check("all failed boxes", Boxes([]*harness.File{failed}, filepath.Join(dir, "x.png")), "no successful run")
	check("all failed progression", Progression(failed, filepath.Join(dir, "x.png"), WithLabels([]string{"ocaml batch-size=16"})), "no successful run")
	check("all failed scan", Scan(failed, "batch-size", filepath.Join(dir, "x.png")), "no successful run")
}

func TestScanParams(t *testing.T) {
	t.Parallel()
	f := scanFile(1, "alpha", 1)
	if got := ScanParams(f); !slices.Equal(got, []string{"batch-size"}) {
		t.Errorf("ScanParams = %q, want [batch-size]", got)
	}
	// Two scanned parameters, one with _ separators, and a varying
	// non-numeric one (not a scan).
	for i := range f.Results {
		r := &f.Results[i]
		r.Params["niters"] = []string{"1_000", "100_000"}[i%2]
		r.Params["payload"] = []string{"static", "fresh"}[i%2]
		r.Params["cell"] = r.Cell
	}
	if got := ScanParams(f); !slices.Equal(got, []string{"batch-size", "niters"}) {
		t.Errorf("ScanParams = %q, want [batch-size niters]", got)
	}
	err := Scan(f, "payload", filepath.Join(t.TempDir(), "x.svg"))
	if err == nil || !strings.Contains(err.Error(), "accepted: batch-size, niters") {
		t.Errorf("Scan(payload): %v", err)
	}
	// With another parameter varying, each line is a cell and its value.
	p := filepath.Join(t.TempDir(), "scan.svg")
	if err := Scan(f, "batch-size", p); err != nil {
		t.Fatal(err)
	}
	if text := svgText(t, p); !strings.Contains(text, "boxroot niters=1_000 payload=static") {
		t.Errorf("scan legend does not name the other varying parameters")
	}
}

func TestLogTicks(t *testing.T) {
	t.Parallel()
	labels := func(lo, hi float64) []string {
		var out []string
		for _, tk := range (logTicks{}).Ticks(lo, hi) {
			out = append(out, tk.Label)
		}
		return out
	}
	if got := labels(20, 80); !slices.Equal(got, []string{"20", "50"}) {
		t.Errorf("labels(20, 80) = %q, want [20 50]", got)
	}
	if got := labels(0.1, 50000); !slices.Equal(got, []string{"0.1", "1", "10", "100", "1000", "10000"}) {
		t.Errorf("labels(0.1, 50000) = %q, want the decades", got)
	}
	if got := labels(52, 58); !slices.Equal(got, []string{"52", "58"}) {
		t.Errorf("labels(52, 58) = %q: a narrow axis needs its ends labelled", got)
	}
	for v, want := range map[float64]string{0.5: "0.5", 7.51: "7.51", 1500: "1500", 13873.4: "13873", 16384: "16384", 2.5e6: "2.5e+06"} {
		if got := formatTick(v); got != want {
			t.Errorf("formatTick(%g) = %q, want %q", v, got, want)
		}
	}
}

// Every tick either ticker draws carries a label, lies on the axis, and an
// axis has at least two of them.
func TestEveryTickLabelled(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		lo := rapid.Float64Range(1e-3, 1e6).Draw(t, "lo")
		hi := lo * rapid.Float64Range(1.01, 1e5).Draw(t, "ratio")
		for name, ticker := range map[string]plot.Ticker{"log": logTicks{}, "linear": linearTicks{}} {
			ticks := ticker.Ticks(lo, hi)
			if len(ticks) < 2 {
				t.Fatalf("%s(%g, %g): %d ticks, want at least 2", name, lo, hi, len(ticks))
			}
			for _, tk := range ticks {
				if tk.Label == "" {
					t.Fatalf("%s(%g, %g): tick at %g has no label", name, lo, hi, tk.Value)
				}
				if tk.Value < lo*(1-1e-9) || tk.Value > hi*(1+1e-9) {
					t.Fatalf("%s(%g, %g): tick %g off the axis", name, lo, hi, tk.Value)
				}
			}
		}
	})
}

// The scaling scan's x axis names every scanned value, 4 included.
func TestScanTicksAtScannedValues(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "scan.svg")
	if err := Scan(gridFile(1), "producers", p); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(svgText(t, p), "\n")
	for _, want := range []string{"1", "2", "4"} {
		if !slices.Contains(lines, want) {
			t.Errorf("scan over producers 1, 2, 4: no tick labelled %q", want)
		}
	}
}

// Every chart fits maxWidthPixels (at most 1600) at its default size,
// however many configurations it shows: bars and boxes grow downwards.
func TestWidthAtMost1600(t *testing.T) {
	t.Parallel()
	if maxWidthPixels > 1600 {
		t.Fatalf("maxWidthPixels = %d, want at most 1600", maxWidthPixels)
	}
	dir := t.TempDir()
	g, s := gridFile(2), scanFile(2, "alpha", 1)
	draws := map[string]drawFn{
		"bars-36":        func(p string) error { return Bars([]*harness.File{g}, p) },
		"bars-2-files":   func(p string) error { return Bars([]*harness.File{s, scanFile(3, "beta", 1.2)}, p) },
		"boxes-36":       func(p string) error { return Boxes([]*harness.File{g}, p) },
		"progression-12": func(p string) error { return Progression(g, p, WithLabels(SeriesGroups(g)[0].Labels)) },
		"scan":           func(p string) error { return Scan(g, "consumers", p) },
	}
	heights := map[string]int{}
	for name, draw := range draws {
		p := filepath.Join(dir, name+".png")
		if err := draw(p); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w, h := pngSize(t, p)
		if w > maxWidthPixels || w < 600 || h < 400 {
			t.Errorf("%s: %d×%d pixels, want 600 to %d wide and at least 400 tall", name, w, h, maxWidthPixels)
		}
		heights[name] = h
	}
	if heights["bars-36"] <= heights["scan"] {
		t.Errorf("36 bars drawn %d px tall, no taller than a line chart (%d): they cannot be readable", heights["bars-36"], heights["scan"])
	}
}

// lineStyleRE matches an SVG line's stroke without a width (1 point, the
// width of the series' lines): its colour and dash pattern.
var lineStyleRE = regexp.MustCompile(`stroke:(#[0-9A-F]{6})(;stroke-dasharray:[0-9.,]+)?"`)

// The first MaxSeries series (and more) differ in colour or dash pattern,
// the palette's colours stay apart, and a chart of MaxSeries series draws
// MaxSeries distinct line styles.
func TestSeriesDistinguishable(t *testing.T) {
	t.Parallel()
	const n = 40
	for i := range n {
		for j := range i {
			a, b := styleOf(i), styleOf(j)
			if a.Color == b.Color && slices.Equal(a.Dashes, b.Dashes) {
				t.Errorf("series %d and %d share colour %v and dash pattern %v", j, i, a.Color, a.Dashes)
			}
		}
	}
	for i, a := range palette {
		for _, b := range palette[:i] {
			dr, dg, db := float64(a.R)-float64(b.R), float64(a.G)-float64(b.G), float64(a.B)-float64(b.B)
			if d := math.Sqrt(dr*dr + dg*dg + db*db); d < 60 {
				t.Errorf("colours %v and %v are %.0f apart in RGB: too close to tell apart", a, b, d)
			}
		}
	}
	g := gridFile(3)
	groups := SeriesGroups(g)
	p := filepath.Join(t.TempDir(), "progression.svg")
	if err := Progression(g, p, WithLabels(groups[0].Labels)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	styles := map[string]bool{}
	for _, m := range lineStyleRE.FindAllStringSubmatch(string(data), -1) {
		if m[1] != "#000000" {
			styles[m[1]+m[2]] = true
		}
	}
	if len(styles) != MaxSeries {
		t.Errorf("a progression of %d series draws %d distinct line styles: %v", MaxSeries, len(styles), slices.Sorted(maps.Keys(styles)))
	}
}

// Charts never mix workloads or units of work.
func TestNoMixedWorkloads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mixed := []*harness.File{scanFile(1, "alpha", 1), callbackFile(1)}
	for name, err := range map[string]error{
		"bars":  Bars(mixed, filepath.Join(dir, "bars.svg")),
		"boxes": Boxes(mixed, filepath.Join(dir, "boxes.svg")),
	} {
		if err == nil || !strings.Contains(err.Error(), "one chart per workload") || !strings.Contains(err.Error(), `"callback"`) {
			t.Errorf("%s of a msgpass and a callback file: error %v, want a refusal naming the workloads", name, err)
		}
	}
	// A callback chart speaks of calls only.
	p := filepath.Join(dir, "callback.svg")
	if err := Bars([]*harness.File{callbackFile(1)}, p); err != nil {
		t.Fatal(err)
	}
	if text := svgText(t, p); !strings.Contains(text, "ns per call") || strings.Contains(text, "cell") {
		t.Errorf("callback bars chart does not speak of ns per call only")
	}
}
