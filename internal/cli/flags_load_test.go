package cli

import (
	"os"
	"testing"
)

// --wait-for-load and --wait-timeout are refused in one line, before
// anything builds or runs, by every command that takes them.
func TestWaitForLoadBadInput(t *testing.T) {
	t.Parallel()
	commands := map[string][]string{
		"run":    {"run", "--cell", "ocaml", "--runs", "1"},
		"ab":     {"ab", "--base", os.Args[0], "--cell", "ocaml"},
		"bisect": {"bisect", "--good", "HEAD~1", "--bad", "HEAD", "--repo", t.TempDir()},
	}
	for name, args := range commands {
		for _, tc := range []struct {
			flags []string
			want  []string
		}{
			{[]string{"--wait-for-load", "-1"}, []string{"--wait-for-load", `"-1": accepted: a one-minute load average above 0`}},
			{[]string{"--wait-for-load", "abc"}, []string{"--wait-for-load", `"abc": accepted`}},
			{[]string{"--wait-for-load", "0"}, []string{"--wait-for-load", "above 0"}},
			{[]string{"--wait-for-load", "2", "--wait-timeout", "0"}, []string{"--wait-timeout 0s: accepted: a positive duration"}},
			{[]string{"--wait-for-load", "2", "--wait-timeout", "-5s"}, []string{"--wait-timeout"}},
			{[]string{"--wait-timeout", "1m"}, []string{"--wait-timeout needs --wait-for-load"}},
		} {
			t.Run(name+" "+tc.flags[0]+" "+tc.flags[1], func(t *testing.T) {
				t.Parallel()
				refusedInOneLine(t, inProcess(t, append(args, tc.flags...)...), tc.want...)
			})
		}
	}
}
