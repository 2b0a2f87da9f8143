package store

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/detail"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// The recorded Antigravity conversations (testdata/histories/antigravity/
// PROVENANCE.md), by their ids: agy 1.0.16's six tools, agy 1.0.0's
// file read in /tmp/agy-probe, and the three calls agy 1.1.2 rejected.
const (
	agyVocabulary = "7c1e9a52-0d3f-4b8e-9a61-2f5d8c4b7e10"
	agyMarker     = "1343c404-84be-4274-af97-5e7aa173da4f"
	agyRejected   = "3f9d2b61-8a4e-4c7d-b2e5-9e1a7c3d5f28"
)

// agyLog is the step log of a recorded conversation under a home.
func agyLog(home, root, id string) string {
	return filepath.Join(home, ".gemini", root, "brain", id, ".system_generated", "logs", "transcript.jsonl")
}

// TestImportAntigravityHistory imports Antigravity's recorded step logs
// from a temporary HOME: one session per conversation, keyed by its id;
// the project the CLI's last_conversations.json records (else the
// harness's name: the 1.0.16 conversation ran its command in agy's own
// scratch folder); the prompt out of its <USER_REQUEST> wrapper; the
// model the prompt's settings change names; every call with its result,
// the results written before their call included; the calls agy rejected
// failed, and the command that exited 127; no tokens, said so; and each
// completed by its last reply. A grown log is read again alone, and the
// detail renders a conversation again from its key.
func TestImportAntigravityHistory(t *testing.T) {
	t.Parallel()
	home := homeOf(t, "antigravity")
	s := newTestStore(t)
	res := importHistory(t, s, homeRoots(home))
	if res.Sessions != 3 {
		t.Fatalf("imported %d sessions, want 3 (%+v)", res.Sessions, res)
	}
	wants := []historyWant{
		{workItem: "antigravity", file: agyVocabulary, agent: agents.AntigravityHistory, model: "Gemini 3.1 Pro (High)",
			turns: 5, calls: 6, notRecorded: true, outcome: summary.OutcomeCompleted},
		{workItem: "-tmp-agy-probe", file: agyMarker, agent: agents.AntigravityHistory, model: "Gemini 3.5 Flash (High)",
			turns: 3, calls: 2, notRecorded: true, outcome: summary.OutcomeCompleted},
		{workItem: "antigravity", file: agyRejected, agent: agents.AntigravityHistory,
			turns: 4, calls: 3, failedCalls: 3, notRecorded: true, outcome: summary.OutcomeCompleted},
	}
	for _, w := range wants {
		sess, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: w.workItem, FileName: w.file})
		if err != nil {
			t.Fatalf("%s/%s: %v", w.workItem, w.file, err)
		}
		checkHistorySession(t, &sess.Summary, w)
	}
	rejected, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: "antigravity", FileName: agyRejected})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rejected.Summary.ToolCalls {
		if c.Name == "run_command" && (c.ExitCode == nil || *c.ExitCode != 127) {
			t.Errorf("run_command exit code %v, want the 127 its result states", c.ExitCode)
		}
	}

	// The detail renders a conversation again from its key: the prompt
	// as typed, and each call's own result, the one logged before its
	// call too (step 27, the edit's, precedes step 26 in the file).
	brain := filepath.Join(home, ".gemini", "antigravity-cli", "brain")
	d, err := detail.Reader{Open: func(p string) (*os.File, error) {
		f, err := ingest.OpenStream([]string{brain}, p)
		if f == nil && err == nil {
			return nil, fs.ErrNotExist
		}
		return f, err
	}}.Read(agents.StoredKey(filepath.Join(brain, agyVocabulary), agyVocabulary), string(agents.AntigravityHistory))
	if err != nil {
		t.Fatal(err)
	}
	if p := d.Conv.Prompts.Lines; len(p) != 1 || !strings.HasPrefix(p[0].Text, "In the current directory: read alpha.txt") ||
		strings.Contains(p[0].Text, "ADDITIONAL_METADATA") || strings.Contains(p[0].Text, "Model Selection") {
		t.Errorf("prompts %+v, want the request alone", p)
	}
	for id, want := range map[string]string{"26.0": "made by the replace_file_content tool", "26.1": "Created file",
		"30.1": "needle in sub"} {
		if c := d.Calls[id]; c == nil || !strings.Contains(c.Output.String(), want) {
			t.Errorf("call %s: output without %q", id, want)
		}
	}

	grow(t, agyLog(home, "antigravity-cli", agyMarker))
	if res = importHistory(t, s, homeRoots(home)); res.Sessions != 1 || res.Skipped != 2 {
		t.Fatalf("after one log grew: %d sessions read, %d skipped; want 1 and 2", res.Sessions, res.Skipped)
	}
}
