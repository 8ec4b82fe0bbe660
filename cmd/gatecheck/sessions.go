package main

// The recorded sessions as the replay finds them: grouped by the condition
// they were recorded under, which is their directory's name (quiet,
// noiseN: `gatecheck -record` puts them there), never guessed from the
// load; with each condition's record log.

import (
	"cmp"
	"path/filepath"
	"slices"
)

// sessionGroup is the recorded sessions of one condition.
type sessionGroup struct {
	// cond is the condition's name: quiet, noiseN, or unrecordedName for
	// sessions outside a condition's directory.
	cond  string
	noise int // noise processes; -1 when not recorded
	files []string
	// log is the record log of the condition's directories: every
	// session recorded, with its exit status, the failed ones included.
	log []RecordEntry
}

// describe says the group's condition in a sentence's words.
func (g *sessionGroup) describe() string {
	if g.noise < 0 {
		return "condition not recorded (sessions outside a condition's directory)"
	}
	return condition{noise: g.noise}.describe()
}

// groupSessions groups recorded sessions by condition: quiet first, then
// busier conditions by their noise, then sessions of no recorded
// condition; each group's files keep their order.
func groupSessions(files []string) ([]*sessionGroup, error) {
	byName := map[string]*sessionGroup{}
	var groups []*sessionGroup
	logged := map[string]bool{}
	for _, f := range files {
		dir := filepath.Dir(f)
		name, noise := unrecordedName, -1
		if c, ok := parseCondition(filepath.Base(dir)); ok {
			name, noise = c.name(), c.noise
		}
		g := byName[name]
		if g == nil {
			g = &sessionGroup{cond: name, noise: noise}
			byName[name] = g
			groups = append(groups, g)
		}
		g.files = append(g.files, f)
		if noise >= 0 && !logged[dir] {
			logged[dir] = true
			entries, err := readLog(filepath.Join(dir, recordLogName))
			if err != nil {
				return nil, err
			}
			g.log = append(g.log, entries...)
		}
	}
	slices.SortStableFunc(groups, func(a, b *sessionGroup) int {
		// noise -1 (not recorded) last
		return cmp.Compare(uint(a.noise), uint(b.noise))
	})
	return groups, nil
}
