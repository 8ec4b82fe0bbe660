package report

import (
	"errors"
	"testing"
)

func TestWrapWords(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s          string
		cols, lead int
		want       string
	}{
		{"a b c", 0, 4, "a b c"},
		{"a b c", 10, 4, "a b c"},
		{"alpha beta gamma delta", 14, 4, "alpha beta\n  gamma delta"},
		{"alpha beta gamma delta", 10, 4, "alpha\n  beta\n  gamma\n  delta"},
		{"incomprehensibilities x", 10, 4, "incomprehensibilities\n  x"},
	} {
		if got := WrapWords(c.s, c.cols, c.lead, "  "); got != c.want {
			t.Errorf("WrapWords(%q, %d, %d) = %q, want %q", c.s, c.cols, c.lead, got, c.want)
		}
	}
}

func TestFirstFit(t *testing.T) {
	t.Parallel()
	r := func(s string) func() (string, error) { return func() (string, error) { return s, nil } }
	for _, c := range []struct {
		cols int
		want string
	}{{0, "wide line"}, {20, "wide line"}, {6, "narrow"}, {3, "tiny"}, {1, "tiny"}} {
		if got, err := FirstFit(c.cols, r("wide line"), r("narrow"), r("tiny")); err != nil || got != c.want {
			t.Errorf("FirstFit(%d) = %q, %v; want %q", c.cols, got, err, c.want)
		}
	}
	boom := errors.New("boom")
	if _, err := FirstFit(3, r("wide line"), func() (string, error) { return "", boom }); !errors.Is(err, boom) {
		t.Errorf("a render's error: got %v", err)
	}
}
