package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// alive reports whether pid runs; a zombie (exited, not yet reaped by the
// init of a container) counts as gone.
func alive(pid int) bool {
	state, _, ok := procStat(pid)
	return ok && state != "Z"
}

// procStat returns the state and parent pid from /proc/<pid>/stat.
func procStat(pid int) (state string, ppid int, ok bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, false
	}
	// The command name in parentheses may hold spaces; the fields after it do not.
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 2 {
		return "", 0, false
	}
	ppid, err = strconv.Atoi(fields[1])
	return fields[0], ppid, err == nil
}

// descendants lists every process below pid.
func descendants(pid int) []int {
	children := map[int][]int{}
	entries, _ := filepath.Glob("/proc/[0-9]*")
	for _, e := range entries {
		p, err := strconv.Atoi(filepath.Base(e))
		if err != nil {
			continue
		}
		if _, ppid, ok := procStat(p); ok {
			children[ppid] = append(children[ppid], p)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		out = append(out, children[next]...)
		queue = append(queue, children[next]...)
	}
	return out
}
