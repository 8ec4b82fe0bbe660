//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package harness

// kernel is unknown on this OS.
func kernel() string { return "" }
