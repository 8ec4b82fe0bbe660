package main

// The synthetic section of results/history.md: definitions, the targets,
// then the noise models, the step's position and the settings.

import (
	"fmt"
	"strings"
)

// synthetic renders the section from the plan's tallies.
func synthetic(p *plan, ts []tally, series int) string {
	var b strings.Builder
	b.WriteString("## Synthetic series\n\n")
	definitions(&b, series)
	targets(&b, p, ts)
	noiseTable(&b, p, ts)
	positionTable(&b, p, ts)
	settingsTable(&b, p, ts)
	return b.String()
}

func definitions(b *strings.Builder, series int) {
	fmt.Fprintf(b, "Each experiment runs %d series. A run's value is its commit's level times\n", series)
	fmt.Fprintf(b, "a draw of `distuv.Normal{Mu: 1, Sigma: CV}`; a point (commit) has one run or\n")
	fmt.Fprintf(b, "several, and the method takes the median of their logs. With build-to-build\n")
	fmt.Fprintf(b, "noise, each commit's level is first multiplied by its own draw of\n")
	fmt.Fprintf(b, "`distuv.LogNormal{Mu: 0, Sigma: σ}`, shared by all its runs, as a build's\n")
	fmt.Fprintf(b, "function layout is. The series:\n\n")
	fmt.Fprintf(b, "- **step**: %s;\n", step.what)
	fmt.Fprintf(b, "- **pure noise**: %s;\n", pure.what)
	fmt.Fprintf(b, "- **creep**: %s.\n\n", creep.what)
	b.WriteString("What is counted, per series:\n\n")
	b.WriteString("- **found**: at least one change point is reported;\n")
	b.WriteString("- **located**: a change point's range holds the true step: LastGood < step ≤\n")
	b.WriteString("  FirstBad, the step being the first point of the new level (a creep's: any\n")
	b.WriteString("  of its steps);\n")
	b.WriteString("- **exact**: a change point's Index is the true step;\n")
	b.WriteString("- **false change points**: in pure noise, every change point reported, per\n")
	b.WriteString("  point of the series.\n\n")
	b.WriteString("Intervals are 95% Wilson intervals (`analysis.WilsonInterval`). Series are\n")
	b.WriteString("independent trials; the points of one series are not (false change points\n")
	b.WriteString("often come in pairs around an outlying stretch), so the per-point interval is\n")
	b.WriteString("narrower than it should be, and the row of series with a false change point\n")
	b.WriteString("is the one with independent trials.\n\n")
}

func targets(b *strings.Builder, p *plan, ts []tally) {
	st, pu, cr := ts[p.noise[0][0]], ts[p.noise[0][1]], ts[p.noise[0][2]]
	tableStart(b, fmt.Sprintf("The targets (%v, the defaults)", base), "", "lrrlll",
		"measured", "count", "rate", "95% interval", "target", "")
	k, r, iv := rateCells(st.found, st.series)
	row(b, "step: found", k, r, iv, "≥ "+pct(stepFoundTarget), verdict(st.found, st.series, stepFoundTarget))
	k, r, iv = rateCells(st.located, st.series)
	row(b, "step: located", k, r, iv, "≥ "+pct(stepLocatedTarget), verdict(st.located, st.series, stepLocatedTarget))
	k, r, iv = perThousand(pu.changePoints, pu.points)
	row(b, "pure noise: false change points", k, r, iv, fmt.Sprintf("≤ %g per 1,000", 1000*falsePerPoint),
		verdictAtMost(pu.changePoints, pu.points, falsePerPoint))
	k, r, iv = rateCells(pu.found, pu.series)
	row(b, "pure noise: series with a false change point", k, r, iv, "", "")
	k, r, iv = rateCells(cr.found, cr.series)
	row(b, "creep: found", k, r, iv, "≥ "+pct(creepFoundTarget), verdict(cr.found, cr.series, creepFoundTarget))
	k, r, iv = rateCells(cr.located, cr.series)
	row(b, "creep: located (a range holds one of its steps)", k, r, iv, "", "")
	fmt.Fprintf(b, "\nThe step's located ranges are %s points wide on average (FirstBad − LastGood;\n", meanWidth(st))
	fmt.Fprintf(b, "1 is a range of two adjacent commits); %s of the step series have a change\n", pct(float64(st.exact)/float64(max(st.series, 1))))
	b.WriteString("point exactly at the step. A creep gives on average ")
	fmt.Fprintf(b, "%.1f change points.\n\n", float64(cr.changePoints)/float64(max(cr.series, 1)))
}

