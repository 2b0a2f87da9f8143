package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// TestSessionHeaderNamesTheModelsSource: the session screen's header
// names where the model was read when the stream did not name it, and
// only the model when it did.
func TestSessionHeaderNamesTheModelsSource(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		model, source, want string
	}{
		{"gpt-5", "~/.codex/config.toml", "codex (gpt-5 from ~/.codex/config.toml)"},
		{"gpt-5", "--model", "codex (gpt-5 from --model)"},
		{"gpt-5", summary.ModelFromStream, "codex (gpt-5) ·"},
	} {
		m := newSessionView(&Common{Styles: NewStyles(mustPalette(t))})
		m.SetSize(120, 30)
		s := &review.Session{Summary: summary.Summary{WorkItemID: "w", FileName: "f.jsonl", Phase: "work",
			AgentKind: "codex", Model: tc.model, ModelSource: tc.source, Turns: []summary.Turn{}}}
		m.setSession(s, nil, review.Query{}, nil)
		if got := ansi.Strip(m.header()[0]); !strings.Contains(got, tc.want) {
			t.Errorf("header %q, want it to hold %q", got, tc.want)
		}
	}
}
