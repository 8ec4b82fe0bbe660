package gitrev

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"
)

// progressTick is how often a live progress line is redrawn.
var progressTick = time.Second

// subjectWidth is how many characters of a subject a progress line shows.
const subjectWidth = 40

// progressLine shows that a build runs: "building 51c97ff (subject…)… 12s".
// On a terminal (live) a goroutine redraws it in place every progressTick;
// elsewhere it is one line at the start and one at the end. A nil
// *progressLine shows nothing.
//
// Invariant: between startProgress and finish only the redrawing goroutine
// writes to w; finish stops it and waits for it before writing, so writes
// never interleave.
type progressLine struct {
	w     io.Writer
	label string
	start time.Time
	live  bool
	stop  chan struct{} // closed by finish; live only
	done  chan struct{} // closed by the goroutine when it has returned; live only
}

func startProgress(w io.Writer, c Commit, modified bool) *progressLine {
	if w == nil {
		return nil
	}
	return startProgressLive(w, c, modified, isTerminal(w))
}

func startProgressLive(w io.Writer, c Commit, modified, live bool) *progressLine {
	label := "building " + c.Short
	if modified {
		label = "building the modified work tree at " + c.Short
	}
	if c.Subject != "" {
		label += " (" + truncate(c.Subject, subjectWidth) + ")"
	}
	p := &progressLine{w: w, label: label, start: time.Now(), live: live}
	if !live {
		fmt.Fprintf(w, "%s…\n", label)
		return p
	}
	p.stop, p.done = make(chan struct{}), make(chan struct{})
	p.draw()
	go func() {
		defer close(p.done)
		t := time.NewTicker(progressTick)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.draw()
			}
		}
	}()
	return p
}

func (p *progressLine) draw() {
	fmt.Fprintf(p.w, "\r\x1b[K%s… %s", p.label, p.elapsed())
}

func (p *progressLine) elapsed() time.Duration {
	return time.Since(p.start).Round(time.Second)
}

// finish ends the line with the build's result: err nil (built), a
// *BuildError (failed), or another error (stopped; the caller reports it).
func (p *progressLine) finish(err error) {
	if p == nil {
		return
	}
	if p.live {
		close(p.stop)
		<-p.done
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	var be *BuildError
	switch {
	case err == nil:
		fmt.Fprintf(p.w, "%s: built in %s\n", p.label, p.elapsed())
	case errors.As(err, &be):
		fmt.Fprintf(p.w, "%s: failed after %s\n", p.label, p.elapsed())
	default:
		fmt.Fprintf(p.w, "%s: stopped after %s\n", p.label, p.elapsed())
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// truncate shortens s to at most n characters, ending in "…" when cut.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
