package cli

import (
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// maxFlagEdits is how far a mistyped flag may be from a real one for the
// error to suggest it: two edits (letters dropped, added or changed; two
// letters swapped count as two), as cobra's command suggestions allow.
const maxFlagEdits = 2

// suggestFlag returns the flag of c nearest to the one that errText, an
// "unknown flag: --NAME" error from pflag, names: its own flags and those
// it inherits, not hidden ones, within maxFlagEdits edits. It returns ""
// for any other error, or when no flag is that near. Ties go to the flag
// that comes first in name order, so the suggestion does not vary.
func suggestFlag(c *cobra.Command, errText string) string {
	typed, ok := strings.CutPrefix(errText, "unknown flag: --")
	if !ok || typed == "" {
		return ""
	}
	best, bestEdits := "", maxFlagEdits+1
	consider := func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if d := levenshtein.ComputeDistance(typed, f.Name); d < bestEdits || (d == bestEdits && f.Name < best) {
			best, bestEdits = f.Name, d
		}
	}
	c.Flags().VisitAll(consider)
	c.InheritedFlags().VisitAll(consider)
	return best
}
