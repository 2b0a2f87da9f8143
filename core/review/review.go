// Package review is sift's review vocabulary, shared by the store, the
// inbox (tui), the HTTP API and the commands: which session a reviewer
// looks at (SessionKey), how the inbox asks for sessions (Query, SortKey)
// and what it gets back (Session, Page), and what a reviewer records
// (Decision, DecisionKind). The inbox's `/` is a search (Query.Search),
// whose language is core/search's.
//
// It knows summaries and events, never SQL or terminals: the store
// implements the queries, the inbox draws their answers.
package review

import (
	"strconv"
	"strings"

	"github.com/agentsift/sift/core/redact"
)

// SessionKey identifies a session: one stream file of a work item.
type SessionKey struct {
	WorkItemID string
	FileName   string
}

// String returns the key as shown, `<workItemId>/<fileName>` redacted
// (Shown): what every message and output that names a session prints.
func (k SessionKey) String() string { return k.Shown().Ref() }

// Ref returns the key itself as `<workItemId>/<fileName>`, unredacted: the
// reference the store resolves, for comparing keys, never for showing one.
func (k SessionKey) Ref() string { return k.WorkItemID + "/" + k.FileName }

// Shown is the key as sift shows, indexes and exports it: each part
// redacted. A key is the stream file's folder and name, which whatever
// wrote the file chose; the store keeps the real name, which it needs to
// find the file, and every output shows this one. It is the key itself
// for any key that holds no secret.
func (k SessionKey) Shown() SessionKey {
	return SessionKey{WorkItemID: redact.String(k.WorkItemID), FileName: redact.String(k.FileName)}
}

// ShowsRedacted reports whether a reference holds what redaction put in
// place of a secret: a key as shown, not as stored.
func ShowsRedacted(ref string) bool { return strings.Contains(ref, redact.Prefix) }

// IsZero reports whether the key names no session.
func (k SessionKey) IsZero() bool { return k.WorkItemID == "" && k.FileName == "" }

// Label is a session's "work item · phase-iteration" label, as the inbox
// shows it, the work item redacted (SessionKey.Shown); "?" stands for an
// unknown phase.
func Label(workItem, phase string, iteration *int) string {
	return redact.String(workItem) + " · " + PhaseLabel(phase, iteration)
}

// PhaseLabel is Label's "phase-iteration" part.
func PhaseLabel(phase string, iteration *int) string {
	if phase == "" {
		phase = "?"
	}
	if iteration != nil {
		phase += "-" + strconv.Itoa(*iteration)
	}
	return phase
}
