package series

import "time"

// Commit is a commit as the store knows it.
type Commit struct {
	// Hash is the full commit hash a results file's tool revision gives.
	Hash string
	// Time is the committer time; zero when unknown (the commit was not
	// in the repository of any add that stored it).
	Time time.Time
	// Branch is the branch the commit was measured on; "" when unknown.
	Branch string
}

// Short is the hash's first 7 digits, as git abbreviates it.
func (c Commit) Short() string {
	if len(c.Hash) > 7 {
		return c.Hash[:7]
	}
	return c.Hash
}

// Bisection is one bisection of a series' change point (rootbench history
// bisect): the range it searched, how it ended and the culprit it named.
type Bisection struct {
	// SeriesID is the series whose change point it bisected (Series.ID).
	SeriesID int64
	// Good and Bad are the full hashes of the range: the change point's
	// last good and first bad commits.
	Good, Bad string
	// Outcome is how the bisection ended, in bisect's words ("found", "no
	// regression", "ambiguous", ...).
	Outcome string
	// Culprit is the full hash of the commit it named; "" when it named
	// none ("no single culprit").
	Culprit string
	// Detail is its result line, as it printed it.
	Detail string
	// At is when it ended.
	At time.Time
}
