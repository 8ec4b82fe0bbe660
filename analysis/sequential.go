package analysis

import (
	"fmt"
	"math"
	"strings"

	"github.com/rootbench/rootbench/harness"
)

// The sequential rule of an A/B session: the one place that decides when
// an `ab` (or `bisect` step) session looks at its runs, at what level each
// look is tested, how the two sides' runs are compared, how failed runs
// count, and what the session concludes. The harness only measures: it
// asks the rule (harness.SequentialRule) where to look and whether to stop.
//
// The false-alarm guarantee, and what it assumes:
//
//   - The looks are planned before any difference is seen: either fixed
//     (Looks) or, with AutoLooks, from the pace of the first ABBA block
//     alone (PlanLooks gets the runs per side the budget allows, nothing
//     measured). The look made when the budget ends takes the place of the
//     last planned look, so a session makes at most MaxLooks looks.
//   - Every look is tested at Alpha / (number of looks) (Bonferroni over
//     looks), with Holm across the rows inside a look (one row per
//     benchmark and metric: wall time and CPU time are two rows of one
//     family), so the chance that any look of the session flags any row
//     that did not change is at most Alpha, whatever the looks' and the
//     metrics' correlation. A look decides the session when every row is
//     decided, and the session regresses when any row does, on either
//     metric.
//   - Each look compares the runs in pairs (Options.Paired): a base run and
//     the head run made next to it share the machine's slow phases; the
//     pairs' log ratios are taken as independent and symmetric about the
//     true shift under no change (the Wilcoxon signed-rank interval).
//   - Failed runs never enter the statistics. A head run that fails is a
//     regression of the build (it crashes); a base run that fails leaves
//     the rows it affects undecided, whatever their runs say.
//
// A bisection tests many sessions; StepAlpha splits its false-alarm budget
// over them (see StepAlpha).

// Defaults of the sequential rule.
const (
	// DefaultAutoLooks is the number of looks planned from the pace.
	DefaultAutoLooks = 3
	// DefaultMinLook is the fewest runs per side a planned look is made at.
	DefaultMinLook = 6
)

// Sequential is the sequential rule of one A/B session. It implements
// harness.SequentialRule. Its Decide keeps the last error it met (Err).
type Sequential struct {
	// Alpha is the chance of any false alarm over the whole session.
	Alpha float64
	// Threshold is the gate as a fraction (0.05 for 5%); it must be
	// positive.
	Threshold float64
	// Looks are fixed looks in runs per side (even, increasing); nil plans
	// AutoLooks looks from the pace of the first rounds.
	Looks []int
	// AutoLooks is the number of looks to plan (0 means DefaultAutoLooks).
	AutoLooks int
	// MinLook is the fewest runs per side an automatic look is made at (0
	// means DefaultMinLook).
	MinLook int
	// BaseName and HeadName name the sides in the comparison.
	BaseName, HeadName string
	// Metrics are the metrics every benchmark is judged on, one row each
	// (ParseMetrics); nil judges wall time alone.
	Metrics []Metric

	// Err is the error of the last look that could not compare the sides;
	// such a look stops the session.
	Err error
}

// PlannedLooks returns the fixed looks, or nil when they are planned from
// the pace (PlanLooks).
func (s *Sequential) PlannedLooks() []int { return s.Looks }

// MaxLooks is the most looks a session can make before its looks are
// planned: len(Looks), or the number of automatic looks.
func (s *Sequential) MaxLooks() int {
	if len(s.Looks) > 0 {
		return len(s.Looks)
	}
	if s.AutoLooks > 0 {
		return s.AutoLooks
	}
	return DefaultAutoLooks
}

// PlanLooks plans the automatic looks of a session that can reach reach
// runs per side within its budget: the last at reach (made even), each
// other one at half the next, dropping those below MinLook; at least one
// look, at no fewer than MinLook runs. It depends on the pace only.
func (s *Sequential) PlanLooks(reach int) []int {
	minLook := s.MinLook
	if minLook <= 0 {
		minLook = DefaultMinLook
	}
	return planLooks(reach, s.MaxLooks(), minLook)
}

