package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/internal/absession"
	"github.com/rootbench/rootbench/report/export"
)

// execute runs the session (or, with --layouts, one session per layout and
// their combination), prints the comparison and decides the exit status.
func (p *abPlan) execute(ctx context.Context, stdout io.Writer) error {
	if err := p.history.check(ctx); err != nil {
		return err
	}
	ctx, stop, caught := signalContext(ctx)
	defer stop()
	if p.planNote != "" {
		fmt.Fprintf(p.out, "rootbench: %s\n", p.planNote)
	}
	if len(p.layouts) > 0 {
		return p.acrossLayouts(ctx, stdout, caught)
	}
	res, err := p.session(ctx, stdout, caught, "")
	if err != nil {
		return err
	}
	return exitWith(res.Exit())
}

// session runs one session (absession), its sides linked in layout (""
// for as the environment says), and prints it: the handshake's notes and
// the session's header before it runs, its comparison once it is judged.
// The export, when asked for, is written after every look (marked partial
// until the session ends) and at the end; a session that measured nothing
// never touches it. The error is what the session's exit status is when it
// ended early: interrupted, a build or a worker that failed.
func (p *abPlan) session(ctx context.Context, stdout io.Writer, caught func() os.Signal, layout string) (*absession.Result, error) {
	sess, err := p.runner.Prepare(ctx, absession.Spec{
		Options: p.opts, Rule: p.rule, Base: p.baseRev.spec(), Head: p.headRev.spec(), Layout: layout, Pin: p.pin, Work: p.work,
	})
	var se *absession.SideError
	switch {
	case errors.As(err, &se) && ctx.Err() != nil:
		return nil, &exitError{code: exitInterrupted, err: fmt.Errorf("interrupted while building: %w", err)}
	case err != nil:
		return nil, usageError(err)
	}
	// The next layout's session matches the sides from the parameters
	// this one measured, and runs the work this one decided.
	p.opts.Benchmarks = sess.Options.Benchmarks
	if p.work != nil && p.work.Decided == nil {
		p.work.Decided = append([]harness.ABSize{}, sess.Sizes...)
	}
	fmt.Fprint(p.out, sess.NotesText())
	o := &sess.Options
	looks := fmt.Sprintf("looks at %s runs per side", joinInts(p.rule.Looks))
	if p.rule.Looks == nil {
		looks = fmt.Sprintf("%d looks planned from the first rounds' pace", p.rule.MaxLooks())
	}
	fmt.Fprintf(p.out, "ab: base %s\n    head %s\n", describeSide(&o.Base, p.baseRev), describeSide(&o.Head, p.headRev))
	if c := p.changesLine(ctx); c != "" {
		fmt.Fprintf(p.out, "    %s\n", c)
	}
	fmt.Fprintf(p.out, "    %d benchmark(s)%s; %s; budget %s\n    gate %+.1f%%; alpha %.3g over the session, split over its looks (%.3g each with %d)\n",
		len(o.Benchmarks), judgedOn(p.rule.Metrics), looks, o.MaxTime, 100*p.rule.Threshold, p.rule.Alpha, p.rule.AlphaPerLook(p.rule.MaxLooks()), p.rule.MaxLooks())
	if l := loadNow(o.WaitForLoad); l != "" {
		fmt.Fprintf(p.out, "    %s\n", l)
	}
	if s := absession.SizesText(sess.Sizes); s != "" {
		fmt.Fprintf(p.out, "    %s\n", s)
	}
	export := layoutExport(p.export, layout)
	var exportErr error
	if export != "" {
		o.OnLook = func(f *harness.ABFile) {
			if exportErr == nil && measured(f) {
				f.Layout = layout
				exportErr = writeABFile(export, f)
			}
		}
	}

	res, err := sess.Run(ctx)
	if err != nil {
		return nil, err
	}
	f := res.File
	sig := caught()
	if export != "" && measured(f) {
		if err := writeABFile(export, f); err != nil {
			return nil, &exitError{code: exitFailed, err: err}
		}
	}
	if exportErr != nil {
		return nil, &exitError{code: exitFailed, err: exportErr}
	}
	if measured(f) {
		f.Layout = layout
		src, err := history.FromAB(sessionName(layout), f)
		if err := p.history.add(ctx, p.out, src, err); err != nil {
			return nil, err
		}
	}
	if sig != nil {
		return nil, interruptedError(sig, " after %d look(s)%s", len(f.Looks), exportedNote(export, f))
	}
	if res.Err != nil {
		return nil, &exitError{code: exitFailed, err: res.Err}
	}
	if err := p.print(stdout, o, f, res.Verdict.Comparison, res.Verdict.Err, layout); err != nil {
		return nil, err
	}
	return res, nil
}

// judgedOn is the header's note of the metrics a session judges, a row
// each (", each on wall time and CPU time"); "" for wall time alone, which a
// header did not name before there were others.
func judgedOn(ms []analysis.Metric) string {
	if len(ms) == 0 || len(ms) == 1 && ms[0] == analysis.Wall {
		return ""
	}
	var names []string
	for _, m := range ms {
		names = append(names, m.Label)
	}
	return ", each on " + strings.Join(names, " and ")
}

// measured reports whether the session measured anything: a successful
// run on either side.
func measured(f *harness.ABFile) bool {
	for _, side := range []*harness.File{f.Base, f.Head} {
		for _, r := range side.Results {
			for _, run := range r.Runs {
				if !run.Failed {
					return true
				}
			}
		}
	}
	return false
}

func exportedNote(path string, f *harness.ABFile) string {
	if path == "" || !measured(f) {
		return ""
	}
	return "; " + path + " holds what was measured (marked partial)"
}

// writeABFile writes the session's file as indented JSON, atomically and
// with the mode run's exports get (export.WriteAtomic).
func writeABFile(path string, f *harness.ABFile) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the A/B results: %w", err)
	}
	data = append(data, '\n')
	return export.WriteAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// sessionName names a session's file in the history: "ab session", with
// its layout when it has one.
func sessionName(layout string) string {
	if layout == "" {
		return "ab session"
	}
	return "ab session, layout " + layout
}
