package series_test

import (
	"testing"

	"github.com/rootbench/rootbench/history/series"
)

func TestShortAbbreviatesToSevenDigits(t *testing.T) {
	for hash, want := range map[string]string{
		"0123456789abcdef0123456789abcdef01234567": "0123456",
		"abc": "abc",
		"":    "",
	} {
		if got := (series.Commit{Hash: hash}).Short(); got != want {
			t.Errorf("Commit{Hash: %q}.Short() = %q; want %q", hash, got, want)
		}
	}
}

func TestParamsAreOneLineSortedByName(t *testing.T) {
	s := series.Series{Params: map[string]string{"niters": "10000", "batch-size": "1024", "scheduler": "parallel"}}
	if got, want := s.ParamsText(), "batch-size=1024 niters=10000 scheduler=parallel"; got != want {
		t.Errorf("ParamsText() = %q; want %q", got, want)
	}
	if got := series.FormatParams(nil); got != "" {
		t.Errorf("FormatParams(nil) = %q; want \"\"", got)
	}
}

func TestFingerprintIsStable(t *testing.T) {
	k := series.MachineKind{CPUModel: "AMD EPYC 7B13", LogicalCPUs: 2, GOMAXPROCS: 2, OS: "linux", Arch: "amd64", MemoryGiB: 8}
	// SHA-256 of "rootbench-machine/1\x00AMD EPYC 7B13\x002\x002\x00linux\x00amd64\x008",
	// its first 12 hex digits: stores written earlier name machines so.
	if got, want := k.Fingerprint(), "6ce01364066e"; got != want {
		t.Errorf("Fingerprint() = %q; want %q", got, want)
	}
	k.GOMAXPROCS = 1
	if k.Fingerprint() == "6ce01364066e" {
		t.Error("Fingerprint() ignores GOMAXPROCS")
	}
}

func TestMachineKindString(t *testing.T) {
	k := series.MachineKind{CPUModel: "AMD EPYC 7B13", LogicalCPUs: 2, GOMAXPROCS: 2, OS: "linux", Arch: "amd64", MemoryGiB: 8}
	if got, want := k.String(), "AMD EPYC 7B13, 2 CPUs, GOMAXPROCS 2, linux/amd64, 8 GiB"; got != want {
		t.Errorf("String() = %q; want %q", got, want)
	}
	if got, want := (series.MachineKind{LogicalCPUs: 1, GOMAXPROCS: 1, OS: "linux", Arch: "arm64"}).String(),
		"unknown CPU, 1 CPUs, GOMAXPROCS 1, linux/arm64"; got != want {
		t.Errorf("String() = %q; want %q", got, want)
	}
}