func noiseTable(b *strings.Builder, p *plan, ts []tally) {
	tableStart(b, "Noise models", `The same series kinds under other per-point noise. The t-test over runs
(`+"`analysis.ObserveRuns`"+`) treats the runs of one commit as independent; it is
measured as the contrast that shows why the method compares commits: a
build's offset is shared by all its runs.`, "llrrlr",
		"noise per point", "the t-test over", "step: found", "step: located",
		"false change points per 1,000 points (95%)", "creep: found")
	for i, r := range noiseRows {
		st, pu, cr := ts[p.noise[i][0]], ts[p.noise[i][1]], ts[p.noise[i][2]]
		over := "commits"
		if r.obs != 0 {
			over = "runs"
		}
		_, fr, fiv := perThousand(pu.changePoints, pu.points)
		row(b, r.noise.String(), over, pct(frac(st.found, st.series)), pct(frac(st.located, st.series)),
			fmt.Sprintf("%s (%s)", strings.TrimSuffix(fr, " per 1,000"), strings.TrimSuffix(fiv, " per 1,000")),
			pct(frac(cr.found, cr.series)))
	}
	b.WriteString("\n")
}

func positionTable(b *strings.Builder, p *plan, ts []tally) {
	tableStart(b, fmt.Sprintf("Where the step is (%v, the defaults)", base), `Steps of 40 points at fixed places; a step at point 1 leaves one point
before it, the least the method can split off.`, "lrrrrr",
		"step", "at point", "found", "located", "exact", "mean range width")
	for i, q := range positions {
		t := ts[p.position[i]]
		row(b, change(q.factor), fmt.Sprint(q.at), pct(frac(t.found, t.series)),
			pct(frac(t.located, t.series)), pct(frac(t.exact, t.series)), meanWidth(t))
	}
	b.WriteString("\n")
}

func settingsTable(b *strings.Builder, p *plan, ts []tally) {
	tableStart(b, fmt.Sprintf("Settings (%v)", base), `The method at other levels and windows, on the targets' series (the same
series for every row). The first row is Otava's defaults.`, "rrrrrrr",
		"strict level", "relaxed level", "window", "step: found", "step: located",
		"false change points per 1,000 points", "series with a false change point")
	for i, s := range settings {
		st, pu := ts[p.setting[i][0]], ts[p.setting[i][1]]
		mark := ""
		if s == defaultSetting {
			mark = " (default)"
		}
		row(b, fmt.Sprintf("%g%s", s.strict, mark), fmt.Sprintf("%g", s.strict*s.factor), fmt.Sprint(s.window),
			pct(frac(st.found, st.series)), pct(frac(st.located, st.series)),
			fmt.Sprintf("%.2f", 1000*frac(pu.changePoints, pu.points)), pct(frac(pu.found, pu.series)))
	}
	b.WriteString("\n")
}

// tableStart writes a table's heading, its paragraph (if any), and its
// header row, aligned column by column: l left, r right.
func tableStart(b *strings.Builder, title, intro, align string, header ...string) {
	fmt.Fprintf(b, "### %s\n\n", title)
	if intro != "" {
		fmt.Fprintf(b, "%s\n\n", intro)
	}
	row(b, header...)
	rule := make([]string, len(header))
	for i := range rule {
		rule[i] = "---"
		if align[i] == 'r' {
			rule[i] = "---:"
		}
	}
	fmt.Fprintf(b, "|%s|\n", strings.Join(rule, "|"))
}

func frac(k, n int) float64 { return float64(k) / float64(max(n, 1)) }