func planLooks(reach, k, minLook int) []int {
	even := func(n int) int { return n - n%2 }
	minLook = even(minLook + 1) // even, at least minLook
	last := max(even(reach), minLook, 2)
	looks := []int{last}
	for n := last; len(looks) < k; {
		n = even(n / 2)
		if n < minLook || n < 2 {
			break
		}
		looks = append([]int{n}, looks...)
	}
	return looks
}

// AlphaPerLook is the level each look of a session with of looks is tested
// at: Alpha / of.
func (s *Sequential) AlphaPerLook(of int) float64 { return s.Alpha / float64(max(of, 1)) }

// Judge compares base and head as a look of a session with of looks makes
// it: paired runs, Holm across rows, at AlphaPerLook(of), with the gate;
// then the rows whose base runs failed are made undecided.
func (s *Sequential) Judge(base, head *harness.File, of int) (*Comparison, error) {
	c, err := CompareFiles(base, head, Options{
		Alpha: s.AlphaPerLook(of), Threshold: s.Threshold, BaseName: s.BaseName, HeadName: s.HeadName,
		Paired: true, Metrics: s.Metrics,
	})
	if err != nil {
		return nil, err
	}
	for i := range c.Rows {
		r := &c.Rows[i]
		if r.Base.Failed > 0 && r.Gate != Inconclusive {
			r.Gate = Inconclusive
			r.MoreRuns = 0
			r.Warnings = append(r.Warnings, fmt.Sprintf("%d base run(s) failed: undecided", r.Base.Failed))
			r.RuledOut = RuleOut(*r)
		}
	}
	return c, nil
}

// Decide is the decision at a look: the session stops when every row is
// decided. The note is the look's one-line account.
func (s *Sequential) Decide(base, head *harness.File, l harness.Look) (done bool, note string) {
	c, err := s.Judge(base, head, l.Of)
	if err != nil {
		s.Err = err
		return true, ""
	}
	return c.Decided(), lookNote(l, c)
}

// lookNote is "look 2/3 at 20 runs per side (the slowest benchmark's): 1
// undecided: boxroot".
func lookNote(l harness.Look, c *Comparison) string {
	kind := "look"
	if l.Budget {
		kind = "budget look"
	}
	und := c.rowNames(c.Undecided())
	state := "every row decided"
	if len(und) > 0 {
		state = fmt.Sprintf("%d undecided: %s", len(und), strings.Join(und, ", "))
	}
	return fmt.Sprintf("%s %d/%d at %d runs per side (the slowest benchmark's): %s", kind, l.Number, l.Of, l.Runs, state)
}

// SessionVerdict is what a finished session concludes.
type SessionVerdict struct {
	// Outcome is Regression, Inconclusive or Pass.
	Outcome Outcome
	// Comparison is the final look's comparison; nil when none could be
	// made (Err) or the session was cut short.
	Comparison *Comparison
	// Gate is the decision as the session's file records it; nil without
	// a Comparison.
	Gate *harness.ABGate
	// HeadFailed and BaseFailed count the failed runs of each side.
	HeadFailed, BaseFailed int
	// Err is why no comparison could be made.
	Err error
	// Reason says the outcome in one line.
	Reason string
}

