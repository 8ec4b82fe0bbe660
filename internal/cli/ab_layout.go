package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/internal/absession"
	"github.com/rootbench/rootbench/report/compare"
)

// layoutNote is what ab says under a comparison of two different builds
// that has a significant row: the verdict is about the two binaries as the
// linker laid them out, and layout alone moves rows. The figures are
// rootbench's own (docs/records.md, "Function layouts move a verdict": a change that
// computes the same value, judged in ten layouts).
const layoutNote = "a significant row compares two builds as they were linked, and function " +
	"layout alone has moved rows of a change that alters nothing by -6% to +14% " +
	"(past a 5% gate in one layout of ten). Judge the change across layouts before you " +
	"trust it: with --base-rev (and --head-rev), --layouts 0,5,9,13,17,21 runs a session " +
	"per layout and combines them."

// needsLayoutNote reports whether c has a significant row and base and
// head are different builds (files whose contents differ).
func needsLayoutNote(c *analysis.Comparison, base, head string) bool {
	if c == nil {
		return false
	}
	significant := false
	for _, r := range c.Rows {
		if r.Verdict != analysis.Same {
			significant = true
			break
		}
	}
	return significant && !sameContents(base, head)
}

// sameContents reports whether the files at a and b are one file or hold
// the same bytes. A file that cannot be read counts as different: the note
// it decides is a caution, better said once too often.
func sameContents(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return false
	}
	if os.SameFile(sa, sb) {
		return true
	}
	if sa.Size() != sb.Size() {
		return false
	}
	da, errA := fileDigest(a)
	db, errB := fileDigest(b)
	return errA == nil && errB == nil && bytes.Equal(da, db)
}

// fileDigest is the SHA-256 of the file at path.
func fileDigest(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// With --layouts, ab runs one session per function layout, both builds
// relinked in it (the linker's -randlayout seed, through GOFLAGS, which is
// part of the build cache's key), then combines the sessions' rows with
// analysis.CompareLayouts; the combined gate decides the exit status.

// parseLayouts parses --layouts: distinct layout seeds, 0 for the linker's
// default layout, separated by commas or spaces.
func parseLayouts(s string) ([]string, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	seen := map[uint64]bool{}
	var out []string
	for _, f := range fields {
		n, err := strconv.ParseUint(f, 10, 63)
		if err != nil {
			return nil, fmt.Errorf("%q: a layout is a linker seed, a whole number (0: the default layout)", f)
		}
		if seen[n] {
			return nil, fmt.Errorf("layout %d twice: each layout is one session", n)
		}
		seen[n] = true
		out = append(out, strconv.FormatUint(n, 10))
	}
	if len(out) < 2 {
		return nil, fmt.Errorf("%q: give two layouts or more (e.g. 0,5,9,13), so that they can be combined", s)
	}
	return out, nil
}

// layoutName is "5 (-ldflags=-randlayout=5)", or "0 (the linker's
// default)".
func layoutName(layout string) string {
	if layout == "0" {
		return "0 (the linker's default)"
	}
	return layout + " (-ldflags=-randlayout=" + layout + ")"
}

// layoutTitle is ", function layout 5 (...)" for a session's Markdown
// heading, "" outside --layouts.
func layoutTitle(layout string) string {
	if layout == "" {
		return ""
	}
	return ", function layout " + layoutName(layout)
}

// layoutExport is the export path of the session in layout: path itself
// outside --layouts, else path with ".layout-N" before its extension
// (ab.json: ab.layout-5.json), one file per session.
func layoutExport(path, layout string) string {
	if path == "" || layout == "" {
		return path
	}
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + ".layout-" + layout + ext
}

// acrossLayouts runs one session per layout, printing each as it ends,
// then the combination of their rows, and exits by the combined gate (a
// failed head run in any session is a regression, as in one session).
// Sessions already printed stay printed when a later one fails or is
// interrupted, and their exports are written.
func (p *abPlan) acrossLayouts(ctx context.Context, stdout io.Writer, caught func() os.Signal) error {
	l, err := absession.AcrossLayouts(p.layouts, p.rule, func(i int, layout string) (*absession.Result, error) {
		fmt.Fprintf(p.out, "ab: function layout %s, session %d of %d\n", layoutName(layout), i+1, len(p.layouts))
		return p.session(ctx, stdout, caught, layout)
	})
	if err != nil {
		return err
	}
	if err := p.printLayouts(stdout, l.Sessions, l.Comparison, l.Err); err != nil {
		return err
	}
	return exitWith(l.Exit(p.opts.IgnoreFailure))
}

// printLayouts writes the combination across layouts, or why there is
// none.
func (p *abPlan) printLayouts(w io.Writer, sessions []analysis.LayoutSession, c *analysis.Comparison, cerr error) error {
	var buf bytes.Buffer
	var names []string
	for _, s := range sessions {
		names = append(names, s.Layout)
	}
	head, base := absession.Revision(sessions[0].Head.Tool), absession.Revision(sessions[0].Base.Tool)
	line := fmt.Sprintf("Across %d function layouts (%s): each layout is one session of its own two builds; the layouts' estimates are combined, so that the verdict is about the change rather than where the linker put its functions.",
		len(sessions), strings.Join(names, ", "))
	if p.format == "markdown" {
		fmt.Fprintf(&buf, "### rootbench ab: head %s vs base %s, across %d function layouts\n\n%s\n\n", head, base, len(sessions), line)
		if cerr != nil {
			fmt.Fprintf(&buf, "No combination: %s.\n", cerr)
		} else if err := compare.Markdown(&buf, c); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(&buf, "\n%s\n\n", wrapMessage(line, p.ropts.Width))
		if cerr != nil {
			fmt.Fprintf(&buf, "No combination: %s.\n", cerr)
		} else if err := compare.TextWidth(&buf, c, p.ropts.Width); err != nil {
			return err
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// resolveLayouts checks --layouts (ab's and bisect's): two layouts or
// more, both sides built from git (a given binary cannot be relinked; bisect
// builds every side), and a GOFLAGS without -ldflags.
func (p *abPlan) resolveLayouts(af *abFlags) error {
	layouts, err := parseLayouts(af.layouts)
	if err != nil {
		return fmt.Errorf("--layouts: %w", err)
	}
	if af.base != "" || af.head != "" {
		return fmt.Errorf("--layouts: both sides must be built from git (--base-rev, and --head-rev or the work tree), since each layout relinks them; --base and --head name binaries already linked")
	}
	if err := absession.CheckGOFLAGS(os.Getenv("GOFLAGS")); err != nil {
		return fmt.Errorf("--layouts: %w", err)
	}
	p.layouts = layouts
	return nil
}
