package dag

import (
	"fmt"
	"testing"
)

// FuzzFindCycle proves on arbitrary graphs that a reported cycle is a real
// one, and that without a cycle Order is a topological order.
func FuzzFindCycle(f *testing.F) {
	f.Add([]byte{3, 0, 1, 1, 2, 2, 0})
	f.Add([]byte{4, 0, 1, 0, 2, 1, 3, 2, 3})
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		n := int(in[0]%12) + 1
		nodes := make([]Node, n)
		deps := map[[2]string]bool{}
		for i := range nodes {
			nodes[i].Name = fmt.Sprint("n", i)
		}
		for k := 1; k+1 < len(in); k += 2 {
			from, to := int(in[k])%n, int(in[k+1])%n
			nodes[from].DependsOn = append(nodes[from].DependsOn, nodes[to].Name)
			deps[[2]string{nodes[from].Name, nodes[to].Name}] = true
		}
		cycle := FindCycle(nodes)
		if cycle != nil {
			if cycle[0] != cycle[len(cycle)-1] {
				t.Fatalf("cycle %v does not close", cycle)
			}
			for i := 0; i+1 < len(cycle); i++ {
				if !deps[[2]string{cycle[i], cycle[i+1]}] {
					t.Fatalf("cycle %v: %s does not depend on %s", cycle, cycle[i], cycle[i+1])
				}
			}
			if Validate("node", nodes) == nil {
				t.Fatal("Validate accepted a cyclic graph")
			}
			return
		}
		pos := map[string]int{}
		for p, i := range Order(nodes) {
			pos[nodes[i].Name] = p
		}
		for edge := range deps {
			if pos[edge[0]] <= pos[edge[1]] {
				t.Fatalf("order puts %s before its dependency %s", edge[0], edge[1])
			}
		}
	})
}
