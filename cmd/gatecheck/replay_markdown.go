package main

// The replay's report of one condition and metric for people: its part of
// OUT.md (body) and of the live report (headline, summary).

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"
)

// headline is the replayed rates the live report shows: false alarms,
// detections, slowed rows found slower and undecided rows.
func (rep *ReplayReport) headline() []Rate {
	var out []Rate
	for _, r := range rep.Rates {
		if strings.Contains(r.Name, "false alarms per") || strings.Contains(r.Name, "detected") || strings.Contains(r.Name, "found slower") ||
			(strings.HasPrefix(r.Name, "A/A") && strings.Contains(r.Name, "inconclusive")) {
			out = append(out, r)
		}
	}
	return out
}

// summary says in a sentence what the replay of one condition and metric
// is made of.
func (rep *ReplayReport) summary() string {
	return fmt.Sprintf("%d synthetic A/A sessions and %d per planted slowdown, resampled (%s) from %d recorded A/A sessions\n"+
		"(%s) and judged by the decision code `ab` runs (`analysis.Sequential`), at the recorded looks and pair counts.\n",
		rep.Sessions, rep.Planted, rep.method(), len(rep.Inputs), rep.loadRange())
}

// loadRange says the recorded sessions' load: "one-minute load average LO
// to HI on N CPUs over their runs" when every session recorded its runs'
// load, else at their start; the CPUs said when every session had the
// same count.
func (rep *ReplayReport) loadRange() string {
	lo, hi := math.Inf(1), math.Inf(-1)
	runs := true // every session recorded its runs' load
	cpus := map[int]bool{}
	for _, in := range rep.Inputs {
		if len(in.LoadAvg) > 0 {
			lo, hi = min(lo, in.LoadAvg[0]), max(hi, in.LoadAvg[0])
		}
		runs = runs && len(in.Load) == 2
		cpus[in.CPUs] = true
	}
	if runs && len(rep.Inputs) > 0 {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, in := range rep.Inputs {
			lo, hi = min(lo, in.Load[0]), max(hi, in.Load[1])
		}
	}
	if lo > hi {
		return "load not recorded"
	}
	on := ""
	if len(cpus) == 1 {
		for n := range cpus {
			on = fmt.Sprintf(" on %d CPUs", n)
		}
	}
	when := "at their start"
	if runs {
		when = "over their runs"
	}
	return fmt.Sprintf("one-minute load average %.1f to %.1f%s %s", lo, hi, on, when)
}

// shortCommand is a command line with each run of three or more recorded
// files in one directory written as a pattern: "gatecheck -replay
// dir/aa-*.json.gz (19 files)".
func shortCommand(cmd string) string {
	words := strings.Fields(cmd)
	first := len(words)
	for first > 0 && (strings.HasSuffix(words[first-1], ".json") || strings.HasSuffix(words[first-1], ".json.gz")) {
		first--
	}
	out := words[:first:first]
	for files := words[first:]; len(files) > 0; {
		n := 1
		for n < len(files) && filepath.Dir(files[n]) == filepath.Dir(files[0]) && ext(files[n]) == ext(files[0]) {
			n++
		}
		out = append(out, filesPattern(files[:n])...)
		files = files[n:]
	}
	return strings.Join(out, " ")
}

