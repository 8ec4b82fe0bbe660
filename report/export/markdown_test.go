package export

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestMarkdown(t *testing.T) {
	t.Parallel()
	f := fixture()
	f.Results[0].Label = "boxroot|odd"
	var b bytes.Buffer
	if err := Markdown(&b, f); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) != 2+len(f.Results) {
		t.Fatalf("%d lines, want header, separator and one per result:\n%s", len(lines), b.String())
	}
	// cells splits a row on unescaped pipes.
	cells := func(l string) []string {
		if !strings.HasPrefix(l, "|") || !strings.HasSuffix(l, "|") {
			t.Fatalf("row %q is not enclosed in pipes", l)
		}
		l = strings.ReplaceAll(l[1:len(l)-1], `\|`, "\x00")
		var out []string
		for _, c := range strings.Split(l, "|") {
			out = append(out, strings.ReplaceAll(strings.TrimSpace(c), "\x00", `\|`))
		}
		return out
	}
	want := [][]string{
		{"Cell", "Mean [s]", "Min [s]", "Max [s]", "Relative per cell"},
		nil,
		{"`boxroot\\|odd`", "1.686 ± 0.013", "1.670", "1.710", "2.18 ± 0.05"},
		{"`ocaml batch-size=1024`", "0.776 ± 0.012", "0.760", "0.790", "1.00"},
		{"`boxroot batch-size=16`", "2.500 ± 0.100", "2.400", "2.600", "3.22 ± 0.19"},
	}
	for i, l := range lines {
		got := cells(l)
		if i == 1 {
			if len(got) != 5 || !strings.HasPrefix(got[0], ":-") || strings.HasSuffix(got[0], ":") {
				t.Errorf("first column should be left-aligned: %q", l)
			}
			for _, c := range got[1:] {
				if !strings.HasSuffix(c, "-:") || strings.HasPrefix(c, ":") {
					t.Errorf("number columns should be right-aligned: %q", l)
				}
			}
			continue
		}
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("line %d = %q, want %q", i, got, want[i])
		}
	}
}

func TestMarkdownNamesCallbackVariants(t *testing.T) {
	t.Parallel()
	f := fixture()
	f.Workload, f.Unit = "callback", "call"
	var b strings.Builder
	if err := Markdown(&b, f); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "| Variant") {
		t.Errorf("callback Markdown does not start with a Variant column:\n%s", b.String())
	}
}
