package boxroot

import (
	"testing"
	"unsafe"
)

// TestPoolLayout checks that the pool's three groups of fields (read by
// everyone, written by the owner, written by remote deleters) sit on
// separate cache lines, in that order, before the slots, as the comments in
// pool say.
func TestPoolLayout(t *testing.T) {
	t.Parallel()
	var p pool
	lines := []struct {
		name string
		off  uintptr
	}{
		{"base", unsafe.Offsetof(p.base)},
		{"owner", unsafe.Offsetof(p.owner)},
		{"local", unsafe.Offsetof(p.local)},
		{"lastUsed", unsafe.Offsetof(p.lastUsed)},
		{"delayed", unsafe.Offsetof(p.delayed)},
		{"slots", unsafe.Offsetof(p.slots)},
	}
	line := func(off uintptr) uintptr { return off / 64 }
	if line(lines[0].off) != 0 || line(lines[1].off) != 0 {
		t.Errorf("read-mostly fields not on the first line: base at %d, owner at %d", lines[0].off, lines[1].off)
	}
	if line(lines[2].off) != line(lines[0].off)+1 || line(lines[3].off) != line(lines[2].off) {
		t.Errorf("owner fields not on the next line: local at %d, lastUsed at %d", lines[2].off, lines[3].off)
	}
	if line(lines[4].off) != line(lines[2].off)+1 {
		t.Errorf("delayed not on a line of its own: at %d", lines[4].off)
	}
	if lines[5].off != (line(lines[4].off)+1)*64 {
		t.Errorf("slots not on the line after delayed's: delayed at %d, slots at %d", lines[4].off, lines[5].off)
	}
}
