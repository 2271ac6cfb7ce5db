//go:build !linux

package testdeployer

import "syscall"

func dieWithParent() *syscall.SysProcAttr { return nil }
