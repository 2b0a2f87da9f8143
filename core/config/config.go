// Package config loads, validates and hot-reloads sift's configuration, a
// YAML file in the user's config directory (`sift/config.yaml`) that a
// `--config` flag overrides. A missing default file means the defaults; a
// file named on the command line must exist. Unknown keys are errors.
//
// Every key, with its default:
//
//	Enabled: true              # false: agents run without stream flags, no files
//	Path: /srv/sift/logs       # capture root (default: DefaultLogsPath); a
//	                           # relative one is next to this file; pinned
//	MaxFileSizeMb: 32          # per file (≤ 1 TiB); later lines dropped, one marker line
//	RetainedDays: 14           # sweep files older than this (last write, ≤ 36500); 0 keeps
//	MaxTotalSizeMb: 2048       # sweep oldest files above this total (≤ 1 PiB); 0 disables
//	StallThresholdSeconds: 30  # a gap between events longer than this is a stall (≤ a year)
//	ToolStallThresholdSeconds: 600  # a wait on a running tool is tool time up to this (≤ a year)
//	TokenSpikeFactor: 3        # a turn using 3x the session's usual turn …
//	TokenSpikeMin: 20000       # … and at least this many tokens is a spike
//	Reviewer: ana              # recorded on decisions (default: $USER)
//	ClaimMinutes: 30           # a claim on a session (c) holds this long (≤ a year); 0 is 30
//	History: true              # the inbox imports and watches the agent CLIs' own
//	                           # histories (unset: on once the store holds any)
//	Projects: [/src/app]       # project folders whose histories sift reads (Aider's)
//	Review:
//	  FullEventsHours: 48      # review events of a session
//	  FlaggedDays: 30          # flagged sessions (an open needs_followup: always)
//	  SummariesDays: 90        # summaries whose stream files are gone
//	Agents:                    # per agent kind: claude, codex, gemini, cursor,
//	  claude:                  # antigravity, opencode, copilot, qwen, kimi, droid
//	    Binary: /opt/claude/bin/claude
//	    Env: {ANTHROPIC_BASE_URL: "http://127.0.0.1:8080"}
//	Prices:                    # model prices over the embedded catalog
//	  Models:                  # (pricing.Overrides; `sift prices` shows them)
//	    my-model: {Input: 1, Output: 2, CacheRead: 0.1}   # USD per million tokens
//	Tabs:                      # the inbox's own tabs, after all, to review, failed,
//	  - {Name: codex, Query: "agent:codex is:undecided"}  # follow-ups, mine (Tab)
//
// Integer keys take integer literals only (`1.5`, `.inf` are errors) and
// every number is bounded (limits.go), so that no duration or byte count
// derived from one overflows. The sweep deletes only capture-layout files
// under a Path sift created (or `sift init-logs` marked).
//
// Long-lived processes reload the file with a Watcher: the numeric knobs
// take effect, a changed Path is reported and ignored until restart.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/agentsift/sift/core/layout"
)

