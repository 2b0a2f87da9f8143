package codex

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// ccusageSession is @ccusage/codex's own test session (testdata/accounting/
// ccusage-codex-session.jsonl): a turn_context and two
// token_count events whose info names the model, written with spaces
// around the "type" keys.
var ccusageSession = filepath.Join(agentstest.Testdata, "accounting", "ccusage-codex-session.jsonl")

// callModels returns the model and input tokens of each call-scope usage.
func callModels(evs []*event.Event) []string {
	var out []string
	for _, ev := range evs {
		if u := ev.Update; u.SessionUpdate == event.Usage && u.Scope == event.ScopeCall {
			out = append(out, ev.Model+":"+strconv.FormatInt(*u.PromptTokens, 10))
		}
	}
	return out
}

// TestCodexModelPerRequest pins the model of each Codex request: the
// token_count event's info.model where present (else info.model_name or
// info.metadata.model, as @ccusage/codex reads them), and it stays the
// model of the requests that follow until another names one; else the
// last turn_context's. On ccusage's own session both name gpt-5; the
// second case is that session with the second event's info.model changed
// to gpt-5-codex (the turn_context still says gpt-5), the third with
// info.model removed from both events.
func TestCodexModelPerRequest(t *testing.T) {
	t.Parallel()
	lines := strings.Split(strings.TrimSpace(string(agentstest.MustRead(t, ccusageSession))), "\n")
	renamed := append(lines[:2:2], strings.Replace(lines[2], `"model": "gpt-5"`, `"model": "gpt-5-codex"`, 1))
	var none []string
	for _, l := range lines {
		none = append(none, strings.Replace(l, `, "model": "gpt-5" } }`, ` } }`, 1))
	}
	named := append(lines[:2:2], strings.Replace(lines[2], `"model": "gpt-5"`, `"model_name": "gpt-5-mini"`, 1))
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"ccusage's session", lines, "gpt-5:100 gpt-5:100"},
		{"info.model differs from turn_context", renamed, "gpt-5:100 gpt-5-codex:100"},
		{"no info.model: turn_context's", none, "gpt-5:100 gpt-5:100"},
		{"info.model_name", named, "gpt-5:100 gpt-5-mini:100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs, st := agentstest.ParseBytes(t, []byte(strings.Join(tc.lines, "\n")+"\n"), agents.Options{Agent: agents.CodexHistory})
			if got := strings.Join(callModels(evs), " "); got != tc.want {
				t.Errorf("calls %q, want %q", got, tc.want)
			}
			for _, ev := range evs {
				if ev.Update.SessionUpdate == event.Raw {
					t.Errorf("line %d kept raw (%d lines)", ev.Line, st.Lines)
				}
			}
		})
	}
}
