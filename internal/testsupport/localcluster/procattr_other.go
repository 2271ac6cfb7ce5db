//go:build !linux

package localcluster

import "syscall"

// dieWithParent has no portable equivalent outside Linux; Stop still ends every component.
func dieWithParent() *syscall.SysProcAttr { return nil }
