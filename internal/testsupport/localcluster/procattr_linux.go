package localcluster

import "syscall"

// dieWithParent has the kernel kill a component when the process that started
// it dies without stopping it (a test binary hitting its -timeout, say).
func dieWithParent() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
