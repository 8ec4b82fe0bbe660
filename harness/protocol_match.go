package harness

import (
	"errors"
	"fmt"
	"strings"
)

// Matching sides: the parameters under which two or more builds' workers
// measure the same thing (MatchSides).

// MatchSides returns the parameters that make every side measure the same
// thing, for each side to render with its own Args, and notes that say
// where a side could only run the nearest equivalent. params should hold
// every parameter (msgpass.Params.Map()), so that no side falls back to a
// default of its own.
//
// The rules, in order:
//   - every side must have the workload;
//   - if a side predates passes (Fixed passes=1, warmup-passes=0), every side
//     runs passes=1 and, where it can, warmup-passes=0: one measured pass and
//     no warm-up, as that side does. A note says so, and says which side
//     cannot skip its warm-up pass (a worker from 8e283c8 up to protocol 1).
//     An explicit warmup-passes other than 0 is refused;
//   - a parameter a side does not accept is kept if that side always runs
//     the asked value (Fixed), dropped with a note if the value is the
//     default of every side that accepts it (those run it by default), and
//     refused otherwise.
//
// Every error is one line naming the side and the parameter.
func MatchSides(workload string, params map[string]string, sides ...*WorkerInfo) (common map[string]string, notes []string, err error) {
	if len(sides) == 0 {
		return nil, nil, errors.New("match sides: no side")
	}
	for _, s := range sides {
		if err := s.workloadErr(workload); err != nil {
			return nil, nil, err
		}
	}
	common, err = canonicalParams(params)
	if err != nil {
		return nil, nil, err
	}
	notes, err = matchPasses(workload, common, sides)
	if err != nil {
		return nil, nil, err
	}
	for _, name := range sortedKeys(common) {
		note, err := matchParam(workload, name, common, sides)
		if err != nil {
			return nil, nil, err
		}
		if note != "" {
			notes = append(notes, note)
		}
	}
	return common, notes, nil
}

// matchPasses applies MatchSides' passes rule to common.
func matchPasses(workload string, common map[string]string, sides []*WorkerInfo) ([]string, error) {
	var before, noSkip []*WorkerInfo // sides without passes; sides that always warm up
	for _, s := range sides {
		if f, ok := s.fixed(workload, ParamPasses); ok && sameValue(f, "1") {
			before = append(before, s)
		}
		if f, ok := s.fixed(workload, ParamWarmupPasses); ok && !sameValue(f, "0") {
			noSkip = append(noSkip, s)
		}
	}
	if len(before) == 0 {
		return nil, nil
	}
	asked, hasPasses := common[ParamPasses]
	if w, ok := common[ParamWarmupPasses]; ok && !sameValue(w, "0") {
		return nil, fmt.Errorf("%s %s the warm-up pass: %s=%s cannot be expressed there (0 can)",
			names(before), verb(before, "predates", "predate"), ParamWarmupPasses, w)
	}
	instead := ""
	if hasPasses && !sameValue(asked, "1") {
		instead = fmt.Sprintf(" (instead of %s=%s)", ParamPasses, asked)
	}
	common[ParamPasses] = "1"
	if len(noSkip) == 0 {
		common[ParamWarmupPasses] = "0"
		return []string{fmt.Sprintf("%s %s %s and the warm-up pass: %s 1 pass%s, no warm-up",
			names(before), verb(before, "predates", "predate"), ParamPasses, every(len(sides)), instead)}, nil
	}
	// A side that cannot skip its warm-up runs it; the others then run
	// their defaults (a warm-up where they have one) rather than a
	// warmup-passes=0 that side cannot match.
	delete(common, ParamWarmupPasses)
	return []string{fmt.Sprintf("%s %s %s and the warm-up pass: %s 1 measured pass%s; %s always %s an unmeasured warm-up pass first (%s %s %s), %s never %s",
		names(before), verb(before, "predates", "predate"), ParamPasses, every(len(sides)), instead,
		names(noSkip), verb(noSkip, "runs", "run"), verb(noSkip, "it", "they"), verb(noSkip, "predates", "predate"), ParamWarmupPasses,
		names(before), verb(before, "does", "do"))}, nil
}

// matchParam applies MatchSides' last rule to one parameter of common.
func matchParam(workload, name string, common map[string]string, sides []*WorkerInfo) (string, error) {
	v := common[name]
	var lacking []*WorkerInfo
	for _, s := range sides {
		if s.accepts(workload, name) {
			continue
		}
		if f, ok := s.fixed(workload, name); ok {
			if sameValue(f, v) {
				continue
			}
			return "", fmt.Errorf("%s always runs %s %s=%s (it has no parameter %s): %s=%s cannot be expressed there",
				s.Name, workload, name, f, name, name, v)
		}
		lacking = append(lacking, s)
	}
	if len(lacking) == 0 {
		return "", nil
	}
	if len(lacking) == len(sides) {
		return "", fmt.Errorf("%s %s no %s parameter %s (accepted: %s)",
			names(lacking), verb(lacking, "has", "have"), workload, name, strings.Join(sides[0].Workloads[workload], ", "))
	}
	for _, s := range sides {
		if !s.accepts(workload, name) {
			continue
		}
		def, ok := s.Defaults[workload][name]
		if !ok || !sameValue(def, v) {
			return "", fmt.Errorf("%s %s no %s parameter %s, and %s=%s is not the default of %s: it cannot be expressed there",
				names(lacking), verb(lacking, "has", "have"), workload, name, name, v, s.Name)
		}
	}
	delete(common, name)
	return fmt.Sprintf("%s %s no %s parameter %s: the other sides run its default, %s",
		names(lacking), verb(lacking, "has", "have"), workload, name, v), nil
}

// names joins the sides' names for a note: "base (51c97ff)", "a and b".
func names(sides []*WorkerInfo) string {
	ns := make([]string, len(sides))
	for i, s := range sides {
		ns[i] = s.Name
	}
	if len(ns) <= 2 {
		return strings.Join(ns, " and ")
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

// verb is singular for one side, plural for more.
func verb(sides []*WorkerInfo, singular, plural string) string {
	if len(sides) == 1 {
		return singular
	}
	return plural
}

// every says what all n sides do in a note: "both sides run".
func every(n int) string {
	switch n {
	case 1:
		return "it runs"
	case 2:
		return "both sides run"
	}
	return fmt.Sprintf("all %d sides run", n)
}
