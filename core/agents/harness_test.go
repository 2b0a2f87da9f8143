package agents

import (
	"slices"
	"testing"
)

// TestHarnessEntries holds the registry together: the parsers keep their
// sniffing order, each entry's parsers are its own kind's, a history has
// what the import asks of it, and no two CLIs share a binary (sift run
// takes a binary for the harness's name).
func TestHarnessEntries(t *testing.T) {
	t.Parallel()
	want := []Kind{Antigravity, Claude, Codex, Copilot, Cursor, Droid, Gemini, Kimi, OpenCode, Pi, Qwen,
		AiderHistory, AmpHistory, AntigravityHistory, ClaudeHistory, ClineHistory, CodexHistory, CopilotHistory, CrushHistory,
		CursorHistory, DroidHistory,
		GeminiHistory, GooseHistory, KiloHistory, KimiHistory, OpenCodeHistory, PiHistory, QwenHistory, RooHistory, Unknown}
	if got := Default().Kinds(); !slices.Equal(got, want) {
		t.Errorf("sniffing order %v, want %v", got, want)
	}
	binaries := map[string]Kind{}
	for _, h := range Harnesses() {
		if h.Parser == nil {
			// A harness sift reads only the history of has no CLI.
			if h.History == nil || h.CLI.Binary != "" {
				t.Errorf("%s: no stream parser, but a CLI %q or no history", h.Kind, h.CLI.Binary)
			}
		} else if h.Parser.Kind() != h.Kind {
			t.Errorf("%s: its parser reads %s", h.Kind, h.Parser.Kind())
		}
		if h.Parser != nil {
			if other, ok := binaries[h.CLI.Binary]; ok || h.CLI.Binary == "" {
				t.Errorf("%s: binary %q, also %s's", h.Kind, h.CLI.Binary, other)
			}
			binaries[h.CLI.Binary] = h.Kind
		}
		if got, ok := LookupHarness(h.Kind); !ok || got.Kind != h.Kind {
			t.Errorf("%s: LookupHarness finds %v", h.Kind, got.Kind)
		}
		if h.Resume != nil && (h.Resume.ID == nil || h.Resume.Args == nil || h.Resume.Prompt == nil) {
			t.Errorf("%s: a resume without its id pattern or arguments", h.Kind)
		}
		hist := h.History
		if hist == nil {
			continue
		}
		if hk := hist.Parser.Kind(); hk.Harness() != h.Kind {
			t.Errorf("%s: its history is %s's", h.Kind, hk.Harness())
		}
		if hist.Dirs == nil || (hist.Session == nil || hist.Root == nil) && hist.Sessions == nil {
			t.Errorf("%s: a history without its folders, session names or root", h.Kind)
		}
		if got, ok := LookupHistory(hist.Parser.Kind()); !ok || got != hist {
			t.Errorf("%s: LookupHistory does not find its history", h.Kind)
		}
	}
	if _, ok := LookupHarness(ClaudeHistory); ok {
		t.Error("a history's kind names a harness")
	}
}
