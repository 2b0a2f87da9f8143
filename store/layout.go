package store

import (
	"path/filepath"
	"strings"

	"github.com/agentsift/sift/core/capture"
)

// fileLayout is what a stream file's path says about its session.
type fileLayout struct {
	WorkItemID string
	FileName   string
	Phase      string
	// Iteration is nil when the name does not carry one.
	Iteration *int
}

// parseLayout reads `<root>/<workItemId>/<phase>-<iteration>-<hex>.jsonl`,
// the capture layout that core/capture names and matches
// (capture.ParseStreamName; the retention sweep deletes nothing else). The
// phase may itself contain dashes and colons
// (`audit-llm-security:llm-review-3-d4e5f6.jsonl`). Any other file gets its
// parent folder as work item and phase "work".
func parseLayout(path string) fileLayout {
	name := filepath.Base(path)
	l := fileLayout{WorkItemID: filepath.Base(filepath.Dir(path)), FileName: name, Phase: "work"}
	if phase, iter, ok := capture.ParseStreamName(name); ok {
		l.Phase, l.Iteration = phase, &iter
	}
	return l
}

// canonicalPhase strips an auditor's detail: `audit-llm-security:llm-review`
// is `audit-llm-security`.
func canonicalPhase(phase string) string {
	if i := strings.IndexByte(phase, ':'); i > 0 {
		return phase[:i]
	}
	return phase
}

// streamExt reports whether a file met while walking a folder is a stream
// capture by its name. Files given by name are always read.
func streamExt(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson", ".log", ".txt":
		return true
	}
	return false
}
