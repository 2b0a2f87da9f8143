package ingest

import (
	"os"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/core/summary"
)

// TestSearchTextCollectsWhatTheSummaryDoesNotKeep reads real streams with
// the search listener: their prompts and the errors their harness
// reported, placed at their lines.
func TestSearchTextCollectsWhatTheSummaryDoesNotKeep(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file  string
		where search.Where
		text  string
	}{
		{"../../testdata/streams/gemini/evolve-run1-write.jsonl", search.InPrompt, "Create helloworld.txt"},
		{"../../testdata/streams/codex/vincent-turn-failed-model-400.jsonl", search.InHarness, "requires a newer version of Codex"},
	} {
		f, err := os.Open(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		st := newSearchText()
		_, _, err = analyze(parser{reg: agents.Default()}, f, summary.Options{}, st.listen)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, p := range st.pieces {
			if p.Line <= 0 {
				t.Errorf("%s: a piece without its line: %+v", tc.file, p)
			}
			found = found || p.Where == tc.where && strings.Contains(p.Text, tc.text)
		}
		if !found {
			t.Errorf("%s: no %s piece with %q in %+v", tc.file, tc.where, tc.text, st.pieces)
		}
	}
}

// TestSearchTextCaps feeds a prompt of many chunks and many errors: a
// prompt's chunks make one piece, each piece and all of them are capped,
// and a subagent's prompt is not the session's.
func TestSearchTextCaps(t *testing.T) {
	t.Parallel()
	st := newSearchText()
	chunk := func(text, parent string) *event.Event {
		return &event.Event{Line: 1, ParentToolCallID: parent, Update: event.Update{SessionUpdate: event.UserMessageChunk,
			Content: &event.Content{Type: "text", Text: text}}}
	}
	st.listen(chunk("fix the", ""))
	st.listen(chunk("flaky test", ""))
	st.listen(chunk("subagent task", "toolu_1"))
	for range 3 {
		st.listen(chunk(strings.Repeat("é", maxPieceBytes), ""))
	}
	for i := range 200 {
		st.listen(&event.Event{Line: 10 + i, Update: event.Update{SessionUpdate: event.Error, Message: strings.Repeat("e", 3000)}})
	}
	if p := st.pieces[0]; p.Where != search.InPrompt || !strings.HasPrefix(p.Text, "fix the\nflaky test") || len(p.Text) > maxPieceBytes {
		t.Errorf("first prompt %q (%d bytes)", p.Text[:min(40, len(p.Text))], len(p.Text))
	}
	size := 0
	for _, p := range st.pieces {
		size += len(p.Text)
		if strings.Contains(p.Text, "subagent") {
			t.Error("a subagent's prompt was kept")
		}
		if len(p.Text) > maxPieceBytes || !strings.HasPrefix(p.Text, strings.TrimRight(p.Text, "\xc3")) {
			t.Errorf("a piece of %d bytes", len(p.Text))
		}
	}
	if size > maxPiecesBytes {
		t.Errorf("%d bytes kept, cap %d", size, maxPiecesBytes)
	}
}
