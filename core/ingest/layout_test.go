package ingest

import (
	"path/filepath"
	"testing"
)

func TestParseLayout(t *testing.T) {
	t.Parallel()
	tests := []struct {
		path, wi, phase string
		iter            int // 0: none
	}{
		{"/logs/wi-1/work-1-a1b2c3.jsonl", "wi-1", "work", 1},
		{"/logs/wi-1/audit-llm-security:llm-review-3-d4e5f6.jsonl", "wi-1", "audit-llm-security:llm-review", 3},
		{"/logs/wi-9/rework-12-00ff00.jsonl", "wi-9", "rework", 12},
		{"/logs/wi-1/work-1-A1B2C3.jsonl", "wi-1", "work", 0}, // upper-case hex is not sift's
		{"/logs/wi-1/work-1-a1b2c.jsonl", "wi-1", "work", 0},  // five hex digits
		{"/logs/wi-1/work-x-a1b2c3.jsonl", "wi-1", "work", 0}, // no iteration
		{"/h/claude/evolve-2.1.7-run1.jsonl", "claude", "work", 0},
		{"/h/proj/0b5e9c1a-uuid.jsonl", "proj", "work", 0},
	}
	for _, tc := range tests {
		l := ParseLayout(tc.path)
		got := 0
		if l.Iteration != nil {
			got = *l.Iteration
		}
		if l.WorkItemID != tc.wi || l.Phase != tc.phase || got != tc.iter || l.FileName != filepath.Base(tc.path) {
			t.Errorf("ParseLayout(%q) = %+v (iteration %d), want %s %s %d", tc.path, l, got, tc.wi, tc.phase, tc.iter)
		}
	}
	if c := CanonicalPhase("audit-llm-security:llm-review"); c != "audit-llm-security" {
		t.Errorf("CanonicalPhase = %q", c)
	}
}
