package report

import (
	"os"
	"strings"
	"testing"
)

func TestParseStyle(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Style{
		"auto": AutoStyle, "": AutoStyle, "FULL": Full, " basic ": Basic, "nocolor": NoColor,
		"no-color": NoColor, "color": ColorOnly, "none": None,
	} {
		got, err := ParseStyle(in)
		if err != nil || got != want {
			t.Errorf("ParseStyle(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	_, err := ParseStyle("fancy")
	if err == nil || !strings.Contains(err.Error(), `"fancy"`) || !strings.Contains(err.Error(), "auto, full, basic, nocolor, color and none") {
		t.Errorf("ParseStyle(fancy) error = %v, want one naming the value and the accepted ones", err)
	}
	for _, s := range []Style{AutoStyle, Full, Basic, NoColor, ColorOnly, None} {
		back, err := ParseStyle(s.String())
		if err != nil || back != s {
			t.Errorf("ParseStyle(%v.String()) = %v, %v", s, back, err)
		}
	}
}

func TestStyleColorProgress(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s               Style
		color, progress bool
	}{
		{AutoStyle, false, false}, {Full, true, true}, {Basic, false, false},
		{NoColor, false, true}, {ColorOnly, true, false}, {None, false, false},
	} {
		if c.s.Color() != c.color || c.s.Progress() != c.progress {
			t.Errorf("%v: Color()=%v Progress()=%v, want %v %v", c.s, c.s.Color(), c.s.Progress(), c.color, c.progress)
		}
	}
}

func TestResolveStyleNonTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	t.Setenv("NO_COLOR", "")
	for _, out := range []*os.File{nil, f} {
		if got := ResolveStyle(AutoStyle, out); got != Basic {
			t.Errorf("ResolveStyle(auto, non-terminal %v) = %v, want basic", out, got)
		}
		// An explicit style is kept, terminal or not.
		for _, s := range []Style{Full, Basic, NoColor, ColorOnly, None} {
			if got := ResolveStyle(s, out); got != s {
				t.Errorf("ResolveStyle(%v) = %v, want it unchanged", s, got)
			}
		}
	}
}
