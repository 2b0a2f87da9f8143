package capture

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"time"
)

// forwarder passes the signals sift receives to the agent's process group
// and turns a cancelled ctx into SIGTERM. A forwarded SIGTERM or SIGHUP, or
// a cancelled ctx, is followed by SIGKILL after the Spec's KillDelay if
// the agent is still running, and the third interrupt is sent as SIGKILL:
// an agent that ignores them cannot keep sift running.
type forwarder struct {
	stopOnce sync.Once
	stopFn   func()

	mu    sync.Mutex
	n     int           // signals and cancellations seen
	waitC chan struct{} // closed at the next one; see next
}

// forward starts forwarding to the process group pgid until stop is
// called.
func forward(ctx context.Context, s Spec, pgid int) *forwarder {
	f := &forwarder{}
	sigs := s.Signals
	var ch chan os.Signal
	if sigs == nil {
		ch = make(chan os.Signal, 4)
		signal.Notify(ch, forwarded()...)
		sigs = ch
	}
	kill := s.KillDelay
	if kill <= 0 {
		kill = 10 * time.Second
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var killC <-chan time.Time
		cancelled := ctx.Done()
		interrupts := 0
		for {
			select {
			case <-done:
				return
			case sig := <-sigs:
				f.seen()
				if sig == os.Interrupt {
					interrupts++
				} else if killC == nil {
					killC = time.After(kill)
				}
				// An agent that ignores interrupts is killed on the third.
				if interrupts >= 3 {
					sig = os.Kill
				}
				signalGroup(pgid, sig) //nolint:errcheck // the group may be gone
			case <-cancelled:
				f.seen()
				cancelled = nil
				signalGroup(pgid, terminate()) //nolint:errcheck
				if killC == nil {
					killC = time.After(kill)
				}
			case <-killC:
				signalGroup(pgid, os.Kill) //nolint:errcheck
			}
		}
	}()
	f.stopFn = func() {
		if ch != nil {
			signal.Stop(ch)
		}
		close(done)
		<-finished
	}
	return f
}

// seen counts a signal or cancellation and wakes whoever waits for it.
func (f *forwarder) seen() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	if f.waitC != nil {
		close(f.waitC)
		f.waitC = nil
	}
}

// count returns how many signals and cancellations were seen.
func (f *forwarder) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

// next returns a channel closed at the next signal or cancellation.
func (f *forwarder) next() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.waitC == nil {
		f.waitC = make(chan struct{})
	}
	return f.waitC
}

// stop stops forwarding and restores sift's default signal handling.
func (f *forwarder) stop() { f.stopOnce.Do(f.stopFn) }
