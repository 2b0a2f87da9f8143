package usage

import (
	"testing"

	"github.com/agentsift/sift/core/ingest"
)

// claudeCall is one Claude Code call as ingest.Usage records it: message
// and request named (Key, Message), a sidechain's marked; 0 input and
// cache write, as ccusage's fixtures have them.
func claudeCall(session, msg, req string, sidechain bool, cacheRead, output int64) File {
	return File{WorkItemID: "project-a", FileName: session + ".jsonl", AgentKind: "claude-history", SessionID: session,
		Models: []string{"claude-sonnet-4-20250514"},
		Entries: []ingest.UsageEntry{{At: at(7, 0), Key: hashOf(msg + ":" + req), Message: hashOf(msg),
			Sidechain: sidechain, CacheRead: cacheRead, Output: output}}}
}

// hashOf stands in for ingest's FNV keys: any distinct non-zero numbers
// per name do.
func hashOf(s string) uint64 {
	var h uint64 = 14695981039346656037
	for i := range len(s) {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return max(h, 1)
}

// TestParentReplacesSidechainReplay transcribes ccusage's Rust loader
// tests (ryoppippi/ccusage 5816e640, rust/crates/ccusage/src/adapter/
// claude/mod.rs, MIT): a /btw sidechain replays the parent's message
// msg-parent under a request id of its own with 50,000 cache-read tokens.
// Whichever file comes first, the parent's usage (20 cache read, 10
// output) is kept and the replay dropped; a repeat of the parent's own
// message and request counts once; the sidechain's own answer counts.
func TestParentReplacesSidechainReplay(t *testing.T) {
	t.Parallel()
	parent := claudeCall("main", "msg-parent", "req-parent", false, 20, 10)
	replay := claudeCall("side", "msg-parent", "req-sidechain-replay", true, 50_000, 10)
	answer := claudeCall("side2", "msg-sidechain-answer", "req-sidechain-answer", true, 700, 30)
	parentAgain := claudeCall("main2", "msg-parent", "req-parent", false, 5, 5)
	for _, tc := range []struct {
		name  string
		files []File
		want  Totals
	}{
		// keeps_parent_usage_when_sidechain_replays_message_with_new_request_id
		{"parent first", []File{parent, replay, answer},
			Totals{OutputTokens: 40, CacheReadTokens: 720, TotalTokens: 760, Calls: 2}},
		// refreshes_dedupe_indexes_when_parent_replaces_sidechain_replay
		{"replay first", []File{replay, parent, parentAgain},
			Totals{OutputTokens: 10, CacheReadTokens: 20, TotalTokens: 30, Calls: 1}},
	} {
		rep := total(t, Options{By: ByModel}, tc.files...)
		got := rep.Totals
		got.CostUSD, got.UnpricedCalls = nil, 0
		if got != tc.want {
			t.Errorf("%s: totals %+v, want %+v", tc.name, got, tc.want)
		}
	}
	// Two sidechain replays of one message count once, the larger (ccusage:
	// should_replace_deduped_entry); main-chain calls of one message under
	// two request ids count apart.
	replay2 := claudeCall("side3", "msg-parent", "req-replay-2", true, 60_000, 10)
	other := claudeCall("main3", "msg-parent", "req-other", false, 1, 1)
	rep := total(t, Options{By: ByModel}, replay, replay2)
	if got := rep.Totals.TotalTokens; got != 60_010 {
		t.Errorf("two replays: %d tokens, want the larger, 60010", got)
	}
	rep = total(t, Options{By: ByModel}, parent, other, replay)
	if got := rep.Totals.TotalTokens; got != 30+2 {
		t.Errorf("two requests of a main-chain message and a replay: %d tokens, want 32", got)
	}
}
