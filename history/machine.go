package history

import (
	"strings"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history/series"
)

// gib is 2^30 bytes.
const gib = 1 << 30

// KindOf is the kind of machine m describes: what series.MachineKind
// keeps of it, the memory rounded to the nearest GiB.
func KindOf(m harness.Machine) series.MachineKind {
	return series.MachineKind{
		CPUModel:    strings.TrimSpace(m.CPUModel),
		LogicalCPUs: m.LogicalCPUs,
		GOMAXPROCS:  m.GOMAXPROCS,
		OS:          m.OS,
		Arch:        m.Arch,
		MemoryGiB:   (m.MemoryBytes + gib/2) / gib,
	}
}