// filesPattern writes three or more files of one directory and extension
// as their common prefix and a star, with their count.
func filesPattern(files []string) []string {
	if len(files) < 3 {
		return files
	}
	prefix := strings.TrimSuffix(filepath.Base(files[0]), ext(files[0]))
	for _, f := range files {
		for !strings.HasPrefix(filepath.Base(f), prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	return []string{fmt.Sprintf("%s*%s (%d files)", filepath.Join(filepath.Dir(files[0]), prefix), ext(files[0]), len(files))}
}

// ext is a recorded file's extension: .json or .json.gz.
func ext(f string) string {
	if strings.HasSuffix(f, ".gz") {
		return ".json.gz"
	}
	return ".json"
}

func (rep *ReplayReport) method() string {
	return resampling{rep.Resample, rep.Block}.String()
}

// variantColumns are the rates a variant's table shows, by name prefix.
var variantColumns = []struct{ head, name string }{
	{"A/A false alarms per row", "A/A: false alarms per row"},
	{"A/A false alarms per session", "A/A: false alarms per session"},
	{"A/A rows inconclusive", "A/A: rows left inconclusive"},
	{"5% detected", "planted 5% on"},
	{"10% detected", "planted 10% on"},
}

func variantTable(b *strings.Builder, vs []VariantReport) {
	b.WriteString("| variant | A/A sessions | rounds (median) |")
	for _, col := range variantColumns {
		b.WriteString(" " + col.head + " |")
	}
	b.WriteString("\n|---|---:|---:|" + strings.Repeat("---|", len(variantColumns)) + "\n")
	for _, v := range vs {
		fmt.Fprintf(b, "| %s | %d | %d |", v.Name, v.Sessions, v.Rounds)
		for _, col := range variantColumns {
			cell := "–"
			for _, r := range v.Rates {
				if strings.HasPrefix(r.Name, col.name) && !strings.Contains(r.Name, "passed") {
					cell = fmt.Sprintf("%.2f%% (%.2f–%.2f)", 100*r.Rate, 100*r.Lo, 100*r.Hi)
					break
				}
			}
			b.WriteString(" " + cell + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

func rateTable(b *strings.Builder, rates []Rate) {
	b.WriteString("| measured | count | rate | 95% interval (Wilson) |\n|---|---:|---:|---|\n")
	for _, r := range rates {
		fmt.Fprintf(b, "| %s | %d of %d | %.2f%% | %.2f%% – %.2f%% |\n", r.Name, r.Hits, r.Of, 100*r.Rate, 100*r.Lo, 100*r.Hi)
	}
	b.WriteString("\n")
}

// body renders the report of one condition and metric, its headings at
// level h ("###"): how it was replayed, its rates, the variants and other
// resamplings, the dependence between pairs and the recorded sessions.
func (rep *ReplayReport) body(h string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- %d synthetic A/A sessions, %d per planted slowdown; resampling: %s; seed %d\n", rep.Sessions, rep.Planted, rep.method(), rep.Seed)
	budget := "each session's recorded budget"
	if rep.BudgetNs > 0 {
		budget = "modelled budget " + time.Duration(rep.BudgetNs).String()
	}
	cells := "every recorded cell"
	if rep.Cells != "" {
		cells = "cells " + rep.Cells
	}
	fmt.Fprintf(&b, "- gate %+g%%, alpha %g over the session; %s; %s; slowed cell `%s`\n", 100*rep.Threshold, rep.Alpha, budget, cells, rep.Slow)
	if rep.Errors > 0 {
		fmt.Fprintf(&b, "- %d synthetic session(s) gave no verdict and are left out\n", rep.Errors)
	}
	fmt.Fprintf(&b, "\n%s Rates\n\n", h)
	rateTable(&b, rep.Rates)
	b.WriteString("A/A rates by benchmark:\n\n")
	rateTable(&b, rep.CellRates)
	if len(rep.Variants) > 0 {
		fmt.Fprintf(&b, "%s Other budgets and cell sets, modelled\n\n", h)
		b.WriteString("The recorded sessions replayed as sessions with another budget or cell set would have been: the pairs per\n")
		b.WriteString("round set again from the kept cells' costs, as the engine balances them, the rounds' durations scaled by\n")
		b.WriteString("what is kept, the looks planned again and the budget look placed where the budget ends at the recorded\n")
		b.WriteString("pace; a session longer than recorded resamples its pairs beyond those recorded. Rates with their 95%\n")
		b.WriteString("Wilson intervals.\n\n")
		variantTable(&b, rep.Variants)
	}
	if len(rep.Resamplings) > 0 {
		fmt.Fprintf(&b, "%s Other resamplings\n\nThe same replay with the other resamplings (this report's: %s):\n\n", h, rep.method())
		variantTable(&b, rep.Resamplings)
	}
	fmt.Fprintf(&b, "%s Dependence between pairs\n\n", h)
	b.WriteString("Correlation of pair log ratios within a recorded session, and the spread of the sessions' shifts in units\n")
	b.WriteString("of their own standard errors (about 1 when the sessions differ by their pairs' noise only; above 1, each\n")
	b.WriteString("session has a shift of its own, which centring removes: read the \"recorded shifts kept\" rows then); and the\n")
	b.WriteString("standard deviation of a session's pair log ratios, the noise a row decides through (median over the sessions,\n")
	b.WriteString("least to greatest):\n\n")
	b.WriteString("| benchmark | pairs | lag 1 | lag 2 | sessions | spread of shifts | pair sd | pair sd range |\n|---|---:|---:|---:|---:|---:|---:|---|\n")
	for _, d := range rep.Dependence {
		spread := "–" // too few sessions with enough pairs
		if d.Sessions >= 2 {
			spread = fmt.Sprintf("%.2f", d.Spread)
		}
		fmt.Fprintf(&b, "| %s | %d | %+.2f | %+.2f | %d | %s | %.3f | %.3f – %.3f |\n", d.Label, d.Pairs, d.Lag1, d.Lag2, d.Sessions, spread,
			d.PairSD.Median, d.PairSD.Min, d.PairSD.Max)
	}
	fmt.Fprintf(&b, "\n%s Recorded sessions\n\n", h)
	b.WriteString("Rounds: at the budget look as replayed (* from the pace model); model: what the pace model gives for the\n")
	b.WriteString("recorded budget, the check of the model against the recording. Pairs: recorded → replayed (pairs per round).\n\n")
	b.WriteString("| file | started | load at start | budget | looks planned | rounds | model | pairs |\n|---|---|---|---:|---|---:|---|---|\n")
	for _, in := range rep.Inputs {
		star := ""
		if in.Estimated {
			star = "*"
		}
		var pairs []string
		for _, p := range in.Pairs {
			pairs = append(pairs, fmt.Sprintf("%s %d→%d (%d)", p.Label, p.Recorded, p.Replayed, p.Reps))
		}
		fmt.Fprintf(&b, "| %s | %s | %v | %s | %v | %d%s | %d rounds, looks %v | %s |\n", filepath.Base(in.File),
			in.StartedAt.UTC().Format(time.RFC3339), in.LoadAvg, time.Duration(in.BudgetNs), in.Plan, in.Rounds, star,
			in.ModelRounds, in.ModelPlan, strings.Join(pairs, ", "))
	}
	return b.String()
}

// methodText says how the synthetic sessions are made.
const methodText = `Each synthetic session takes a recorded session as its template (session k uses template k mod
the number of recorded sessions): its planned looks, the rounds up to its budget look and each benchmark's
pairs per round (2 + (rounds − 2)·reps pairs after a number of rounds, as the A/B engine balances them). For
every benchmark it draws that many recorded pairs (a base run and the head run made next to it, both kept
whole) and numbers them as the engine does. It judges each benchmark on every metric the condition's
sessions measured, together, as ` + "`ab --metric wall,cpu`" + ` does: one row per benchmark and metric, each row's runs
carrying the metric's value where the decision code reads the wall time (wall time; CPU time, user and system,
over the same measured passes), all rows under one Holm correction. A planted slowdown of x% in a metric
multiplies that metric's value of every head run of the slowed cell by 1 + x/100, and leaves the other metric
as recorded. Then it runs what ` + "`ab`" + ` runs: at each look,
` + "`analysis.Sequential.Decide`" + ` on both sides' files (built and summarised as the engine builds them), stopping at
the first look that decides every row; at the end ` + "`Verdict`" + ` on the session's file. The scenarios of one session
number draw the same pairs, so they differ by the planted slowdown only. Each condition (the directory its sessions
were recorded in: quiet, or noiseN with N busy-loop processes running) is replayed from its own sessions alone.

Resampling: "block" (the default) draws moving blocks of consecutive pairs from the template session's own
pairs; "pooled" draws single pairs from one benchmark's pairs pooled over all recorded sessions. Blocks keep
what independent draws lose: each session's own noise level (a session recorded while the machine was busy
stays busy in its synthetic copies) and the dependence between neighbouring pairs, which the signed-rank test
assumes away. Every draw keeps a pair's order (base first in odd pairs, head first in even ones) so that drift
within a pair cancels as in ` + "`ab`" + `. A session decided before its budget (recorded with the default gate) is extended
to the rounds its budget allows at its recorded pace; its pairs are resampled beyond those recorded.

Centring: within each recorded session, each benchmark's head runs are divided, in each metric, by 1 + the change
the gate estimates from its pairs in that metric (the Hodges-Lehmann estimate, ` + "`analysis.CompareFiles`" + ` paired), so that its pairs show
no change in the estimate the gate tests: the A/A null made exact, and a planted x% exactly x%. (Centring
on the median log ratio instead leaves a skewed session's pseudo-median off zero, and that shift, resampled,
is found more surely the longer the synthetic session.) The
"recorded shifts kept" rows skip it: each synthetic session then carries the shift its template measured,
noise included, as if it were true, so that rate errs high, the more so the fewer pairs the sessions have.
`
