package claude

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// claudeUsageLines returns the five assistant lines of one message Claude
// Code 2.1.38 wrote to its transcript (testdata/accounting, copied from
// testdata/history/claude/spotter-2.1.38-short-session.jsonl): one line per
// content block, each repeating the message's usage (3 input, 13 output).
func claudeUsageLines(t *testing.T) []string {
	t.Helper()
	return strings.Split(strings.TrimSpace(string(agentstest.MustRead(t, filepath.Join(agentstest.Testdata, "accounting", "claude-2.1.38-usage.jsonl")))), "\n")
}

// editLine changes the top-level keys of a transcript line: a nil value
// removes the key.
func editLine(t *testing.T, line string, set map[string]any) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range set {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestClaudeHistoryAccounting pins the accounting rules of a Claude Code
// transcript on its recorded lines: a message counts once however many
// lines repeat its usage (message id + request id, as ccusage keys it); a
// line with message.usage but no top-level type still counts; a sidechain
// replay of a message the main chain counted is not counted again, even
// under a new request id (ccusage counts it twice).
func TestClaudeHistoryAccounting(t *testing.T) {
	t.Parallel()
	lines := claudeUsageLines(t)
	replay := editLine(t, lines[0], map[string]any{"isSidechain": true, "requestId": "req_011CYreplayed0000000000"})
	tests := []struct {
		name  string
		lines []string
		calls int
		// ccusage is the number of calls ccusage 18.0.11 counts, where it
		// differs.
		ccusage int
	}{
		{"a message's lines count once", lines, 1, 0},
		{"a line without a top-level type still counts", []string{editLine(t, lines[0], map[string]any{"type": nil})}, 1, 0},
		{"a sidechain replay under a new request id is not counted again", append(lines[:2:2], replay), 1, 2},
		{"a sidechain message of its own counts", []string{editLine(t, lines[0], map[string]any{"isSidechain": true})}, 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs, st := agentstest.ParseBytes(t, []byte(strings.Join(tc.lines, "\n")+"\n"), agents.Options{Agent: agents.ClaudeHistory})
			calls := 0
			for _, ev := range evs {
				if ev.Update.SessionUpdate == event.Raw {
					t.Errorf("line %d kept raw", ev.Line)
				}
				if ev.Update.SessionUpdate == event.Usage && ev.Update.Scope == event.ScopeCall {
					calls++
					if *ev.Update.CompletionTokens != 13 {
						t.Errorf("output %d, want 13", *ev.Update.CompletionTokens)
					}
				}
			}
			if calls != tc.calls || st.Lines != len(tc.lines) {
				t.Fatalf("%d calls of %d lines, want %d", calls, st.Lines, tc.calls)
			}
			if tc.ccusage != 0 {
				t.Logf("calls: sift %d, ccusage 18.0.11 %d (message id + request id only)", calls, tc.ccusage)
			}
		})
	}
}

// TestClaudeParentNamesReplacedReplay pins how a transcript's usage
// events say which calls count when a sidechain replays a message before
// the main chain writes it (ccusage's
// refreshes_dedupe_indexes_when_parent_replaces_sidechain_replay): the
// replay's usage is marked isSidechain, and the main chain's, which
// replaces it, names the replay's request id; the main chain's own lines
// that follow add nothing.
func TestClaudeParentNamesReplacedReplay(t *testing.T) {
	t.Parallel()
	lines := claudeUsageLines(t)
	replay := editLine(t, lines[0], map[string]any{"isSidechain": true, "requestId": "req_011CYreplayed0000000000"})
	evs, _ := agentstest.ParseBytes(t, []byte(strings.Join(append([]string{replay}, lines...), "\n")+"\n"), agents.Options{Agent: agents.ClaudeHistory})
	var got []string
	for _, ev := range evs {
		if ev.Update.SessionUpdate == event.Usage {
			got = append(got, fmt.Sprintf("%v/%v/%v", ev.Extra["requestId"], ev.Extra["isSidechain"], ev.Extra["replacesRequestId"]))
		}
	}
	want := []string{"req_011CYreplayed0000000000/true/<nil>", "req_011CY15QS2LGwAeBxdfa6e1V/<nil>/req_011CYreplayed0000000000"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("usage events %q, want %q", got, want)
	}
}
