package main

import "syscall"

// dieWithParent has the kernel kill a child with SIGKILL when this process
// dies, however it dies.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
