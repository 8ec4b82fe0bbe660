package history_test

import (
	"testing"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/history/series"
)

func TestKindOfKeepsWhatIdentifiesTheMachine(t *testing.T) {
	t.Parallel()
	m := harness.Machine{Hostname: "runner-1", CPUModel: "  AMD EPYC 7B13 ", LogicalCPUs: 2, GOMAXPROCS: 2,
		OS: "linux", Arch: "amd64", Kernel: "6.1", Governor: "performance", LoadAvg: []float64{1},
		MemoryBytes: 8<<30 - 300<<20} // 7.7 GiB: rounds to 8
	k := history.KindOf(m)
	want := series.MachineKind{CPUModel: "AMD EPYC 7B13", LogicalCPUs: 2, GOMAXPROCS: 2, OS: "linux", Arch: "amd64", MemoryGiB: 8}
	if k != want {
		t.Fatalf("KindOf = %+v; want %+v", k, want)
	}
	// The hostname, kernel, governor and load are not the kind.
	other := m
	other.Hostname, other.Kernel, other.Governor, other.LoadAvg = "runner-2", "6.6", "schedutil", []float64{3}
	if history.KindOf(other) != k {
		t.Errorf("KindOf changed with the hostname, kernel, governor or load: %+v", history.KindOf(other))
	}
	if got := history.KindOf(harness.Machine{MemoryBytes: 8<<30 + 600<<20}).MemoryGiB; got != 9 {
		t.Errorf("8.6 GiB rounds to %d GiB; want 9", got)
	}
}