// Verdict concludes a finished session from its file: the final runs
// judged as its last look was, with failed runs mapped as the rule says (a
// failed head run is a regression; a failed base run leaves its rows
// undecided). With ignoreFailure, failed runs are left out and only the
// comparison counts.
func (s *Sequential) Verdict(f *harness.ABFile, ignoreFailure bool) *SessionVerdict {
	v := &SessionVerdict{HeadFailed: f.Head.FailedRuns(), BaseFailed: f.Base.FailedRuns(), Err: s.Err}
	of := s.MaxLooks()
	switch {
	case len(f.Looks) > 0:
		of = f.Looks[len(f.Looks)-1].Of
	case len(f.PlannedLooks) > 0:
		of = len(f.PlannedLooks)
	}
	if v.Err == nil {
		v.Comparison, v.Err = s.Judge(f.Base, f.Head, of)
	}
	if v.Comparison != nil {
		v.Gate = s.gateRecord(v.Comparison, of)
	}
	switch {
	case v.HeadFailed > 0 && !ignoreFailure:
		v.Outcome = Regression
		v.Reason = fmt.Sprintf("%d run(s) of %s failed (see the reasons and logs above)", v.HeadFailed, s.headName())
	case v.Err != nil:
		v.Outcome = Inconclusive
		v.Reason = fmt.Sprintf("compare %s and %s: %v", s.baseName(), s.headName(), v.Err)
	default:
		v.Outcome = v.Comparison.Outcome()
		v.Reason = v.Comparison.OutcomeReason()
		if v.Outcome == Inconclusive && v.BaseFailed > 0 && !ignoreFailure {
			v.Reason += fmt.Sprintf(" (%d run(s) of %s failed)", v.BaseFailed, s.baseName())
		}
	}
	if v.Gate != nil {
		v.Gate.Outcome = string(v.Outcome)
	}
	return v
}

func (s *Sequential) baseName() string { return nameOr(s.BaseName, "base") }
func (s *Sequential) headName() string { return nameOr(s.HeadName, "head") }

func nameOr(name, def string) string {
	if name == "" {
		return def
	}
	return name
}

// rowNames names rows as sentences do (RowName).
func (c *Comparison) rowNames(rows []Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, c.RowName(r))
	}
	return out
}

// gateRecord is the decision as the results file records it.
func (s *Sequential) gateRecord(c *Comparison, of int) *harness.ABGate {
	g := &harness.ABGate{
		Threshold: s.Threshold, Alpha: s.Alpha, AlphaPerLook: s.AlphaPerLook(of),
		Outcome: string(c.Outcome()),
	}
	for _, r := range c.Rows {
		row := harness.ABGateRow{Label: r.Label, Metric: gateMetric(r.Metric), Outcome: string(r.Gate),
			Delta: harness.FiniteOrNil(r.Delta), DeltaLo: harness.FiniteOrNil(r.DeltaLo), DeltaHi: harness.FiniteOrNil(r.DeltaHi),
			Claim: string(r.RuledOut.Claim)}
		switch r.RuledOut.Claim {
		case NoSlowdownBeyond, FasterByAtLeast, SlowerByAtLeast:
			row.Bound = harness.FiniteOrNil(r.RuledOut.Bound)
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

// gateMetric is a row's metric as the results file records it: its name,
// "" for wall time (as in files that judged no other).
func gateMetric(m Metric) string {
	if sameMetric(m, Wall) {
		return ""
	}
	return m.Name
}

// Shares of a bisection's false-alarm budget: the planned steps share
// plannedShare, the steps beyond them extraShare (halving from one to the
// next).
const (
	plannedShare = 0.8
	extraShare   = 0.2
	// roundingMargin shrinks every level by a relative 1e-12, far more than
	// the few float64 roundings (each at most 2^-53 relative) in computing
	// it, so that the levels' exact sum stays below the budget.
	roundingMargin = 1 - 1e-12
)

// StepAlpha is the false-alarm level of step number step (1, 2, ...: the
// confirmation, each bisection step and each retry) of a bisection that
// plans planned steps (the confirmation plus about log2 of the commits),
// under a whole-bisection budget alpha: steps 1 to planned get
// 0.8·alpha/planned each, step planned+j gets 0.2·alpha·2^-j. The levels of
// any number of steps sum to less than alpha, so by the union bound the
// chance that any step of the bisection gives a false Bad verdict, and with
// it the chance of naming a culprit where nothing regressed, is at most
// alpha, with no limit on the steps and no independence between them
// (internal/bisect's package documentation says what else a culprit
// needs). A step below 1 or an alpha not above 0 gets 0.
func StepAlpha(alpha float64, planned, step int) float64 {
	if step < 1 || !(alpha > 0) {
		return 0
	}
	planned = max(planned, 1)
	if step <= planned {
		return plannedShare * alpha / float64(planned) * roundingMargin
	}
	return math.Ldexp(extraShare*alpha*roundingMargin, -(step - planned))
}
