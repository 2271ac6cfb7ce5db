package job

import (
	"context"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase"
)

// A call that only waits gives its slot to another call and takes one
// again once one is free; a call closed while idle takes none.
func TestSlotIdle(t *testing.T) {
	j := New(context.Background(), "job", nil, 1, phase.Backoff{}, time.Second, nil)
	a, err := j.AcquireSlot()
	if err != nil {
		t.Fatal(err)
	}
	resumeA := a.Idle()
	b, err := j.AcquireSlot() // would block forever if a still held the only slot
	if err != nil {
		t.Fatal(err)
	}
	resumed := make(chan struct{})
	go func() { resumeA(); close(resumed) }()
	select {
	case <-resumed:
		t.Fatal("resume took a slot while the only one was held")
	case <-time.After(50 * time.Millisecond):
	}
	b.Close()
	<-resumed
	if got := len(j.slots); got != 1 {
		t.Fatalf("slots held after resume = %d, want 1", got)
	}
	a.Close()
	if got := len(j.slots); got != 0 {
		t.Fatalf("slots held after Close = %d, want 0", got)
	}

	c, _ := j.AcquireSlot()
	resumeC := c.Idle()
	c.Close() // given up while idle
	resumeC()
	if got := len(j.slots); got != 0 {
		t.Fatalf("a closed slot's resume took a slot: %d held", got)
	}
}
