package compare

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

// JSONSchema is the version tag of the JSON comparison document (see
// JSON). Version 2 added the method, the correction, each row's gate
// outcome, level, adjusted p-value and runs still needed, and the
// whole-table outcome; version 3 each row's ruled_out (what its interval
// rules out, analysis.RuledOut).
const JSONSchema = "rootbench-compare/v3"

// JSON writes the comparison as one indented JSON object whose "schema"
// is JSONSchema:
//
//	schema, mode ("files"/"cells"/"layouts"), method ("hl"/"benchstat"),
//	correction ("holm"/"none"), paired (true when the rows compare paired
//	runs, as ab's do; omitted otherwise), layouts (the function layouts
//	combined, mode "layouts" only), summary (SummaryLine), gate ("off", "pass",
//	"regression", "inconclusive"), exit_code (0, 1, 3), threshold, alpha,
//	unit ("seconds"), workload, base/head {name, tool, machine, params},
//	rows [{label, base_label, cell, params, basis ("time", "per cell"),
//	base/head {median, lo, hi, confidence, n, failed}, delta, delta_lo,
//	delta_hi, level, p, p_adjusted, alpha, verdict ("faster", "slower",
//	"~"), gate, more_runs, pairs (paired rows), layouts (the layouts a
//	row combines, mode "layouts"), ruled_out {claim
//	("no-slowdown-beyond", "faster-by-at-least", "slower-by-at-least",
//	"still-possible", "nothing"), bound (the claim's figure; omitted for
//	still-possible and nothing), lo, hi (the changes still possible),
//	level, more_runs (inconclusive rows), text (Conclusion)}, warnings}],
//	geomean {base, head, delta}, only_base, only_head, warnings.
//
// Fractions are fractions (0.05 for 5%), times seconds (per unit of work
// on a row whose basis says so). Infinite interval bounds (too few runs)
// are written as null.
func JSON(w io.Writer, c *analysis.Comparison) error {
	type summary struct {
		Median     float64  `json:"median"`
		Lo         *float64 `json:"lo"`
		Hi         *float64 `json:"hi"`
		Confidence float64  `json:"confidence"`
		N          int      `json:"n"`
		Failed     int      `json:"failed"`
	}
	type ruledOut struct {
		Claim    analysis.Claim `json:"claim"`
		Bound    *float64       `json:"bound,omitempty"`
		Lo       *float64       `json:"lo"`
		Hi       *float64       `json:"hi"`
		Level    float64        `json:"level"`
		MoreRuns int            `json:"more_runs,omitempty"`
		Text     string         `json:"text"`
	}
	type row struct {
		Label     string            `json:"label"`
		BaseLabel string            `json:"base_label,omitempty"`
		Cell      string            `json:"cell"`
		Params    map[string]string `json:"params,omitempty"`
		Basis     string            `json:"basis"`
		Base      summary           `json:"base"`
		Head      summary           `json:"head"`
		Delta     float64           `json:"delta"`
		DeltaLo   *float64          `json:"delta_lo"`
		DeltaHi   *float64          `json:"delta_hi"`
		Level     float64           `json:"level"`
		P         float64           `json:"p"`
		PAdjusted float64           `json:"p_adjusted"`
		Alpha     float64           `json:"alpha"`
		Verdict   analysis.Verdict  `json:"verdict"`
		Gate      analysis.Outcome  `json:"gate"`
		MoreRuns  int               `json:"more_runs,omitempty"`
		Pairs     int               `json:"pairs,omitempty"`
		Layouts   int               `json:"layouts,omitempty"`
		RuledOut  ruledOut          `json:"ruled_out"`
		Warnings  []string          `json:"warnings,omitempty"`
	}
	type side struct {
		Name    string            `json:"name"`
		Tool    any               `json:"tool"`
		Machine any               `json:"machine"`
		Params  map[string]string `json:"params,omitempty"`
	}
	type geomean struct {
		Base  float64 `json:"base"`
		Head  float64 `json:"head"`
		Delta float64 `json:"delta"`
	}
	type out struct {
		Schema     string              `json:"schema"`
		Mode       string              `json:"mode"`
		Method     analysis.Method     `json:"method"`
		Correction analysis.Correction `json:"correction"`
		Paired     bool                `json:"paired,omitempty"`
		Layouts    []string            `json:"layouts,omitempty"`
		Summary    string              `json:"summary"`
		Gate       analysis.Outcome    `json:"gate"`
		ExitCode   int                 `json:"exit_code"`
		Threshold  float64             `json:"threshold"`
		Alpha      float64             `json:"alpha"`
		Unit       string              `json:"unit"`
		Workload   string              `json:"workload,omitempty"`
		Base       side                `json:"base"`
		Head       side                `json:"head"`
		Rows       []row               `json:"rows"`
		Geomean    *geomean            `json:"geomean"`
		OnlyBase   []string            `json:"only_base,omitempty"`
		OnlyHead   []string            `json:"only_head,omitempty"`
		Warnings   []string            `json:"warnings,omitempty"`
	}
	sum := func(s analysis.Summary) summary {
		return summary{s.Median, harness.FiniteOrNil(s.Lo), harness.FiniteOrNil(s.Hi), s.Confidence, s.N, s.Failed}
	}
	o := out{
		Schema: JSONSchema, Mode: c.Mode, Method: c.Method, Correction: c.Correction, Paired: c.Paired, Layouts: c.Layouts,
		Summary: SummaryLine(c), Gate: c.Outcome(), ExitCode: c.Outcome().ExitCode(), Threshold: c.Threshold,
		Alpha: c.Alpha, Unit: "seconds", Workload: c.Workload,
		Base:     side{c.Base.Name, c.Base.Tool, c.Base.Machine, c.Base.Params},
		Head:     side{c.Head.Name, c.Head.Tool, c.Head.Machine, c.Head.Params},
		Rows:     []row{},
		OnlyBase: c.OnlyBase, OnlyHead: c.OnlyHead, Warnings: c.Warnings,
	}
	for _, r := range c.Rows {
		ro := r.RuledOut
		if ro.Claim == "" {
			ro = analysis.RuleOut(r)
		}
		var b *float64
		switch ro.Claim {
		case analysis.NoSlowdownBeyond, analysis.FasterByAtLeast, analysis.SlowerByAtLeast:
			b = harness.FiniteOrNil(ro.Bound)
		}
		o.Rows = append(o.Rows, row{
			Label: r.Label, BaseLabel: r.BaseLabel, Cell: r.Cell, Params: r.Params, Basis: r.Basis,
			Base: sum(r.Base), Head: sum(r.Head),
			Delta: r.Delta, DeltaLo: harness.FiniteOrNil(r.DeltaLo), DeltaHi: harness.FiniteOrNil(r.DeltaHi), Level: r.Level,
			P: r.P, PAdjusted: r.PAdjusted, Alpha: r.Alpha, Verdict: r.Verdict, Gate: r.Gate, MoreRuns: r.MoreRuns, Pairs: r.Pairs, Layouts: r.Layouts,
			RuledOut: ruledOut{Claim: ro.Claim, Bound: b, Lo: harness.FiniteOrNil(ro.Lo), Hi: harness.FiniteOrNil(ro.Hi),
				Level: ro.Level, MoreRuns: ro.MoreRuns, Text: Conclusion(r)},
			Warnings: r.Warnings,
		})
	}
	if c.Geomean.OK {
		o.Geomean = &geomean{c.Geomean.Base, c.Geomean.Head, c.Geomean.Delta}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(o); err != nil {
		return fmt.Errorf("compare: write json: %w", err)
	}
	return nil
}
