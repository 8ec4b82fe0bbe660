package gitrev

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for concurrent use, so that the test
// itself adds no race; the progress line's own writes are what -race checks.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestProgressLive(t *testing.T) {
	old := progressTick
	progressTick = time.Millisecond
	t.Cleanup(func() { progressTick = old })
	c := Commit{Hash: "51c97ffd4efaf97d62f05effd4f719c2554c7569", Short: "51c97ff",
		Subject: "results: six full-size runs of every cell at the default settings"}
	var w syncBuffer
	p := startProgressLive(&w, c, false, true)
	// Wait for at least one redraw by the goroutine besides the first draw.
	for strings.Count(w.String(), "\r") < 2 {
		time.Sleep(time.Millisecond)
	}
	p.finish(nil)
	out := w.String()
	if !strings.HasPrefix(out, "\r\x1b[Kbuilding 51c97ff (results: six full-size runs of every ce…)… ") {
		t.Errorf("live progress starts %q", out)
	}
	if !regexp.MustCompile(`\r\x1b\[Kbuilding 51c97ff \(results: six full-size runs of every ce…\): built in [0-9]\S*s\n$`).MatchString(out) {
		t.Errorf("live progress ends %q", out)
	}
}

func TestProgressPlain(t *testing.T) {
	t.Parallel()
	c := Commit{Short: "abc1234", Subject: "short"}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{nil, "built in"},
		{&BuildError{}, "failed after"},
		{errors.New("killed"), "stopped after"},
	} {
		var w bytes.Buffer
		startProgressLive(&w, c, true, false).finish(tc.err)
		lines := strings.Split(strings.TrimSuffix(w.String(), "\n"), "\n")
		if len(lines) != 2 || lines[0] != "building the modified work tree at abc1234 (short)…" ||
			!strings.HasPrefix(lines[1], "building the modified work tree at abc1234 (short): "+tc.want) {
			t.Errorf("finish(%v): progress %q", tc.err, w.String())
		}
	}
	var nilLine *progressLine
	nilLine.finish(nil) // a nil line shows nothing and does not panic
	if startProgress(nil, c, false) != nil {
		t.Error("startProgress(nil) made a line")
	}
}
