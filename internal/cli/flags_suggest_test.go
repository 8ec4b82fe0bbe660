package cli

import (
	"io"
	"testing"

	"github.com/spf13/cobra"
)

// TestSuggestFlag parses each command line as the CLI does and checks what
// the flag error function would suggest.
func TestSuggestFlag(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sub", "--cel"}, "cell"},
		{[]string{"sub", "--cellz"}, "cell"},     // one edit from cell and from cells: the first by name
		{[]string{"sub", "--verbse"}, "verbose"}, // inherited
		{[]string{"sub", "--clel"}, "cell"},      // two letters swapped: two edits
		{[]string{"sub", "--ce"}, "cell"},
		{[]string{"sub", "--c"}, ""},     // three edits from cell
		{[]string{"sub", "--secrt"}, ""}, // hidden flags are not offered
		{[]string{"sub", "--nosuch-flag"}, ""},
		{[]string{"sub", "-Z"}, ""},     // an unknown shorthand
		{[]string{"sub", "--cell"}, ""}, // a missing value
	} {
		root := &cobra.Command{Use: "root", SilenceErrors: true, SilenceUsage: true}
		root.SetOut(io.Discard)
		root.PersistentFlags().Bool("verbose", false, "")
		sub := &cobra.Command{Use: "sub", Run: func(*cobra.Command, []string) {}}
		sub.Flags().String("cell", "", "")
		sub.Flags().String("cells", "", "")
		sub.Flags().String("secret", "", "")
		if err := sub.Flags().MarkHidden("secret"); err != nil {
			t.Fatal(err)
		}
		root.AddCommand(sub)
		called := false
		var got string
		root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
			called = true
			got = suggestFlag(c, err)
			return err
		})
		root.SetArgs(c.args)
		if err := root.Execute(); err == nil || !called {
			t.Fatalf("%q: parsed without a flag error (err %v)", c.args, err)
		}
		if got != c.want {
			t.Errorf("%q: suggested %q, want %q", c.args, got, c.want)
		}
	}
}
