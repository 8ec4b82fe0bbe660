package cli

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// multiArgFlags are hyperfine's flags that take more than one argument;
// pflag takes one value per flag, so expandMultiArgFlags joins them first.
var multiArgFlags = map[string]struct {
	args int
	join func(a []string) string
}{
	"parameter-list": {2, func(a []string) string { return a[0] + "=" + a[1] }},
	"parameter-scan": {3, func(a []string) string { return a[0] + "=" + a[1] + ":" + a[2] }},
}

// expandMultiArgFlags rewrites hyperfine's multi-argument flags into the
// one-value form the flag parser reads: `-L NAME VALUES` and
// `--parameter-list NAME VALUES` become `--parameter-list=NAME=VALUES`, and
// `-P NAME MIN MAX` becomes `--parameter-scan=NAME=MIN:MAX`. A flag whose
// next argument already holds the whole value (`-L NAME=VALUES`), or that
// has too few arguments left, is left alone for the parser to judge. Values
// of other flags (`-n -L`) and everything after `--` are never rewritten:
// the command's flags say which flags take a value.
func expandMultiArgFlags(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil || cmd == nil {
		return args
	}
	flags := pflag.NewFlagSet(cmd.Name(), pflag.ContinueOnError)
	flags.AddFlagSet(cmd.Flags())
	flags.AddFlagSet(cmd.InheritedFlags())
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		f := lookupFlag(flags, a)
		if f == nil {
			out = append(out, a)
			continue
		}
		if optionalValue(cmd, f, a) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			out = append(out, "--"+f.Name+"="+args[i+1])
			i++
			continue
		}
		if m, ok := multiArgFlags[f.Name]; ok && i+m.args < len(args) && !strings.Contains(args[i+1], "=") {
			out = append(out, "--"+f.Name+"="+m.join(args[i+1:i+1+m.args]))
			i += m.args
			continue
		}
		out = append(out, a)
		if f.NoOptDefVal == "" && !strings.Contains(a, "=") && i+1 < len(args) {
			// The flag takes a value and it is the next argument: copy it as is.
			i++
			out = append(out, args[i])
		}
	}
	return out
}

// lookupFlag finds the flag an argument names ("--runs", "-r"), or nil for
// a non-flag argument, "--name=value" forms included. Grouped short flags
// ("-ir") are left to the parser.
func lookupFlag(flags *pflag.FlagSet, arg string) *pflag.Flag {
	switch {
	case strings.HasPrefix(arg, "--"):
		name, _, _ := strings.Cut(arg[2:], "=")
		return flags.Lookup(name)
	case strings.HasPrefix(arg, "-") && len(arg) == 2:
		return flags.ShorthandLookup(arg[1:])
	}
	return nil
}

// optionalValue reports whether arg, naming flag f of cmd, takes the next
// argument as its value although f may be given alone (NoOptDefVal):
// `run --history PATH` as `run --history=PATH`. Only on a command that
// takes no arguments, where the next one can be nothing else; elsewhere
// (report FILE...) the value must be joined: --history=PATH.
func optionalValue(cmd *cobra.Command, f *pflag.Flag, arg string) bool {
	return f.NoOptDefVal != "" && f.Value.Type() == "string" && !strings.Contains(arg, "=") &&
		cmd.Args != nil && cmd.Args(cmd, []string{"x"}) != nil
}
