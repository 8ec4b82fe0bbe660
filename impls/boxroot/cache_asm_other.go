//go:build !race && (purego || !go1.26 || go1.27 || !linux || !amd64)

package boxroot

// asmCaches is false: the assembly fast paths exist only on linux/amd64
// with Go 1.26 (cache_asm_linux_amd64.go); here the fast paths pin.
const asmCaches = false

// asmPop, asmPushFreed and asmMid are never called: asmCaches is false.
func asmPop() Handle           { panic("boxroot: no assembly fast paths here") }
func asmPushFreed(Handle) bool { panic("boxroot: no assembly fast paths here") }
func asmMid() int              { panic("boxroot: no assembly fast paths here") }