// Config is sift's configuration. The YAML keys are the field names.
type Config struct {
	// Enabled turns capture on; false runs agents without stream flags and
	// writes no file.
	Enabled bool `yaml:"Enabled"`
	// Path is the root directory of captured streams, by default
	// DefaultLogsPath. A relative Path in a file is relative to the file's
	// folder (Load makes it absolute). It is pinned for the life of a
	// process: a changed Path is reported and ignored until restart.
	Path string `yaml:"Path"`
	// MaxFileSizeMb caps one stream file; later lines are dropped.
	MaxFileSizeMb int `yaml:"MaxFileSizeMb"`
	// RetainedDays is the age, by last write, past which stream files are
	// swept; 0 keeps files forever.
	RetainedDays int `yaml:"RetainedDays"`
	// MaxTotalSizeMb caps all stream files together, oldest evicted
	// first; 0 disables the cap.
	MaxTotalSizeMb int `yaml:"MaxTotalSizeMb"`
	// StallThresholdSeconds is the gap between events that counts as a
	// stall.
	StallThresholdSeconds float64 `yaml:"StallThresholdSeconds"`
	// ToolStallThresholdSeconds is how long a wait on a running tool is
	// tool time: past it (or when the tool then fails) the wait flags its
	// turn as a stall. 0 means the default, 600.
	ToolStallThresholdSeconds float64 `yaml:"ToolStallThresholdSeconds"`
	// TokenSpikeFactor and TokenSpikeMin flag a turn that uses at least
	// that many times the session's usual turn and at least that many
	// tokens.
	TokenSpikeFactor float64 `yaml:"TokenSpikeFactor"`
	TokenSpikeMin    int64   `yaml:"TokenSpikeMin"`
	// Reviewer is the reviewer id recorded on decisions (the inbox,
	// sift decide, the API); empty means $USER.
	Reviewer string `yaml:"Reviewer"`
	// ClaimMinutes is how long a reviewer's claim on a session (the
	// inbox's c, sift claim) holds unless renewed or released; 0 means
	// the default, 30.
	ClaimMinutes int `yaml:"ClaimMinutes"`
	// History says whether the inbox imports the agent CLIs' own session
	// histories (`sift import --history`) when it opens, and watches them
	// while it is open; unset (nil), it does once the store holds history
	// sessions (HistoryOn). Read when the inbox opens.
	History *bool `yaml:"History"`
	// Projects are project folders whose own histories sift reads, for a
	// harness that keeps its sessions in the projects it ran in and
	// nothing under HOME to list them (Aider's .aider.chat.history.md):
	// besides these, the folders of the runs and history sessions the
	// store holds are looked in. A relative folder is relative to the
	// file's folder.
	Projects []string `yaml:"Projects"`
	// Database is the store: a SQLite file, or a postgres:// URL naming a
	// PostgreSQL database that several machines and reviewers share. The
	// --db flag and $SIFT_DB come first; empty is the default file.
	Database string `yaml:"Database"`
	// Review holds the retention tiers of review data in the store.
	Review ReviewRetention `yaml:"Review"`
	// Agents overrides, per agent kind (claude, codex, gemini, cursor,
	// antigravity, opencode, copilot, qwen, kimi, droid), how its CLI is
	// launched.
	Agents map[string]Agent `yaml:"Agents"`
	// Prices overrides or adds model prices, laid over the embedded
	// catalog (see Prices).
	Prices Prices `yaml:"Prices"`
	// Tabs are the inbox's own tabs, each a name and a search query (see
	// Tab).
	Tabs []Tab `yaml:"Tabs"`

	// file is where the configuration was read from; empty for defaults.
	file string
}

// ReviewRetention is how long the store keeps each tier of review data.
type ReviewRetention struct {
	// FullEventsHours keeps per-turn and per-tool-call review events.
	FullEventsHours int `yaml:"FullEventsHours"`
	// FlaggedDays keeps flagged sessions' review events and stream files
	// (a session with an open needs_followup keeps them until it is
	// closed, whatever this says).
	FlaggedDays int `yaml:"FlaggedDays"`
	// SummariesDays keeps the summaries of sessions whose stream files
	// are gone; a summary whose file exists is kept.
	SummariesDays int `yaml:"SummariesDays"`
}

// FullEvents is FullEventsHours as a duration (saturating, see Days).
func (r ReviewRetention) FullEvents() time.Duration { return Hours(r.FullEventsHours) }

// Flagged is FlaggedDays as a duration (saturating, see Days).
func (r ReviewRetention) Flagged() time.Duration { return Days(r.FlaggedDays) }

// Summaries is SummariesDays as a duration (saturating, see Days).
func (r ReviewRetention) Summaries() time.Duration { return Days(r.SummariesDays) }

// Agent overrides how one agent CLI is launched.
type Agent struct {
	// Binary is the executable, a name looked up on PATH or a path.
	Binary string `yaml:"Binary"`
	// Env adds variables to the agent's environment, which otherwise is
	// sift's own.
	Env map[string]string `yaml:"Env"`
}

