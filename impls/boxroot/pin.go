package boxroot

import _ "unsafe" // for go:linkname

// procPin pins the calling goroutine to its P (no preemption, no other
// goroutine runs on the P) and returns the P's id, as sync.Pool does. The
// runtime keeps it linkable for the packages that use it (go.dev/issue/67401).
//
//go:linkname procPin runtime.procPin
func procPin() int

// procUnpin ends procPin.
//
//go:linkname procUnpin runtime.procUnpin
func procUnpin()
