package httpapi

import (
	"sync"

	"github.com/agentsift/sift/core/summary"
)

// flights makes concurrent on-demand analyses of one file share a single
// run: the first caller does the work, the others wait for its result.
type flights struct {
	mu sync.Mutex
	m  map[string]*flight
}

type flight struct {
	done chan struct{}
	sum  *summary.Summary
	err  error
}

// do runs fn once for key among concurrent callers and returns its result
// to each of them. The summary is shared: callers must not change it.
func (f *flights) do(key string, fn func() (*summary.Summary, error)) (*summary.Summary, error) {
	f.mu.Lock()
	if f.m == nil {
		f.m = make(map[string]*flight)
	}
	if c, ok := f.m[key]; ok {
		f.mu.Unlock()
		<-c.done
		return c.sum, c.err
	}
	c := &flight{done: make(chan struct{})}
	f.m[key] = c
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.m, key)
		f.mu.Unlock()
		close(c.done)
	}()
	c.sum, c.err = fn()
	return c.sum, c.err
}
