package testdeployer

import "syscall"

// dieWithParent has the kernel end the deployer when the test binary dies
// without stopping it (a test hitting its -timeout, say).
func dieWithParent() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
