package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"pgregory.net/rapid"

	"github.com/rootbench/rootbench/harness"
)

func TestIntValue(t *testing.T) {
	t.Parallel()
	var n int
	v := newIntValue(&n, 10, 1, 2147483647)
	if n != 10 || v.String() != "10" || v.Type() != "int" {
		t.Fatalf("new value: n=%d String=%q Type=%q; want 10, \"10\", \"int\"", n, v.String(), v.Type())
	}
	for in, want := range map[string]int{"100_000": 100000, "1": 1, "2147483647": 2147483647} {
		if err := v.Set(in); err != nil || n != want {
			t.Errorf("Set(%q): n=%d, err %v; want %d", in, n, err, want)
		}
	}
	n = 7
	for _, in := range []string{"0", "2147483648", "-1", "1e3", "1__0", ""} {
		err := v.Set(in)
		if err == nil {
			t.Errorf("Set(%q): no error", in)
			continue
		}
		if !strings.Contains(err.Error(), "accepted") {
			t.Errorf("Set(%q): error %q does not say what is accepted", in, err)
		}
		if n != 7 {
			t.Errorf("Set(%q) failed but changed the value to %d", in, n)
		}
	}
	if err := v.Set("0"); err == nil || !strings.Contains(err.Error(), "from 1 to 2147483647") {
		t.Errorf("Set(0): error %v, want the real bounds 1 to 2147483647", err)
	}
}

func TestFlagTypesInHelp(t *testing.T) {
	t.Parallel()
	cmd := newRunCmd()
	for name, want := range map[string]string{
		"runs": "int", "warmup": "int", "min-runs": "int", "max-runs": "int", "niters": "int",
		"batch-size": "int", "max-delay": "int", "timeout": "duration", "min-time": "duration",
		"max-memory": "bytes", "parameter-step-size": "int",
	} {
		f := cmd.Flags().Lookup(name)
		if f == nil {
			t.Errorf("run has no --%s", name)
			continue
		}
		if got := f.Value.Type(); got != want {
			t.Errorf("--%s shows as %q in --help, want %q", name, got, want)
		}
	}
	for short, long := range map[string]string{"w": "warmup", "r": "runs", "m": "min-runs", "M": "max-runs",
		"L": "parameter-list", "P": "parameter-scan", "D": "parameter-step-size", "u": "time-unit",
		"s": "style", "i": "ignore-failure", "n": "command-name"} {
		if f := cmd.Flags().ShorthandLookup(short); f == nil || f.Name != long {
			t.Errorf("-%s is %v, want --%s", short, f, long)
		}
	}
}

func TestExpandMultiArgFlags(t *testing.T) {
	t.Parallel()
	root := newRootCmd()
	for _, c := range []struct{ in, want string }{
		{"run -L batch-size 16,64", "run --parameter-list=batch-size=16,64"},
		{"run --parameter-list batch-size 16,64 -r 3", "run --parameter-list=batch-size=16,64 -r 3"},
		{"run -L batch-size=16,64", "run -L batch-size=16,64"},
		{"run --parameter-list=batch-size=16,64", "run --parameter-list=batch-size=16,64"},
		{"run -P batch-size 16 64 -D 16", "run --parameter-scan=batch-size=16:64 -D 16"},
		{"run -L niters 1,2 -L producers 1,2", "run --parameter-list=niters=1,2 --parameter-list=producers=1,2"},
		{"run -n -L -L batch-size 1,2", "run -n -L --parameter-list=batch-size=1,2"}, // -L is -n's value
		{"run --cell -P -P niters 1 2", "run --cell -P --parameter-scan=niters=1:2"}, // -P is --cell's value
		{"run -i -L batch-size 1,2", "run -i --parameter-list=batch-size=1,2"},       // -i takes no value
		{"run -L batch-size", "run -L batch-size"},                                   // too few: the parser judges
		{"run -P niters 1", "run -P niters 1"},                                       // too few
		{"run -- -L a b", "run -- -L a b"},                                           // after --
		{"callback -L calls 10,20", "callback --parameter-list=calls=10,20"},
		{"list -L a b", "list -L a b"}, // list has no -L
		{"nosuchcommand -L a b", "nosuchcommand -L a b"},
	} {
		got := strings.Join(expandMultiArgFlags(root, strings.Fields(c.in)), " ")
		if got != c.want {
			t.Errorf("expand %q = %q, want %q", c.in, got, c.want)
		}
	}
}

// Arguments without the multi-argument flags pass through unchanged.
func TestExpandMultiArgFlagsKeepsOtherArgs(t *testing.T) {
	t.Parallel()
	root := newRootCmd()
	words := []string{"-r", "3", "--runs", "--cell", "ocaml", "-i", "--", "x", "-n", "name", "--niters=5", "-w", "1", "--show-output"}
	rapid.Check(t, func(t *rapid.T) {
		args := append([]string{"run"}, rapid.SliceOf(rapid.SampledFrom(words)).Draw(t, "args")...)
		if got := expandMultiArgFlags(root, args); !slices.Equal(got, args) {
			t.Fatalf("expand %q = %q, want it unchanged", args, got)
		}
	})
}

