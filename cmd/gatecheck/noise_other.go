//go:build !linux

package main

import "syscall"

// dieWithParent does nothing outside Linux: stop kills the children on
// every path this process controls.
func dieWithParent(*syscall.SysProcAttr) {}
