// Package app is sift's application layer: the use cases that the
// commands, the inbox and the HTTP API share, over the store and core.
// It opens the configuration and the store (Env), runs an agent and
// records it (Run), sweeps the logs folder and the review data (Sweep),
// and runs the background jobs of a long-lived process (Background): the
// import, the daily sweep, the configuration's reload, the end of runs
// whose process died. package main parses flags, calls it and prints; it
// starts no goroutine of its own.
package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentsift/sift/core/retention"

	"github.com/agentsift/sift/core/config"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/layout"
	"github.com/agentsift/sift/core/proc"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/store"
)

// Env is where sift works: the database, the logs folder and the
// configuration, as the global flags name them, and the configuration
// once loaded.
type Env struct {
	// DB is --db: a file, or a postgres:// URL; "" for the default.
	DB string
	// Logs is the logs folder: --logs when LogsSet, else the
	// configuration's Path once Load has read it.
	Logs    string
	LogsSet bool
	// ConfigPath is --config; "" for the default file.
	ConfigPath string
	// Cfg is the configuration (Load).
	Cfg config.Config
}

// NewEnv is the environment of the defaults, before any flag.
func NewEnv() Env {
	return Env{Logs: config.Default().Path, Cfg: config.Default()}
}

// Load reads the configuration and takes the logs folder from it unless
// --logs was given. A relative --logs is relative to the working folder
// (the user typed it there); the configuration's Path is already
// absolute.
func (e *Env) Load() error {
	cfg, err := config.Resolve(e.ConfigPath)
	if err != nil {
		return err
	}
	e.Cfg = cfg
	if !e.LogsSet && cfg.Path != "" {
		e.Logs = cfg.Path
	}
	if e.LogsSet {
		abs, err := filepath.Abs(e.Logs)
		if err != nil {
			return fmt.Errorf("--logs %s: %w", e.Logs, err)
		}
		e.Logs = abs
	}
	return nil
}

// Open reads the configuration and opens the store the environment
// names. A `sift run` killed before it recorded its end left its work
// item running: Open ends such runs of this machine whose process is gone
// (store.ReapStaleRuns judged by proc.Judge), so that every command heals
// them and their files import.
func (e *Env) Open() (*store.Store, error) {
	if err := e.Load(); err != nil {
		return nil, err
	}
	path, err := e.DBPath()
	if err != nil {
		return nil, err
	}
	st, err := store.Open(path)
	if err != nil {
		return nil, err
	}
	if _, err := st.ReapStaleRuns(context.Background(), proc.Judge()); err != nil {
		st.Close()
		return nil, fmt.Errorf("open store %s: %w", store.RedactDSN(path), err)
	}
	return st, nil
}

// DBPath is the database the environment names: --db, else $SIFT_DB,
// else the configuration's Database, else the default file. A
// postgres:// URL names a PostgreSQL database; it may hold a password, so
// it is printed only through store.RedactDSN.
func (e *Env) DBPath() (string, error) {
	if e.DB != "" {
		return e.DB, nil
	}
	if v := os.Getenv("SIFT_DB"); v != "" {
		return v, nil
	}
	if e.Cfg.Database != "" {
		return e.Cfg.Database, nil
	}
	return store.DefaultPath()
}

// Retention is the configuration's retention of review data.
func (e *Env) Retention() retention.Policy {
	return retention.Policy{
		FullEventsFor: e.Cfg.Review.FullEvents(), FlaggedFor: e.Cfg.Review.Flagged(),
		SummariesFor: e.Cfg.Review.Summaries(),
	}
}

// SweepSpec is the configuration's retention of the logs folder's stream
// files.
func (e *Env) SweepSpec() retention.SweepSpec {
	return retention.SweepSpec{Root: e.Logs, RetainFor: config.Days(e.Cfg.RetainedDays),
		MaxTotalBytes: config.MiB(e.Cfg.MaxTotalSizeMb)}
}

// ImportOptions are the import options the configuration sets: the
// summary thresholds, and the review-events tier of its retention.
func (e *Env) ImportOptions() ingest.Options {
	return ingest.Options{Summary: summary.Options{
		StallThreshold: e.Cfg.StallThreshold(), ToolStallThreshold: e.Cfg.ToolStallThreshold(), SpikeFactor: e.Cfg.TokenSpikeFactor, SpikeMinTokens: e.Cfg.TokenSpikeMin,
		Prices: e.Cfg.PriceTable(),
	}, KeepEvents: e.Retention().KeepsEvents}
}

// StreamRoots are the folders a session's stream file may be read again
// from (ingest.OpenStream): the logs folder and the agent history
// folders, with those in the project folders given (KnownProjects).
func (e *Env) StreamRoots(projects ...string) []string {
	roots := []string{}
	if abs, err := filepath.Abs(e.Logs); err == nil {
		roots = append(roots, abs)
	}
	for _, r := range HistoryRoots(os.Getenv, projects...) {
		if abs, err := filepath.Abs(r.Dir); err == nil {
			roots = append(roots, abs)
		}
	}
	return roots
}

// Owns says which of a session's stream files sift may delete: its
// capture files in the logs folder (layout.OwnsFile).
func (e *Env) Owns(k review.SessionKey, path string) (bool, string) {
	return layout.OwnsFile(e.Logs, k.WorkItemID, k.FileName, path)
}

// RemoveOwned deletes a capture file of a session that sift owns
// (layout.RemoveOwned); a purge's Remove.
func RemoveOwned(k review.SessionKey, path string) (bool, string, error) {
	return layout.RemoveOwned(k.WorkItemID, k.FileName, path)
}

// Redactor is today's redaction (core/redact) as the store's reapply
// takes it.
func Redactor() store.Redactor {
	return store.Redactor{Text: redact.Bytes, JSON: redact.JSONLine}
}
