package parse

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestIntAccepts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want int64
	}{
		{"0", 0},
		{"7", 7},
		{"-7", -7},
		{"+7", 7},
		{"100_000", 100000},
		{"1_0", 10},
		{"-1_024", -1024},
		{"007", 7},
		{"9_223_372_036_854_775_807", math.MaxInt64},
		{"-9223372036854775808", math.MinInt64},
	}
	for _, c := range cases {
		got, err := Int(c.in)
		if err != nil {
			t.Errorf("Int(%q): unexpected error %v", c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("Int(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestIntRejects(t *testing.T) {
	t.Parallel()
	checkRefused(t, "Int", Int, []string{"", "1_0_", "_1", "1__0", "1e3", "0x10", "1.5", " 1", "1 ", "+", "-", "+_1", "1_", "--1", "١"}, "accepted")
}

// checkRefused checks that parse refuses each input with an error of one
// line that quotes the input and holds each of says.
func checkRefused[T any](t *testing.T, name string, parse func(string) (T, error), inputs []string, says ...string) {
	t.Helper()
	for _, in := range inputs {
		_, err := parse(in)
		if err == nil {
			t.Errorf("%s(%q): no error, want one", name, in)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, strconv.Quote(in)) || strings.Contains(msg, "\n") {
			t.Errorf("%s(%q): error %q is not one line quoting the input", name, in, msg)
		}
		for _, s := range says {
			if !strings.Contains(msg, s) {
				t.Errorf("%s(%q): error %q does not say %q", name, in, msg, s)
			}
		}
	}
}

func TestIntOutOfRange(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"9223372036854775808", "-9_223_372_036_854_775_809", "99999999999999999999999"} {
		_, err := Int(in)
		if err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("Int(%q): error %v, want an out-of-range error", in, err)
		}
	}
}

func TestCount(t *testing.T) {
	t.Parallel()
	n, err := Count("niters", "100_000")
	if err != nil || n != 100000 {
		t.Fatalf(`Count("niters", "100_000") = %d, %v; want 100000, nil`, n, err)
	}
	for _, in := range []string{"0", "-3", "x", ""} {
		_, err := Count("niters", in)
		if err == nil {
			t.Errorf("Count(niters, %q): no error", in)
			continue
		}
		if !strings.HasPrefix(err.Error(), "niters") {
			t.Errorf("Count(niters, %q): error %q does not name the parameter", in, err)
		}
	}
}

func TestDuration(t *testing.T) {
	t.Parallel()
	ok := []struct {
		in   string
		want time.Duration
	}{
		{"3s", 3 * time.Second},
		{"500ms", 500 * time.Millisecond},
		{"1m30s", 90 * time.Second},
		{"3", 3 * time.Second},
		{"0.5", 500 * time.Millisecond},
		{".25", 250 * time.Millisecond},
		{"0", 0},
	}
	for _, c := range ok {
		got, err := Duration(c.in)
		if err != nil || got != c.want {
			t.Errorf("Duration(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	checkRefused(t, "Duration", Duration, []string{"", "-1s", "3x", "1.2.3", ".", "1e3", " 3", "abc", "99999999999999", "-3"})
	_, err := Duration("3x")
	if err == nil || !strings.Contains(err.Error(), "plain seconds") {
		t.Errorf("Duration(3x): error %v does not say what is accepted", err)
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	got, err := List(" boxroot , ref,ocaml ")
	if err != nil || !slices.Equal(got, []string{"boxroot", "ref", "ocaml"}) {
		t.Fatalf("List = %q, %v", got, err)
	}
	for _, in := range []string{"", "  ", "a,,b", "a,", ",a", "a, ,b"} {
		if _, err := List(in); err == nil {
			t.Errorf("List(%q): no error", in)
		}
	}
}

func TestParameterList(t *testing.T) {
	t.Parallel()
	name, vals, err := ParameterList("batch-size=16,256,4096")
	if err != nil || name != "batch-size" || !slices.Equal(vals, []string{"16", "256", "4096"}) {
		t.Fatalf("ParameterList = %q, %q, %v", name, vals, err)
	}
	name, vals, err = ParameterList(" BATCH_SIZE = 1_024 ")
	if err != nil || name != "BATCH_SIZE" || !slices.Equal(vals, []string{"1_024"}) {
		t.Fatalf("ParameterList (env spelling) = %q, %q, %v", name, vals, err)
	}
	for _, in := range []string{"", "batch-size", "=1,2", "batch-size=", "batch-size=1,,2", "batch size=1", "a=b=c,"} {
		if _, _, err := ParameterList(in); err == nil {
			t.Errorf("ParameterList(%q): no error", in)
		}
	}
}

var wellFormedInt = regexp.MustCompile(`^[+-]?[0-9]+(_[0-9]+)*$`)

// FuzzInt: Int never panics; it accepts exactly the well-formed inputs
// (within range), and then agrees with strconv.ParseInt on the input without
// underscores.
func FuzzInt(f *testing.F) {
	for _, s := range []string{"0", "100_000", "-1_024", "+5", "", "1_0_", "_1", "1__0", "1e3", "0x10", "1.5", " 1",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "1_2_3_4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Int(s)
		if !wellFormedInt.MatchString(s) {
			if err == nil {
				t.Fatalf("Int(%q) = %d, want an error for malformed input", s, got)
			}
			return
		}
		want, werr := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64)
		if (err == nil) != (werr == nil) {
			t.Fatalf("Int(%q) error %v, strconv.ParseInt error %v", s, err, werr)
		}
		if err == nil && got != want {
			t.Fatalf("Int(%q) = %d, strconv.ParseInt = %d", s, got, want)
		}
	})
}

// FuzzList: List never panics; on success items are non-empty, trimmed, and
// joining them back with ',' equals the input with spaces around commas
// removed.
func FuzzList(f *testing.F) {
	for _, s := range []string{"a,b,c", " a , b ", "", "a,,b", ",", "a,", "boxroot"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		items, err := List(s)
		if err != nil {
			return
		}
		parts := strings.Split(s, ",")
		if len(items) != len(parts) {
			t.Fatalf("List(%q) = %q: %d items for %d parts", s, items, len(items), len(parts))
		}
		for i, it := range items {
			if it == "" || it != strings.TrimSpace(it) || it != strings.TrimSpace(parts[i]) {
				t.Fatalf("List(%q) item %d = %q", s, i, it)
			}
		}
	})
}

// FuzzParameterList: ParameterList never panics; on success the name is
// non-empty and contains no '=', and the values are what List returns for
// the text after the first '='.
func FuzzParameterList(f *testing.F) {
	for _, s := range []string{"batch-size=16,256,4096", "NITERS=1_000", "=1", "x=", "x", "a=b=c", "a b=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, vals, err := ParameterList(s)
		if err != nil {
			return
		}
		if name == "" || strings.ContainsAny(name, "= ,") {
			t.Fatalf("ParameterList(%q): name %q", s, name)
		}
		_, rest, _ := strings.Cut(s, "=")
		want, lerr := List(rest)
		if lerr != nil || !slices.Equal(vals, want) {
			t.Fatalf("ParameterList(%q) values %q, List(%q) = %q, %v", s, vals, rest, want, lerr)
		}
	})
}

func TestSize(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"0", 0},
		{"1_000", 1000},
		{"512B", 512},
		{"2KiB", 2048},
		{"2K", 2048},
		{"3MiB", 3 << 20},
		{"8GB", 8e9},
		{"8 GiB", 8 << 30},
		{"1TiB", 1 << 40},
		{"5kB", 5000},
	} {
		got, err := Size(c.in)
		if err != nil || got != c.want {
			t.Errorf("Size(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	checkRefused(t, "Size", Size, []string{"", "-1", "+1", "GiB", "1.5GiB", "1e9", "1PiB", "1_GiB", "99999999999TiB", "9223372036854775808"})
}

func TestFormatBytes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   int64
		want string
	}{
		{0, "0 B"},
		{1023, "1023 B"},
		{1536, "1.50 KiB"},
		{20 << 20, "20.0 MiB"},
		{300 << 30, "300 GiB"},
		{5 << 40, "5.00 TiB"},
	} {
		if got := FormatBytes(c.in); got != c.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPercent(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]float64{"5%": 0.05, "0.5%": 0.005, "12.5%": 0.125, ".5%": 0.005, "5.%": 0.05,
		"1_000%": 10, "0%": 0, "100%": 1, "0_0.2_5%": 0.0025} {
		got, err := Percent(in)
		if err != nil || math.Abs(got-want) > 1e-15 {
			t.Errorf("Percent(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	checkRefused(t, "Percent", Percent, []string{"", "%", "5%%", "-5%", "+5%", "0x1p3%", "0x10%", "1e3%", "Inf%", "NaN%", " 5%", "5 %", "5% ",
		"five%", "5x%", "1__0%", "_1%", "1_%", "1._5%", "1.2.3%", ".%", "٥%"}, "accepted")
	// A bare number is refused, and the error spells out both readings.
	_, err := Percent("0.05")
	if err == nil || !strings.Contains(err.Error(), "0.05%") || !strings.Contains(err.Error(), "5%") {
		t.Errorf("Percent(\"0.05\") = %v, want an error offering 0.05%% and 5%%", err)
	}
	if _, err := Percent(strings.Repeat("9", 400) + "%"); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("Percent(400 nines) = %v, want too large", err)
	}
}

// FuzzPercent: whatever Percent accepts is digits, '_', at most one '.'
// and a final '%', and its value is strconv's reading of those digits
// over 100.
func FuzzPercent(f *testing.F) {
	for _, s := range []string{"5%", "0.5%", "1_000.2_5%", "0x1p3%", "1e3%", "5", "-5%", ".5%", "%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Percent(s)
		if err != nil {
			return
		}
		body, ok := strings.CutSuffix(s, "%")
		if !ok || strings.Count(body, ".") > 1 || strings.Trim(body, "0123456789_.") != "" {
			t.Fatalf("Percent(%q) = %v: accepted something other than a decimal percentage", s, v)
		}
		want, perr := strconv.ParseFloat(strings.ReplaceAll(body, "_", ""), 64)
		if perr != nil || math.Abs(v-want/100) > 1e-15*math.Max(1, want) {
			t.Fatalf("Percent(%q) = %v, strconv reads %v (%v)", s, v, want, perr)
		}
	})
}

func TestDecimal(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]float64{"0.05": 0.05, ".05": 0.05, "5.": 5, "1_000.000_1": 1000.0001, "0": 0} {
		if got, err := Decimal(in); err != nil || got != want {
			t.Errorf("Decimal(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	checkRefused(t, "Decimal", Decimal, []string{"", ".", "-0.05", "+1", "0x1p-5", "5e-2", "Inf", "NaN", " 0.05", "0.05 ", "0,05", "5%", strings.Repeat("9", 400)}, "accepted")
}
