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
// rules out, analysis.RuledOut); version 4 a row per benchmark and metric:
// each row's metric, metric_label and unit, the comparison's metrics, a
// geomean per metric (geomeans) and the load the runs started under.
const JSONSchema = "rootbench-compare/v4"

// JSON writes the comparison as one indented JSON object whose "schema"
// is JSONSchema:
//
//	schema, mode ("files"/"cells"/"layouts"), method ("hl"/"benchstat"),
//	correction ("holm"/"none"), paired (true when the rows compare paired
//	runs, as ab's do; omitted otherwise), layouts (the function layouts
//	combined, mode "layouts" only), summary (SummaryLine), gate ("off", "pass",
//	"regression", "inconclusive"), exit_code (0, 1, 3), threshold, alpha,
//	unit ("seconds": the unit of time rows), workload, metrics (the rows'
//	metrics' names, in order), load {lo, hi} (the one-minute load
//	averages the runs started under; omitted when unrecorded), base/head
//	{name, tool, machine, params}, rows [{label, base_label, cell, params,
//	metric ("wall", "cpu", or a unit of Go benchmark text), metric_label
//	("wall time", "CPU time", "process CPU time": the whole worker's CPU
//	time, start-up and warm-up included; or the unit), unit ("seconds", or
//	the unit of Go benchmark text), higher_is_better, exact (omitted when
//	false), basis ("time", "per cell"),
//	base/head {median, lo, hi, confidence, n, failed}, delta, delta_lo,
//	delta_hi, level, p, p_adjusted, alpha, verdict ("faster", "slower",
//	"~"), gate, more_runs, pairs (paired rows), layouts (the layouts a
//	row combines, mode "layouts"), ruled_out {claim
//	("no-slowdown-beyond", "faster-by-at-least", "slower-by-at-least",
//	"still-possible", "nothing"), bound (the claim's figure; omitted for
//	still-possible and nothing), lo, hi (the changes still possible),
//	level, more_runs (inconclusive rows), text (Conclusion)}, warnings}],
//	geomean {metric, base, head, delta} (the first metric's),
//	geomeans [one per metric], only_base, only_head, warnings.
//
// Verdicts "slower" and "faster" mean for the worse and for the better:
// a rise and a fall of a time or a cost (B/op), the reverse for a
// higher-is-better unit (B/s).
//
// Fractions are fractions (0.05 for 5%), times seconds (per unit of work
// on a row whose basis says so). Infinite interval bounds (too few runs)
// are written as null, and so is the delta of a row whose base is 0 (Go
// benchmark text, --method benchstat).
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
		Label       string            `json:"label"`
		BaseLabel   string            `json:"base_label,omitempty"`
		Cell        string            `json:"cell"`
		Params      map[string]string `json:"params,omitempty"`
		Metric      string            `json:"metric"`
		MetricLabel string            `json:"metric_label"`
		Unit        string            `json:"unit"`
		Higher      bool              `json:"higher_is_better,omitempty"`
		Exact       bool              `json:"exact,omitempty"`
		Basis       string            `json:"basis"`
		Base        summary           `json:"base"`
		Head        summary           `json:"head"`
		Delta       *float64          `json:"delta"`
		DeltaLo     *float64          `json:"delta_lo"`
		DeltaHi     *float64          `json:"delta_hi"`
		Level       float64           `json:"level"`
		P           float64           `json:"p"`
		PAdjusted   float64           `json:"p_adjusted"`
		Alpha       float64           `json:"alpha"`
		Verdict     analysis.Verdict  `json:"verdict"`
		Gate        analysis.Outcome  `json:"gate"`
		MoreRuns    int               `json:"more_runs,omitempty"`
		Pairs       int               `json:"pairs,omitempty"`
		Layouts     int               `json:"layouts,omitempty"`
		RuledOut    ruledOut          `json:"ruled_out"`
		Warnings    []string          `json:"warnings,omitempty"`
	}
	type side struct {
		Name    string            `json:"name"`
		Tool    any               `json:"tool"`
		Machine any               `json:"machine"`
		Params  map[string]string `json:"params,omitempty"`
	}
	type geomean struct {
		Metric string  `json:"metric"`
		Base   float64 `json:"base"`
		Head   float64 `json:"head"`
		Delta  float64 `json:"delta"`
	}
	type load struct {
		Lo float64 `json:"lo"`
		Hi float64 `json:"hi"`
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
		Metrics    []string            `json:"metrics"`
		Load       *load               `json:"load,omitempty"`
		Base       side                `json:"base"`
		Head       side                `json:"head"`
		Rows       []row               `json:"rows"`
		Geomean    *geomean            `json:"geomean"`
		Geomeans   []geomean           `json:"geomeans,omitempty"`
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
		Metrics:  []string{},
		OnlyBase: c.OnlyBase, OnlyHead: c.OnlyHead, Warnings: c.Warnings,
	}
	for _, m := range c.Metrics {
		o.Metrics = append(o.Metrics, m.Name)
	}
	if c.Load.OK {
		o.Load = &load{c.Load.Lo, c.Load.Hi}
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
			Label: r.Label, BaseLabel: r.BaseLabel, Cell: r.Cell, Params: r.Params,
			Metric: r.Metric.Name, MetricLabel: r.Metric.Label, Unit: unitOf(r.Metric), Higher: r.Metric.HigherIsBetter, Exact: r.Metric.Exact,
			Basis: r.Basis,
			Base:  sum(r.Base), Head: sum(r.Head),
			Delta: harness.FiniteOrNil(r.Delta), DeltaLo: harness.FiniteOrNil(r.DeltaLo), DeltaHi: harness.FiniteOrNil(r.DeltaHi), Level: r.Level,
			P: r.P, PAdjusted: r.PAdjusted, Alpha: r.Alpha, Verdict: r.Verdict, Gate: r.Gate, MoreRuns: r.MoreRuns, Pairs: r.Pairs, Layouts: r.Layouts,
			RuledOut: ruledOut{Claim: ro.Claim, Bound: b, Lo: harness.FiniteOrNil(ro.Lo), Hi: harness.FiniteOrNil(ro.Hi),
				Level: ro.Level, MoreRuns: ro.MoreRuns, Text: Conclusion(r)},
			Warnings: r.Warnings,
		})
	}
	for _, g := range c.Geomeans {
		o.Geomeans = append(o.Geomeans, geomean{g.Metric.Name, g.Base, g.Head, g.Delta})
	}
	if g := c.Geomean; g.OK {
		o.Geomean = &geomean{g.Metric.Name, g.Base, g.Head, g.Delta}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(o); err != nil {
		return fmt.Errorf("compare: write json: %w", err)
	}
	return nil
}

// unitOf is what a row's figures count: "seconds" for a time (per unit of
// work, or per op, as the basis says), else the unit of Go benchmark text.
func unitOf(m analysis.Metric) string {
	if m.IsTime() {
		return "seconds"
	}
	return m.Name
}
