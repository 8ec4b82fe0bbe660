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

// parsedValue is a flag parsed by parse and shown by show, its zero value
// as "0" (which --help leaves out).
type parsedValue[T comparable] struct {
	p     *T
	parse func(string) (T, error)
	show  func(T) string
	typ   string
}

// newDurationValue is a duration flag set to def: a Go duration ("3s",
// "500ms") or plain seconds ("0.5"), not negative (parse.Duration).
func newDurationValue(p *time.Duration, def time.Duration) *parsedValue[time.Duration] {
	*p = def
	return &parsedValue[time.Duration]{p: p, parse: parse.Duration, show: time.Duration.String, typ: "duration"}
}

// newSizeValue is an amount of memory in bytes (parse.Size: 512MiB, 8GB).
func newSizeValue(p *int64) *parsedValue[int64] {
	return &parsedValue[int64]{p: p, parse: parse.Size, show: parse.FormatBytes, typ: "bytes"}
}

// Set implements pflag.Value.
func (v *parsedValue[T]) Set(s string) error {
	x, err := v.parse(s)
	if err != nil {
		return err
	}
	*v.p = x
	return nil
}

// String implements pflag.Value.
func (v *parsedValue[T]) String() string {
	var zero T
	if *v.p == zero {
		return "0"
	}
	return v.show(*v.p)
}

// Type implements pflag.Value.
func (v *parsedValue[T]) Type() string { return v.typ }

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
	_ pflag.Value = (*parsedValue[time.Duration])(nil)
	_ pflag.Value = (*checkedValue)(nil)
)