// Default returns the configuration used when no file is given. Its Path
// is DefaultLogsPath, or empty when there is no home folder to put it in
// (Validate then says so).
func Default() Config {
	logs, _ := DefaultLogsPath()
	return Config{
		Enabled:                   true,
		Path:                      logs,
		MaxFileSizeMb:             32,
		RetainedDays:              14,
		MaxTotalSizeMb:            2048,
		StallThresholdSeconds:     30,
		ToolStallThresholdSeconds: 600,
		TokenSpikeFactor:          3,
		TokenSpikeMin:             20000,
		Review:                    ReviewRetention{FullEventsHours: 48, FlaggedDays: 30, SummariesDays: 90},
	}
}

// File returns the file the configuration was read from, or "" for the
// defaults.
func (c Config) File() string { return c.file }

// MaxFileBytes is MaxFileSizeMb in bytes (saturating, see MiB).
func (c Config) MaxFileBytes() int64 { return MiB(c.MaxFileSizeMb) }

// MaxTotalBytes is MaxTotalSizeMb in bytes (saturating, see MiB); 0 means
// no cap.
func (c Config) MaxTotalBytes() int64 { return MiB(c.MaxTotalSizeMb) }

// ClaimTTL is how long a claim holds: ClaimMinutes, or 30 minutes when
// it is 0.
func (c Config) ClaimTTL() time.Duration {
	if c.ClaimMinutes <= 0 {
		return 30 * time.Minute
	}
	return time.Duration(min(c.ClaimMinutes, ClaimMinutesMax)) * time.Minute
}

// HistoryOn reports whether the inbox imports and watches the agent
// histories: as History says, else when the store already holds history
// sessions (held), which an import of them left.
func (c Config) HistoryOn(held bool) bool {
	if c.History != nil {
		return *c.History
	}
	return held
}

// Retention is RetainedDays as a duration (saturating, see Days); 0 means
// keep forever.
func (c Config) Retention() time.Duration { return Days(c.RetainedDays) }

// StallThreshold is StallThresholdSeconds as a duration (saturating, see
// Seconds).
func (c Config) StallThreshold() time.Duration { return Seconds(c.StallThresholdSeconds) }

// ToolStallThreshold is ToolStallThresholdSeconds as a duration
// (saturating, see Seconds); 0 leaves the summarizer's default.
func (c Config) ToolStallThreshold() time.Duration { return Seconds(c.ToolStallThresholdSeconds) }

// Agent returns the override for an agent kind (zero when none).
func (c Config) Agent(kind string) Agent { return c.Agents[kind] }

// DefaultLogsPath returns the default capture root, in the data folder
// the store's default database also lives in: $XDG_DATA_HOME/sift/logs
// when XDG_DATA_HOME is an absolute path, else ~/.local/share/sift/logs.
// It is absolute, so that which folder sift writes and sweeps never
// depends on where it runs.
func DefaultLogsPath() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "sift", "logs"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("default logs path: %w", err)
	}
	if !filepath.IsAbs(home) {
		return "", fmt.Errorf("default logs path: home folder %q is not absolute", home)
	}
	return filepath.Join(home, ".local", "share", "sift", "logs"), nil
}

// DefaultPath returns the default configuration file,
// `<user config dir>/sift/config.yaml`.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("config: %w", err)
	}
	return filepath.Join(dir, "sift", "config.yaml"), nil
}

// Resolve loads the configuration a command should use: the file named by
// flagPath when it is set (it must exist), else the default file, whose
// absence means the defaults. The result is validated.
func Resolve(flagPath string) (Config, error) {
	path, mustExist := flagPath, true
	if path == "" {
		p, err := DefaultPath()
		if err != nil {
			return Default(), nil
		}
		path, mustExist = p, false
	}
	c, err := Load(path)
	if errors.Is(err, os.ErrNotExist) && !mustExist {
		return Default(), nil
	}
	if err != nil {
		return Config{}, err
	}
	return c, c.Validate()
}