func TestExpandScan(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		spec string
		step int64
		want string
	}{
		{"batch-size=16:64", 16, "batch-size=16,32,48,64"},
		{"batch-size=16:60", 16, "batch-size=16,32,48"},
		{"niters=1_000:1_000", 1, "niters=1000"},
		{"max-delay=-2:1", 1, "max-delay=-2,-1,0,1"},
		{"max-delay=9223372036854775806:9223372036854775807", 1, "max-delay=9223372036854775806,9223372036854775807"},
	} {
		got, err := expandScan(c.spec, c.step)
		if err != nil || got != c.want {
			t.Errorf("expandScan(%q, %d) = %q, %v; want %q", c.spec, c.step, got, err, c.want)
		}
	}
	for _, spec := range []string{"batch-size", "batch-size=1", "=1:2", "n=a:2", "n=1:b", "n=2:1", "n=0:100000"} {
		if got, err := expandScan(spec, 1); err == nil {
			t.Errorf("expandScan(%q, 1) = %q, want an error", spec, got)
		}
	}
	if _, err := expandScan("n=-9223372036854775808:9223372036854775807", 1<<62); err != nil {
		t.Errorf("the whole int64 range by 2^62: %v", err)
	}
}

func TestNameBenchmarks(t *testing.T) {
	t.Parallel()
	bench := func() []harness.Benchmark {
		return []harness.Benchmark{
			{Cell: "ocaml", Label: "ocaml batch-size=16", Params: map[string]string{"batch-size": "16"}},
			{Cell: "ocaml", Label: "ocaml batch-size=64", Params: map[string]string{"batch-size": "64"}},
		}
	}
	for _, c := range []struct {
		names []string
		want  []string
		err   string
	}{
		{nil, []string{"ocaml batch-size=16", "ocaml batch-size=64"}, ""},
		{[]string{"{cell}/{batch-size}"}, []string{"ocaml/16", "ocaml/64"}, ""},
		{[]string{"small", "big"}, []string{"small", "big"}, ""},
		{[]string{"{cell}"}, nil, "both named"},
		{[]string{"a", "b", "c"}, nil, "given 3 times for 2 benchmarks"},
		{[]string{"a", ""}, nil, "empty name"},
	} {
		var b benchFlags
		cmd := &cobra.Command{}
		b.register(cmd)
		b.commandNames = c.names
		bs := bench()
		err := b.nameBenchmarks(bs)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("names %q: error %v, want %q", c.names, err, c.err)
			}
		case err != nil:
			t.Errorf("names %q: %v", c.names, err)
		default:
			for i, w := range c.want {
				if bs[i].Label != w {
					t.Errorf("names %q: benchmark %d is %q, want %q", c.names, i+1, bs[i].Label, w)
				}
			}
		}
	}
}

func TestCheckExports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := filepath.Join(dir, "a.json")
	if err := os.WriteFile(a, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	ok := [][]exportTarget{
		{{flag: "export-json", path: a}, {flag: "export-csv", path: filepath.Join(dir, "b.csv")}},
		{{flag: "export-json", path: "-"}, {flag: "export-csv", path: a}},
		{{flag: "export-json", path: filepath.Join(dir, "new.json")}},
	}
	for _, ts := range ok {
		if err := checkExports(ts); err != nil {
			t.Errorf("%v: %v", ts, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".rootbench-write-check") {
			t.Errorf("the write check left %s behind", e.Name())
		}
	}
	bad := []struct {
		ts   []exportTarget
		want string
	}{
		{[]exportTarget{{flag: "export-json", path: a}, {flag: "export-csv", path: link}}, "both write"},
		{[]exportTarget{{flag: "export-json", path: filepath.Join(dir, "x", "..", "a.json")}, {flag: "export-csv", path: a}}, "both write"},
		{[]exportTarget{{flag: "export-json", path: filepath.Join(dir, "missing", "a.json")}}, "does not exist"},
		{[]exportTarget{{flag: "export-json", path: filepath.Join(a, "x.json")}}, "not a directory"},
		{[]exportTarget{{flag: "export-json", path: dir}}, "is a directory"},
	}
	if os.Geteuid() != 0 { // root writes anywhere
		bad = append(bad, struct {
			ts   []exportTarget
			want string
		}{[]exportTarget{{flag: "export-json", path: filepath.Join(ro, "a.json")}}, "cannot create"})
	}
	for _, c := range bad {
		err := checkExports(c.ts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.ts, err, c.want)
		}
	}
}
