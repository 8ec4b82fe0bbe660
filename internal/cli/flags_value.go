package cli

import (
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"github.com/rootbench/rootbench/parse"
)

// The typed flag values. Each one parses its text when the flag is given
// (so a bad value is refused while the command line is read, before
// anything runs), accepts '_' between digits as the OCaml benchmark's
// variables do (100_000), and names its kind in Type() so that --help shows
// `--runs int`, `--timeout duration`, `--max-memory bytes`. Whether the user
// gave a flag is cmd.Flags().Changed(name), never a comparison with its
// default text.

// intValue is an integer flag within [min, max].
type intValue struct {
	p        *int
	min, max int64
}

// newIntValue sets *p to def and returns a flag value for it.
func newIntValue(p *int, def int, min, max int64) *intValue {
	*p = def
	return &intValue{p: p, min: min, max: max}
}

// Set implements pflag.Value.
func (v *intValue) Set(s string) error {
	n, err := parse.Int(s)
	if err != nil {
		return err
	}
	if n < v.min || n > v.max {
		return fmt.Errorf("%s is out of range: accepted: a whole number from %d to %d", s, v.min, v.max)
	}
	*v.p = int(n)
	return nil
}

// String implements pflag.Value.
func (v *intValue) String() string { return strconv.Itoa(*v.p) }

// Type implements pflag.Value.
func (v *intValue) Type() string { return "int" }

// durationValue is a duration flag: a Go duration ("3s", "500ms") or plain
// seconds ("0.5"), not negative.
type durationValue struct{ p *time.Duration }

func newDurationValue(p *time.Duration, def time.Duration) *durationValue {
	*p = def
	return &durationValue{p: p}
}

// Set implements pflag.Value.
func (v *durationValue) Set(s string) error {
	d, err := parse.Duration(s)
	if err != nil {
		return err
	}
	*v.p = d
	return nil
}

// String implements pflag.Value. Zero is "0", which --help leaves out as
// the zero value.
func (v *durationValue) String() string {
	if *v.p == 0 {
		return "0"
	}
	return v.p.String()
}

// Type implements pflag.Value.
func (v *durationValue) Type() string { return "duration" }

// sizeValue is an amount of memory in bytes (parse.Size: 512MiB, 8GB).
type sizeValue struct{ p *int64 }

// Set implements pflag.Value.
func (v *sizeValue) Set(s string) error {
	n, err := parse.Size(s)
	if err != nil {
		return err
	}
	*v.p = n
	return nil
}

// String implements pflag.Value.
func (v *sizeValue) String() string {
	if *v.p == 0 {
		return "0"
	}
	return parse.FormatBytes(*v.p)
}

// Type implements pflag.Value.
func (v *sizeValue) Type() string { return "bytes" }

// checkedValue is a flag kept as text, checked by a function when given: the
// workload parameters, whose rules live with the workload (msgpass.Params.Set)
// and are applied after the environment.
type checkedValue struct {
	text  string
	typ   string
	check func(string) error
}

// Set implements pflag.Value.
func (v *checkedValue) Set(s string) error {
	if err := v.check(s); err != nil {
		return err
	}
	v.text = s
	return nil
}

// String implements pflag.Value.
func (v *checkedValue) String() string { return v.text }

// Type implements pflag.Value.
func (v *checkedValue) Type() string { return v.typ }

var (
	_ pflag.Value = (*intValue)(nil)
	_ pflag.Value = (*durationValue)(nil)
	_ pflag.Value = (*sizeValue)(nil)
	_ pflag.Value = (*checkedValue)(nil)
)