// Load reads a configuration file over the defaults: keys it does not set
// keep their default. It rejects unknown keys. A relative Path is made
// absolute against the file's folder, as is a relative folder of
// Projects. It does not validate.
func Load(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config %s: %w", path, errors.Unwrap(err))
	}
	c, err := Parse(data)
	if err != nil {
		return Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	c.file = path
	if strings.TrimSpace(c.Path) != "" {
		if c.Path, err = nextTo(path, c.Path); err != nil {
			return Config{}, err
		}
	}
	for i, p := range c.Projects {
		if strings.TrimSpace(p) != "" {
			if c.Projects[i], err = nextTo(path, p); err != nil {
				return Config{}, err
			}
		}
	}
	return c, nil
}

// nextTo makes a folder the configuration file names absolute: a
// relative one is next to the file.
func nextTo(file, dir string) (string, error) {
	if !filepath.IsAbs(dir) {
		abs, err := filepath.Abs(file)
		if err != nil {
			return "", fmt.Errorf("config %s: %w", file, err)
		}
		dir = filepath.Join(filepath.Dir(abs), dir)
	}
	return filepath.Clean(dir), nil
}

// Parse decodes YAML over the defaults. An empty document is the
// defaults. Errors are one line. An integer key whose value is not an
// integer (`1.5`, `.inf`) is an error naming the key.
func Parse(data []byte) (Config, error) {
	if err := checkIntegers(data); err != nil {
		return Config{}, err
	}
	c := Default()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, errors.New(oneLine(err.Error()))
	}
	return c, nil
}

// oneLine folds yaml's multi-line messages ("yaml: unmarshal errors:\n
// line 3: …") into one line.
func oneLine(s string) string {
	s = strings.TrimPrefix(s, "yaml: ")
	s = strings.Replace(s, "unmarshal errors:\n", "", 1)
	fields := strings.Split(s, "\n")
	for i := range fields {
		fields[i] = strings.TrimSpace(fields[i])
	}
	return strings.Join(fields, "; ")
}

// Error is a configuration value that fails validation. Its message is one
// line naming the file and the key.
type Error struct {
	File string // "" for the defaults or flags
	Key  string
	Msg  string
}

// Error implements error.
func (e *Error) Error() string {
	file := e.File
	if file == "" {
		file = "(defaults)"
	}
	return fmt.Sprintf("config %s: %s %s", file, e.Key, e.Msg)
}

