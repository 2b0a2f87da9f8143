package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// Update is what a Watcher delivers when the file changed.
type Update struct {
	// Config is the new configuration, valid, with Path pinned to the
	// value the process started with. It is zero when Err is set.
	Config Config
	// IgnoredPath is the new Path the file asks for, which takes effect
	// only after a restart; empty when Path did not change.
	IgnoredPath string
	// Err is a file that could not be read or is invalid; the previous
	// configuration stays in force.
	Err error
}

// Watcher reloads a configuration file when its modification time or size
// changes, for long-lived processes (the inbox, the HTTP API). The numeric
// knobs and the thresholds reload; Path is pinned.
type Watcher struct {
	path     string
	interval time.Duration
	pinned   string
	mtime    time.Time
	size     int64
	exists   bool
}

// NewWatcher returns a watcher of path for a process that started with
// current. interval is the polling period (0 means 2 s).
func NewWatcher(path string, current Config, interval time.Duration) *Watcher {
	if interval <= 0 {
		interval = 2 * time.Second
	}
	w := &Watcher{path: path, interval: interval, pinned: current.Path}
	if fi, err := os.Stat(path); err == nil {
		w.mtime, w.size, w.exists = fi.ModTime(), fi.Size(), true
	}
	return w
}

// Poll checks the file once and reports whether it changed since the last
// check, and if so the update to deliver.
func (w *Watcher) Poll() (Update, bool) {
	fi, err := os.Stat(w.path)
	if errors.Is(err, os.ErrNotExist) {
		if !w.exists {
			return Update{}, false
		}
		w.exists = false
		return Update{Err: fmt.Errorf("config %s: removed; keeping the current settings", w.path)}, true
	}
	if err != nil {
		return Update{Err: fmt.Errorf("config %s: %w", w.path, unwrapPath(err))}, true
	}
	if w.exists && fi.ModTime().Equal(w.mtime) && fi.Size() == w.size {
		return Update{}, false
	}
	w.mtime, w.size, w.exists = fi.ModTime(), fi.Size(), true
	c, err := Load(w.path)
	if err == nil {
		err = c.Validate()
	}
	if err != nil {
		return Update{Err: fmt.Errorf("%w (keeping the current settings)", err)}, true
	}
	var u Update
	if c.Path != w.pinned {
		u.IgnoredPath = c.Path
		c.Path = w.pinned
	}
	u.Config = c
	return u, true
}

// Run polls until ctx is done and calls deliver with each change, on the
// calling goroutine.
func (w *Watcher) Run(ctx context.Context, deliver func(Update)) {
	t := time.NewTicker(w.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if u, ok := w.Poll(); ok {
				deliver(u)
			}
		}
	}
}

// Notice is the one line to show a user for an update: the reload, the
// ignored Path, or the error.
func (u Update) Notice() string {
	switch {
	case u.Err != nil:
		return u.Err.Error()
	case u.IgnoredPath != "":
		return fmt.Sprintf("config %s: reloaded; Path changed to %s, ignored until restart (still %s)",
			u.Config.File(), u.IgnoredPath, u.Config.Path)
	default:
		return fmt.Sprintf("config %s: reloaded", u.Config.File())
	}
}
