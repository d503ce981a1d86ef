package discoursetest

import (
	"sync"
	"time"
)

// Clock is a settable clock for tests, to share between the fake forum
// (WithClock(c.Now)) and the code under test. The forum reads it from its
// handler goroutines, so it is locked.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock that stands at t until advanced.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
