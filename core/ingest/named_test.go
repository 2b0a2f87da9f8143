package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
)

// TestNamedFileNotAStream: a file named alone that no sniffer claims, no
// recorded run wrote and whose name is not a capture's is refused, saying
// what was tried and how to force it; the same file in a folder keeps the
// plain-text fallback, and a forced kind reads it (issue 29, item 8;
// clarification 11). Before, /etc/passwd became a session.
func TestNamedFileNotAStream(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	notes := filepath.Join(root, "wi", "notes.txt")
	if err := os.MkdirAll(filepath.Dir(notes), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(notes, []byte("root:x:0:0:root:/root:/bin/bash\nnot a stream\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	capture := copyFixture(t, "streams/copilot/firaga-plaintext-stdout-stderr-stats.txt", filepath.Join(root, "wi", "work-1-a1b2c3d4e5f6.jsonl"))
	claude := copyFixture(t, "streams/claude/evolve-2.1.7-run1-write-file.jsonl", filepath.Join(root, "other", "c.jsonl"))
	run := func(opt Options, paths ...string) (*memStore, Result) {
		t.Helper()
		m := &memStore{}
		res, err := ImportFound(context.Background(), m, Find(paths), opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		return m, res
	}

	m, res := run(Options{}, notes, capture, claude)
	if res.Sessions != 2 || len(res.Failed) != 1 || res.Failed[0].Path != notes {
		t.Fatalf("named files: %+v; want notes.txt refused, the capture and the claude stream read", res)
	}
	why := res.Failed[0].Reason
	for _, want := range []string{"not an agent stream", "claude, codex", "--agent unknown", "plain text"} {
		if !strings.Contains(why, want) || strings.Contains(why, "\n") {
			t.Errorf("the refusal %q does not say %q on one line", why, want)
		}
	}
	if got := m.byName(); got["work-1-a1b2c3d4e5f6.jsonl"] == nil || got["c.jsonl"].Summary.AgentKind != string(agents.Claude) {
		t.Errorf("written: %v", got)
	}

	// In a folder the same file is read as plain text.
	m, res = run(Options{}, filepath.Join(root, "wi"))
	if res.Sessions != 2 || len(res.Failed) != 0 || m.byName()["notes.txt"].Summary.AgentKind != string(agents.Unknown) {
		t.Errorf("a folder: %+v; want notes.txt kept as plain text", res)
	}

	// Forced, it is read as the kind asked.
	var forced Options
	forced.Summary.Agent = string(agents.Unknown)
	if m, res = run(forced, notes); res.Sessions != 1 || len(res.Failed) != 0 || !m.byName()["notes.txt"].Summary.Plaintext {
		t.Errorf("--agent unknown: %+v", res)
	}
}
