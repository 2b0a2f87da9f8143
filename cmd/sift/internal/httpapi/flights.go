package httpapi

import "sync"

// flights makes concurrent on-demand analyses of one file share a single
// run: the first caller does the work, the others wait for its result.
type flights struct {
	mu sync.Mutex
	m  map[string]*flight
}

type flight struct {
	done chan struct{}
	err  error
}

// do runs fn once for key among concurrent callers and returns its error
// to each of them.
func (f *flights) do(key string, fn func() error) error {
	f.mu.Lock()
	if f.m == nil {
		f.m = make(map[string]*flight)
	}
	if c, ok := f.m[key]; ok {
		f.mu.Unlock()
		<-c.done
		return c.err
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
	c.err = fn()
	return c.err
}
