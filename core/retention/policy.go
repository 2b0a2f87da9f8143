package retention

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Policy says how long sift keeps review data, aged by the session's last
// activity: the tiers the store's data sweep applies (store.Sweep). The
// stream files are this package's to sweep (Sweep): the store tells it
// which files to keep longer (store.KeptFiles) or always
// (store.PinnedFiles) and forgets those it deleted (store.ForgetFiles).
//
// A summary goes only once its stream file is gone (deleted by the file
// sweep or by the user) and it is past SummariesFor: a session whose file
// is on disk, an agent's own history included, stays whatever its age, so
// that no sweep removes what the next import would bring back. Only the
// sessions this host recorded are judged by their files. A session with
// an open needs_followup decision keeps its summary and review events
// whatever its age. Decisions are never swept.
type Policy struct {
	// FullEventsFor keeps review events; 0 means 48 h.
	FullEventsFor time.Duration
	// FlaggedFor keeps a flagged session's review events and stream file
	// (beyond the files' retention, not beyond their size cap); 0 means
	// 30 days.
	FlaggedFor time.Duration
	// SummariesFor keeps summaries, whose stream files are gone, for
	// this long; 0 means 90 days.
	SummariesFor time.Duration
	// BatchSize is how many rows one delete step handles; 0 means 500.
	BatchSize int
	// FileGone reports whether a session's stream file is gone; nil
	// looks on disk (FileGone). A sweep that has just deleted files
	// (or, dry, would) says so for those.
	FileGone func(path string) bool
	// DryRun removes nothing: the result counts and lists what a pass
	// would remove.
	DryRun bool
}

// WithDefaults is the policy with each zero setting at its default.
func (r Policy) WithDefaults() Policy {
	if r.FullEventsFor <= 0 {
		r.FullEventsFor = 48 * time.Hour
	}
	if r.FlaggedFor <= 0 {
		r.FlaggedFor = 30 * 24 * time.Hour
	}
	if r.SummariesFor <= 0 {
		r.SummariesFor = 90 * 24 * time.Hour
	}
	if r.BatchSize <= 0 {
		r.BatchSize = 500
	}
	if r.FileGone == nil {
		r.FileGone = FileGone
	}
	return r
}

// FileGone reports whether the file at an absolute path does not exist.
// Any other error (a folder that cannot be read, a disk not mounted under
// its folder) is not "gone": the session stays.
func FileGone(path string) bool {
	if !filepath.IsAbs(path) {
		return false
	}
	_, err := os.Lstat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// KeepsEvents reports whether a session keeps its review events at an age
// (since its last activity): younger than FullEventsFor, or, flagged,
// than FlaggedFor. An import neither builds nor writes those the sweep
// would delete at once (ingest.Options.KeepEvents): the summary, turns
// and tool calls are kept, and the detail is read again from the file on
// demand.
func (r Policy) KeepsEvents(age time.Duration, flagged bool) bool {
	r = r.WithDefaults()
	return age <= r.FullEventsFor || flagged && age <= r.FlaggedFor
}
