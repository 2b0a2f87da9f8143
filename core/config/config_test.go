package config

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/layout"
)

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	c, err := Parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	logs, _ := DefaultLogsPath()
	if !c.Enabled || c.Path != logs || !filepath.IsAbs(logs) || c.MaxFileSizeMb != 32 || c.RetainedDays != 14 ||
		c.MaxTotalSizeMb != 2048 || c.StallThreshold() != 30*time.Second ||
		c.TokenSpikeFactor != 3 || c.TokenSpikeMin != 20000 ||
		c.Review.FullEvents() != 48*time.Hour || c.Review.Flagged() != 30*24*time.Hour ||
		c.Review.Summaries() != 90*24*time.Hour {
		t.Errorf("defaults: %+v", c)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("defaults invalid: %v", err)
	}
	if c.MaxFileBytes() != 32<<20 {
		t.Errorf("MaxFileBytes = %d", c.MaxFileBytes())
	}
}

func TestParseOverridesOnlyGivenKeys(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(`
Enabled: false
MaxFileSizeMb: 4
StallThresholdSeconds: 2
ToolStallThresholdSeconds: 120
Review:
  FlaggedDays: 7
Agents:
  claude:
    Binary: /opt/claude/bin/claude
    Env: {ANTHROPIC_BASE_URL: "http://127.0.0.1:9999"}
`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Enabled || c.MaxFileSizeMb != 4 || c.StallThreshold() != 2*time.Second || c.ToolStallThreshold() != 2*time.Minute || c.Review.Flagged() != 7*24*time.Hour {
		t.Errorf("parsed: %+v", c)
	}
	if Default().ToolStallThreshold() != 10*time.Minute {
		t.Errorf("default tool stall threshold %v, want 10m", Default().ToolStallThreshold())
	}
	if c.Path != Default().Path || c.RetainedDays != 14 || c.Review.FullEvents() != 48*time.Hour {
		t.Errorf("defaults lost: %+v", c)
	}
	if a := c.Agent("claude"); a.Binary != "/opt/claude/bin/claude" || a.Env["ANTHROPIC_BASE_URL"] != "http://127.0.0.1:9999" {
		t.Errorf("agent override: %+v", a)
	}
}

func TestParseErrorsAreOneLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, body, want string }{
		{"unknown key", "MaxFileSize: 3\n", "field MaxFileSize not found"},
		{"wrong type", "MaxFileSizeMb: lots\n", "MaxFileSizeMb must be a whole number (got lots, line 1)"},
		{"wrong type of float", "TokenSpikeFactor: lots\n", "cannot unmarshal"},
		{"bad number", "StallThresholdSeconds: soon\n", "cannot unmarshal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.body))
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %q, want one line containing %q", err, tc.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "config.yaml")
	for _, tc := range []struct{ name, body, want string }{
		{"empty path", "Path: \"\"\n", "config " + file + ": Path must not be empty"},
		{"blank path", "Path: \"  \"\n", "config " + file + ": Path must not be empty"},
		{"file size zero", "MaxFileSizeMb: 0\n", "config " + file + ": MaxFileSizeMb must be at least 1 (got 0)"},
		{"file size negative", "MaxFileSizeMb: -5\n", "config " + file + ": MaxFileSizeMb must be at least 1 (got -5)"},
		{"retained days negative", "RetainedDays: -1\n", "config " + file + ": RetainedDays must not be negative (got -1; 0 keeps files forever)"},
		{"total size negative", "MaxTotalSizeMb: -1\n", "config " + file + ": MaxTotalSizeMb must not be negative (got -1; 0 disables the cap)"},
		{"stall zero", "StallThresholdSeconds: 0\n", "config " + file + ": StallThresholdSeconds must be positive (got 0)"},
		{"tool stall negative", "ToolStallThresholdSeconds: -1\n", "config " + file + ": ToolStallThresholdSeconds must not be negative (got -1; 0 is the default, 600)"},
		{"review tier negative", "Review: {FlaggedDays: -1}\n", "config " + file + ": Review.FlaggedDays must not be negative (got -1)"},
		{"spike factor", "TokenSpikeFactor: 0.5\n", "config " + file + ": TokenSpikeFactor must be at least 1 (got 0.5)"},
		{"empty agent", "Agents:\n  codex: {}\n", "config " + file + ": Agents.codex sets neither Binary nor Env"},
		{"retained days zero is fine", "RetainedDays: 0\n", ""},
		{"total size zero is fine", "MaxTotalSizeMb: 0\n", ""},
		{"file size one is fine", "MaxFileSizeMb: 1\n", ""},
		{"tab without a name", "Tabs:\n  - {Query: \"is:flagged\"}\n", "config " + file + ": Tabs[0].Name must not be empty"},
		{"tab name too long", "Tabs:\n  - {Name: \"" + strings.Repeat("x", 25) + "\"}\n",
			"config " + file + ": Tabs[0].Name must be one line of at most 24 characters"},
		{"tab query unreadable", "Tabs:\n  - {Name: ok, Query: \"is:nothing\"}\n",
			"config " + file + ": Tabs[0].Query search \"is:nothing\" at column 1: is is one of flagged, undecided"},
		{"tabs are fine", "Tabs:\n  - {Name: codex, Query: \"agent:codex is:undecided\"}\n  - {Name: mine too, Query: mine}\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			c.file = file
			err = c.Validate()
			var got string
			if err != nil {
				got = err.Error()
				var ce *Error
				if !errors.As(err, &ce) {
					t.Errorf("not a *config.Error: %T", err)
				}
			}
			if got != tc.want {
				t.Errorf("\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Run("missing default file means defaults", func(t *testing.T) {
		c, err := Resolve("")
		if err != nil || c.MaxFileSizeMb != 32 || c.File() != "" {
			t.Errorf("Resolve = %+v, %v", c, err)
		}
	})
	t.Run("default file is read", func(t *testing.T) {
		p := filepath.Join(dir, "sift", "config.yaml")
		writeFile(t, p, "RetainedDays: 3\n")
		defer os.Remove(p)
		c, err := Resolve("")
		if err != nil || c.RetainedDays != 3 || c.File() != p {
			t.Errorf("Resolve = %+v, %v", c, err)
		}
	})
	t.Run("flag file must exist", func(t *testing.T) {
		_, err := Resolve(filepath.Join(dir, "nope.yaml"))
		if err == nil || !strings.Contains(err.Error(), "nope.yaml: no such file") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("flag file is validated", func(t *testing.T) {
		p := filepath.Join(dir, "bad.yaml")
		writeFile(t, p, "MaxFileSizeMb: 0\n")
		_, err := Resolve(p)
		if err == nil || err.Error() != "config "+p+": MaxFileSizeMb must be at least 1 (got 0)" {
			t.Errorf("err = %v", err)
		}
	})
}

func TestCheckWritable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := Default()
	c.Path = filepath.Join(dir, "logs", "agents")
	if err := c.CheckWritable(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(c.Path); err != nil || !fi.IsDir() {
		t.Fatalf("Path not created: %v", err)
	}
	entries, _ := os.ReadDir(c.Path)
	if len(entries) != 1 || entries[0].Name() != layout.MarkerName {
		t.Errorf("check left files behind (or no marker): %v", entries)
	}
	// A regular file in the way cannot be made a directory, even as root.
	blocker := filepath.Join(dir, "file")
	writeFile(t, blocker, "x")
	c.Path = filepath.Join(blocker, "agents")
	c.file = "/etc/sift.yaml"
	err := c.CheckWritable()
	if err == nil || !strings.HasPrefix(err.Error(), "config /etc/sift.yaml: Path "+c.Path+" is not writable: ") {
		t.Errorf("err = %v", err)
	}
}

// touch rewrites a file and moves its mtime forward, so a poll sees the
// change even on file systems with coarse timestamps.
func touch(t *testing.T, path, body string, n int) {
	t.Helper()
	writeFile(t, path, body)
	at := time.Now().Add(time.Duration(n) * time.Second)
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}

func TestWatcherReloadsKnobsAndPinsPath(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "config.yaml")
	touch(t, p, "Path: /srv/streams\nMaxFileSizeMb: 8\n", 0)
	start, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWatcher(p, start, time.Millisecond)
	if _, ok := w.Poll(); ok {
		t.Fatal("change reported without one")
	}

	touch(t, p, "Path: /srv/streams\nMaxFileSizeMb: 16\nRetainedDays: 3\nMaxTotalSizeMb: 100\nStallThresholdSeconds: 5\n", 1)
	u, ok := w.Poll()
	if !ok || u.Err != nil || u.IgnoredPath != "" {
		t.Fatalf("reload: %+v %v", u, ok)
	}
	if c := u.Config; c.MaxFileSizeMb != 16 || c.RetainedDays != 3 || c.MaxTotalSizeMb != 100 || c.StallThreshold() != 5*time.Second {
		t.Errorf("knobs not reloaded: %+v", c)
	}
	if u.Notice() != "config "+p+": reloaded" {
		t.Errorf("notice %q", u.Notice())
	}

	touch(t, p, "Path: /elsewhere\nMaxFileSizeMb: 20\n", 2)
	u, ok = w.Poll()
	if !ok || u.Err != nil {
		t.Fatalf("reload: %+v %v", u, ok)
	}
	if u.Config.Path != "/srv/streams" || u.IgnoredPath != "/elsewhere" || u.Config.MaxFileSizeMb != 20 {
		t.Errorf("Path not pinned: %+v", u)
	}
	if !strings.Contains(u.Notice(), "Path changed to /elsewhere, ignored until restart") {
		t.Errorf("notice %q", u.Notice())
	}

	touch(t, p, "Path: /srv/streams\nMaxFileSizeMb: 0\n", 3)
	u, ok = w.Poll()
	if !ok || u.Err == nil || !strings.Contains(u.Err.Error(), "MaxFileSizeMb must be at least 1") ||
		!strings.Contains(u.Err.Error(), "keeping the current settings") {
		t.Errorf("invalid reload: %+v %v", u, ok)
	}
	if _, ok := w.Poll(); ok {
		t.Error("the same invalid file reported twice")
	}
}

func TestWatcherRunDelivers(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "config.yaml")
	w := NewWatcher(p, Default(), 5*time.Millisecond) // file does not exist yet
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got := make(chan Update, 1)
	go w.Run(ctx, func(u Update) {
		select {
		case got <- u:
		default:
		}
	})
	touch(t, p, "RetainedDays: 9\n", 0)
	select {
	case u := <-got:
		if u.Err != nil || u.Config.RetainedDays != 9 || u.Config.Path != Default().Path {
			t.Errorf("delivered %+v", u)
		}
	case <-ctx.Done():
		t.Fatal("no update delivered")
	}
}

// TestEndToEndConfigShape pins the file cmd/sift's end-to-end tests write.
func TestEndToEndConfigShape(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(`Enabled: true
Path: "/tmp/x/logs"
MaxFileSizeMb: 32
RetainedDays: 14
MaxTotalSizeMb: 2048
StallThresholdSeconds: 1
Agents:
  claude:
    Binary: "/w/testdata/agents/node_modules/.bin/claude"
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.StallThreshold() != time.Second || c.Agent("claude").Binary != "/w/testdata/agents/node_modules/.bin/claude" {
		t.Errorf("parsed %+v", c)
	}
}

// TestClaimMinutes: ClaimMinutes defaults to 30 minutes and is bounded.
func TestClaimMinutes(t *testing.T) {
	c := Default()
	if got := c.ClaimTTL(); got != 30*time.Minute {
		t.Fatalf("default claim TTL %v, want 30m", got)
	}
	c.ClaimMinutes = 45
	if got := c.ClaimTTL(); got != 45*time.Minute || c.Validate() != nil {
		t.Fatalf("ClaimMinutes 45: %v, %v", got, c.Validate())
	}
	for _, n := range []int{-1, ClaimMinutesMax + 1} {
		c.ClaimMinutes = n
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "ClaimMinutes") {
			t.Errorf("ClaimMinutes %d: %v, want an error naming it", n, err)
		}
	}
}
