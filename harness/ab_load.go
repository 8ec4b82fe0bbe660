package harness

// LoadRange is the lowest and highest one-minute load average the session's
// runs started under (both sides, every run whose Env was read); ok is false
// when no run recorded one.
func (f *ABFile) LoadRange() (lo, hi float64, ok bool) {
	for _, side := range []*File{f.Base, f.Head} {
		if side == nil {
			continue
		}
		for _, r := range side.Results {
			for _, run := range r.Runs {
				if run.Env == nil {
					continue
				}
				if !ok || run.Env.Load1 < lo {
					lo = run.Env.Load1
				}
				if !ok || run.Env.Load1 > hi {
					hi = run.Env.Load1
				}
				ok = true
			}
		}
	}
	return lo, hi, ok
}

// highStealPairs counts the pairs of the session (a benchmark's base and
// head runs with one Pair number) in which either run saw steal above
// HighSteal (RunEnv.HighSteal).
func (f *ABFile) highStealPairs() int {
	type key struct {
		label string
		pair  int
	}
	flagged := map[key]bool{}
	for _, side := range []*File{f.Base, f.Head} {
		if side == nil {
			continue
		}
		for _, r := range side.Results {
			for _, run := range r.Runs {
				if run.Pair > 0 && run.Env != nil && run.Env.HighSteal {
					flagged[key{r.Label, run.Pair}] = true
				}
			}
		}
	}
	return len(flagged)
}
