package harness

import (
	"slices"
	"strings"
	"testing"
)

func TestParseCPUList(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want []int
	}{
		{"0", []int{0}},
		{"0-1", []int{0, 1}},
		{"0,2-3", []int{0, 2, 3}},
		{" 3 , 1-2 ,1", []int{1, 2, 3}},
		{"5-5", []int{5}},
	} {
		got, err := ParseCPUList(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseCPUList(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct {
		in, want string
	}{
		{"", "empty CPU list"},
		{"  ", "empty CPU list"},
		{"0,,1", "has an empty item"},
		{"a", `"a" is not a CPU number`},
		{"-1", `"" is not a CPU number`},
		{"+1", `"+1" is not a CPU number`},
		{"3-1", "range 3-1 goes backwards (write 1-3)"},
		{"0-", `"" is not a CPU number`},
		{"1-2-3", `"2-3" is not a CPU number`},
		{"5000", "CPU 5000 is out of range"},
	} {
		_, err := ParseCPUList(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseCPUList(%q) error = %v, want it to contain %q", c.in, err, c.want)
		}
	}
}

func TestFormatCPUList(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   []int
		want string
	}{
		{nil, ""}, {[]int{0}, "0"}, {[]int{0, 1, 2, 5}, "0-2,5"}, {[]int{1, 3, 4}, "1,3-4"},
	} {
		if got := FormatCPUList(c.in); got != c.want {
			t.Errorf("FormatCPUList(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzParseCPUList(f *testing.F) {
	for _, s := range []string{"0", "0-1", "0,2-3", "3-1", "a,b", " 7 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cpus, err := ParseCPUList(s)
		if err != nil {
			return
		}
		if len(cpus) == 0 || !slices.IsSorted(cpus) || len(slices.Compact(slices.Clone(cpus))) != len(cpus) {
			t.Fatalf("ParseCPUList(%q) = %v: want a non-empty sorted set", s, cpus)
		}
		if cpus[0] < 0 || cpus[len(cpus)-1] > maxCPU {
			t.Fatalf("ParseCPUList(%q) = %v: out of range", s, cpus)
		}
		again, err := ParseCPUList(FormatCPUList(cpus))
		if err != nil || !slices.Equal(again, cpus) {
			t.Fatalf("format/parse round trip of %v gave %v, %v", cpus, again, err)
		}
	})
}