// Validate checks the values, returning the first *Error.
func (c Config) Validate() error {
	bad := func(key, format string, args ...any) error {
		return &Error{File: c.file, Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case strings.TrimSpace(c.Path) == "":
		return bad("Path", "must not be empty")
	case c.MaxFileSizeMb < 1:
		return bad("MaxFileSizeMb", "must be at least 1 (got %d)", c.MaxFileSizeMb)
	case c.MaxFileSizeMb > FileSizeMbMax:
		return bad("MaxFileSizeMb", "must be at most %d (1 TiB; got %d)", FileSizeMbMax, c.MaxFileSizeMb)
	case c.RetainedDays < 0:
		return bad("RetainedDays", "must not be negative (got %d; 0 keeps files forever)", c.RetainedDays)
	case c.RetainedDays > RetainedDaysMax:
		return bad("RetainedDays", "must be at most %d (100 years; got %d; 0 keeps files forever)", RetainedDaysMax, c.RetainedDays)
	case c.MaxTotalSizeMb < 0:
		return bad("MaxTotalSizeMb", "must not be negative (got %d; 0 disables the cap)", c.MaxTotalSizeMb)
	case c.MaxTotalSizeMb > TotalSizeMbMax:
		return bad("MaxTotalSizeMb", "must be at most %d (1 PiB; got %d; 0 disables the cap)", TotalSizeMbMax, c.MaxTotalSizeMb)
	case !finite(c.StallThresholdSeconds):
		return bad("StallThresholdSeconds", "must be a finite number (got %g)", c.StallThresholdSeconds)
	case c.StallThresholdSeconds <= 0:
		return bad("StallThresholdSeconds", "must be positive (got %g)", c.StallThresholdSeconds)
	case c.StallThresholdSeconds > StallSecondsMax:
		return bad("StallThresholdSeconds", "must be at most %d (a year; got %g)", StallSecondsMax, c.StallThresholdSeconds)
	case !finite(c.ToolStallThresholdSeconds):
		return bad("ToolStallThresholdSeconds", "must be a finite number (got %g)", c.ToolStallThresholdSeconds)
	case c.ToolStallThresholdSeconds < 0:
		return bad("ToolStallThresholdSeconds", "must not be negative (got %g; 0 is the default, 600)", c.ToolStallThresholdSeconds)
	case c.ToolStallThresholdSeconds > StallSecondsMax:
		return bad("ToolStallThresholdSeconds", "must be at most %d (a year; got %g)", StallSecondsMax, c.ToolStallThresholdSeconds)
	case !finite(c.TokenSpikeFactor):
		return bad("TokenSpikeFactor", "must be a finite number (got %g)", c.TokenSpikeFactor)
	case c.TokenSpikeFactor < 1:
		return bad("TokenSpikeFactor", "must be at least 1 (got %g)", c.TokenSpikeFactor)
	case c.TokenSpikeMin < 0:
		return bad("TokenSpikeMin", "must not be negative (got %d)", c.TokenSpikeMin)
	case c.ClaimMinutes < 0:
		return bad("ClaimMinutes", "must not be negative (got %d; 0 is the default, 30)", c.ClaimMinutes)
	case c.ClaimMinutes > ClaimMinutesMax:
		return bad("ClaimMinutes", "must be at most %d (a year; got %d)", ClaimMinutesMax, c.ClaimMinutes)
	}
	for _, t := range []struct {
		key      string
		n, limit int
		unit     string
	}{
		{"Review.FullEventsHours", c.Review.FullEventsHours, EventsHoursMax, "hours"},
		{"Review.FlaggedDays", c.Review.FlaggedDays, RetainedDaysMax, "days"},
		{"Review.SummariesDays", c.Review.SummariesDays, RetainedDaysMax, "days"},
	} {
		switch {
		case t.n < 0:
			return bad(t.key, "must not be negative (got %d)", t.n)
		case t.n > t.limit:
			return bad(t.key, "must be at most %d (100 years in %s; got %d)", t.limit, t.unit, t.n)
		}
	}
	for kind, a := range c.Agents {
		if strings.TrimSpace(a.Binary) == "" && len(a.Env) == 0 {
			return bad("Agents."+kind, "sets neither Binary nor Env")
		}
	}
	if err := c.validateTabs(); err != nil {
		return err
	}
	return c.Prices.validate(c.file)
}

// CheckWritable makes sure the capture root exists and a file can be
// created in it; the error names the file and key.
func (c Config) CheckWritable() error {
	if err := CheckDirWritable(c.Path); err != nil {
		return &Error{File: c.file, Key: "Path", Msg: err.Error()}
	}
	return nil
}

// CheckDirWritable creates dir when needed and checks that a file can be
// created in it. A folder it creates is marked as sift's own logs root
// (layout.MakeRoot), so that the retention sweep may work in it; an
// existing folder is left unmarked. The error reads "DIR is not writable:
// REASON".
func CheckDirWritable(dir string) error {
	fail := func(err error) error {
		return fmt.Errorf("%s is not writable: %v", dir, unwrapPath(err))
	}
	if _, err := layout.MakeRoot(dir); err != nil {
		return fail(err)
	}
	f, err := os.CreateTemp(dir, ".sift-write-check-*")
	if err != nil {
		return fail(err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// unwrapPath drops the *PathError's own path, which the message already
// names.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
