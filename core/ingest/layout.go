package ingest

import (
	"path/filepath"
	"strings"

	"github.com/agentsift/sift/core/layout"
)

// Layout is what a stream file's path says about its session.
type Layout struct {
	WorkItemID string
	FileName   string
	Phase      string
	// Iteration is nil when the name does not carry one.
	Iteration *int
}

// ParseLayout reads `<root>/<workItemId>/<phase>-<iteration>-<hex>.jsonl`,
// the capture layout that core/capture names and matches
// (layout.ParseStreamName; the retention sweep deletes nothing else). The
// phase may itself contain dashes and colons
// (`audit-llm-security:llm-review-3-d4e5f6.jsonl`). Any other file gets its
// parent folder as work item and phase "work".
func ParseLayout(path string) Layout {
	name := filepath.Base(path)
	l := Layout{WorkItemID: filepath.Base(filepath.Dir(path)), FileName: name, Phase: "work"}
	if phase, iter, ok := layout.ParseStreamName(name); ok {
		l.Phase, l.Iteration = phase, &iter
	}
	return l
}

// CanonicalPhase strips an auditor's detail: `audit-llm-security:llm-review`
// is `audit-llm-security`. A recorded run names the canonical phase; the
// file it wrote may name the detailed one.
func CanonicalPhase(phase string) string {
	if i := strings.IndexByte(phase, ':'); i > 0 {
		return phase[:i]
	}
	return phase
}

// isStreamName reports whether a file met while walking a folder is a
// stream capture by its name. Files given by name are always read.
func isStreamName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson", ".log", ".txt":
		return true
	}
	return false
}
