package charts

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
		"progression": func(p string) error { return Progression(f, p) },
	}
}

// checkPNG asserts path is a decodable PNG of a sensible size.
func checkPNG(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: not a PNG: %v", path, err)
	}
	if cfg.Width < 600 || cfg.Height < 400 {
		t.Errorf("%s: %dx%d pixels, too small to read", path, cfg.Width, cfg.Height)
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
	// tick labels, legends.
	for name, wants := range map[string][]string{
		// Means from 0.19 ms to 440 ms: a log axis, labelled by decades.
		"bars":  {"log scale", "mean time (ms)", "ocaml batch-size=16", "bxboxed batch-size=4096", "0.1", "100"},
		"boxes": {"relative to its configuration's median", "time / median", "boxroot batch-size=256"},
		// One line per cell, named in the legend; log axes with 1-2-5 labels.
		"scan":        {"Time per cell against batch-size (log axes)", "ns per cell", "batch-size", "ocaml", "boxroot", "ref", "generational", "bxboxed", "20", "50", "100", "1000"},
		"progression": {"drift check", "run index (session order)", "ref batch-size=4096"},
	} {
		text := svgText(t, filepath.Join(dir, name+".svg"))
		for _, w := range wants {
			if !strings.Contains(text, w) {
				t.Errorf("%s.svg lacks %q", name, w)
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
		if strings.Contains(text, "log scale") || strings.Contains(text, "time / median") {
			t.Errorf("%s: means within 10× drawn on a log or relative axis", name)
		}
		if !strings.Contains(text, "(ms)") {
			t.Errorf("%s: no time axis in ms", name)
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
	check("bad dir", Progression(f, filepath.Join(dir, "no", "such", "x.svg")), "x.svg")

	failed := scanFile(1, "alpha", 1)
	for i := range failed.Results {
		for j := range failed.Results[i].Runs {
			failed.Results[i].Runs[j].Failed = true
		}
	}
	check("all failed bars", Bars([]*harness.File{failed}, filepath.Join(dir, "x.png")), "no successful run")
	check("all failed boxes", Boxes([]*harness.File{failed}, filepath.Join(dir, "x.png")), "no successful run")
	check("all failed progression", Progression(failed, filepath.Join(dir, "x.png")), "no successful run")
	check("all failed scan", Scan(failed, "batch-size", filepath.Join(dir, "x.png")), "no successful run")
}

func TestScanParams(t *testing.T) {
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
	labels := func(lo, hi float64) []string {
		var out []string
		for _, tk := range (logTicks{}).Ticks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	if got := labels(20, 80); !slices.Equal(got, []string{"20", "50"}) {
		t.Errorf("labels(20, 80) = %q, want [20 50]", got)
	}
	if got := labels(0.1, 5000); !slices.Equal(got, []string{"0.1", "1", "10", "100", "1000"}) {
		t.Errorf("labels(0.1, 5000) = %q, want the decades", got)
	}
	if got := labels(52, 58); len(got) < 2 {
		t.Errorf("labels(52, 58) = %q: a narrow axis needs its ends labelled", got)
	}
}
