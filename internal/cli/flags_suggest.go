package cli

import (
	"errors"

	"github.com/agnivade/levenshtein"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// maxFlagEdits is how far a mistyped flag may be from a real one for the
// error to suggest it: two edits (letters dropped, added or changed; two
// letters swapped count as two), as cobra's command suggestions allow.
const maxFlagEdits = 2

// suggestFlag returns the flag of c nearest to the long flag that err, a
// parse error of c's flags, says does not exist, within maxFlagEdits edits
// and not hidden. c.Flags() holds c's own flags and, once cobra has parsed
// them, the persistent flags it inherits. It returns "" for any other
// error (an unknown shorthand among them), or when no flag is that near.
// Ties go to the flag that comes first in name order, so the suggestion
// does not vary.
func suggestFlag(c *cobra.Command, err error) string {
	var unknown *pflag.NotExistError
	if !errors.As(err, &unknown) || unknown.GetSpecifiedShortnames() != "" {
		return ""
	}
	typed := unknown.GetSpecifiedName()
	best, bestEdits := "", maxFlagEdits+1
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if d := levenshtein.ComputeDistance(typed, f.Name); d < bestEdits || (d == bestEdits && f.Name < best) {
			best, bestEdits = f.Name, d
		}
	})
	return best
}
