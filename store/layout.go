package store

import (
	"path/filepath"
	"strconv"
	"strings"
)

// fileLayout is what a stream file's path says about its session.
type fileLayout struct {
	WorkItemID string
	FileName   string
	Phase      string
	// Iteration is nil when the name does not carry one.
	Iteration *int
}

// parseLayout reads `<root>/<workItemId>/<phase>-<iteration>-<hex6>.jsonl`.
// The phase may itself contain dashes and colons
// (`audit-llm-security:llm-review-3-d4e5f6.jsonl`). Any other file gets its
// parent folder as work item and phase "work".
func parseLayout(path string) fileLayout {
	name := filepath.Base(path)
	l := fileLayout{WorkItemID: filepath.Base(filepath.Dir(path)), FileName: name, Phase: "work"}
	if phase, iter, ok := splitStreamName(name); ok {
		l.Phase, l.Iteration = phase, &iter
	}
	return l
}

// splitStreamName splits `<phase>-<iteration>-<hex6>.jsonl`.
func splitStreamName(name string) (phase string, iteration int, ok bool) {
	stem, found := strings.CutSuffix(name, ".jsonl")
	if !found {
		return "", 0, false
	}
	i := strings.LastIndexByte(stem, '-')
	if i < 0 || len(stem)-i-1 != 6 || !isLowerHex(stem[i+1:]) {
		return "", 0, false
	}
	stem = stem[:i]
	j := strings.LastIndexByte(stem, '-')
	if j <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(stem[j+1:])
	if err != nil || n < 0 || stem[j+1] == '+' {
		return "", 0, false
	}
	return stem[:j], n, true
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
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
