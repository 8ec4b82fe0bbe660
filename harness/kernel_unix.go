//go:build linux || darwin || freebsd || netbsd || openbsd

package harness

import "golang.org/x/sys/unix"

// kernel returns the kernel name and release from uname, e.g. "Linux 6.1.0".
func kernel() string {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return ""
	}
	return unix.ByteSliceToString(u.Sysname[:]) + " " + unix.ByteSliceToString(u.Release[:])
}
