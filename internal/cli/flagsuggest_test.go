package cli

import (
	"testing"

	"github.com/spf13/cobra"
)

func TestSuggestFlag(t *testing.T) {
	root := &cobra.Command{Use: "root"}
	root.PersistentFlags().Bool("verbose", false, "")
	sub := &cobra.Command{Use: "sub", Run: func(*cobra.Command, []string) {}}
	sub.Flags().String("cell", "", "")
	sub.Flags().String("cells", "", "")
	sub.Flags().String("secret", "", "")
	if err := sub.Flags().MarkHidden("secret"); err != nil {
		t.Fatal(err)
	}
	root.AddCommand(sub)
	for _, c := range []struct{ err, want string }{
		{"unknown flag: --cel", "cell"},
		{"unknown flag: --cellz", "cell"},     // one edit from cell and from cells: the first by name
		{"unknown flag: --verbse", "verbose"}, // inherited
		{"unknown flag: --clel", "cell"},      // two letters swapped: two edits
		{"unknown flag: --ce", "cell"},
		{"unknown flag: --c", ""},     // three edits from cell
		{"unknown flag: --secrt", ""}, // hidden flags are not offered
		{"unknown flag: --nosuch-flag", ""},
		{"unknown flag: --", ""},
		{"unknown shorthand flag: 'Z' in -Z", ""},
		{"flag needs an argument: --cell", ""},
	} {
		if got := suggestFlag(sub, c.err); got != c.want {
			t.Errorf("suggestFlag(%q) = %q, want %q", c.err, got, c.want)
		}
	}
}
