package series

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// MachineKind is what identifies a kind of machine in a series: what a
// results file says of the hardware and the Go runtime's view of it.
// Runs of two kinds are never in one series. It leaves out what changes
// while the machine stays the same kind: the hostname (every CI runner of
// one kind has its own, and a runner that gets a new one is the same
// machine), the kernel and CPU governor (an upgrade is a change of the
// machine's speed that a series should show, not a new series), and the
// load. The memory is in GiB, rounded to the nearest (history.KindOf), as
// the memory a kernel reports moves by megabytes between kernel versions.
type MachineKind struct {
	CPUModel    string
	LogicalCPUs int
	GOMAXPROCS  int
	OS, Arch    string
	MemoryGiB   int64
}

// fingerprintLen is the number of hex digits of a fingerprint: 48 bits,
// where a collision among the few kinds one store sees is out of reach.
const fingerprintLen = 12

// Fingerprint is a stable short hash of the kind: the same fields always
// give the same fingerprint, in every version of rootbench that writes
// this schema.
func (k MachineKind) Fingerprint() string {
	canon := fmt.Sprintf("rootbench-machine/1\x00%s\x00%d\x00%d\x00%s\x00%s\x00%d",
		k.CPUModel, k.LogicalCPUs, k.GOMAXPROCS, k.OS, k.Arch, k.MemoryGiB)
	sum := sha256.Sum256([]byte(canon))
	return hex.EncodeToString(sum[:])[:fingerprintLen]
}

// String describes the kind in one short line: "AMD EPYC, 2 CPUs,
// GOMAXPROCS 2, linux/amd64, 24 GiB".
func (k MachineKind) String() string {
	cpu := k.CPUModel
	if cpu == "" {
		cpu = "unknown CPU"
	}
	s := fmt.Sprintf("%s, %d CPUs, GOMAXPROCS %d, %s/%s", cpu, k.LogicalCPUs, k.GOMAXPROCS, k.OS, k.Arch)
	if k.MemoryGiB > 0 {
		s += fmt.Sprintf(", %d GiB", k.MemoryGiB)
	}
	return s
}
