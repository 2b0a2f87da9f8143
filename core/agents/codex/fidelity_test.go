package codex

import (
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// TestCodexRolloutFidelity pins two rollout shapes: messages written only
// as event_msg (agent_message, user_message: builds that wrote no
// response_item message) keep their text, once even when both forms are
// written; and the rollout Codex wrote before RolloutLine (a first line
// {"id","timestamp","instructions"}, then bare items and record_type
// markers) gets its session id.
func TestCodexRolloutFidelity(t *testing.T) {
	t.Parallel()
	meta := codexMeta("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "")
	onlyEvents := []string{meta,
		`{"timestamp":"2025-10-29T00:59:38.317Z","type":"event_msg","payload":{"type":"user_message","message":"what is 2+2? just give me the answer","kind":"plain"}}`,
		`{"timestamp":"2025-10-29T00:59:39.644Z","type":"event_msg","payload":{"type":"agent_message","message":"4"}}`,
	}
	both := append(onlyEvents[:len(onlyEvents):len(onlyEvents)],
		`{"timestamp":"2025-10-29T00:59:39.650Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"4"}]}}`)
	for name, lines := range map[string][]string{"only event_msg": onlyEvents, "both forms": both} {
		evs, _ := agentstest.ParseBytes(t, []byte(strings.Join(lines, "\n")+"\n"), agents.Options{Agent: agents.CodexHistory})
		var said []string
		for _, ev := range evs {
			if k := ev.Update.SessionUpdate; (k == event.UserMessageChunk || k == event.AgentMessageChunk) && ev.Update.Content != nil {
				said = append(said, string(k)+":"+ev.Update.Content.Text)
			}
		}
		want := "user_message_chunk:what is 2+2? just give me the answer|agent_message_chunk:4"
		if strings.Join(said, "|") != want {
			t.Errorf("%s: %q, want %q", name, said, want)
		}
	}
	legacy := strings.Join([]string{
		`{"id":"5973b6c0-94b8-487b-a530-2aeb6098ae0e","timestamp":"2025-06-12T18:47:05.125Z","instructions":null}`,
		`{"record_type":"state"}`,
		`{"type":"message","id":null,"role":"user","content":[{"type":"input_text","text":"list the files"}]}`,
		`{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Here they are."}]}`,
	}, "\n") + "\n"
	evs, _ := agentstest.ParseBytes(t, []byte(legacy), agents.Options{Agent: agents.CodexHistory})
	if len(evs) != 3 || evs[0].Update.SessionUpdate != event.SessionStart || evs[0].SessionID != "5973b6c0-94b8-487b-a530-2aeb6098ae0e" {
		t.Fatalf("older rollout: %d events, first %+v", len(evs), evs[0])
	}
	if evs[2].Update.SessionUpdate != event.AgentMessageChunk || evs[2].Update.Content.Text != "Here they are." {
		t.Errorf("older rollout's message: %+v", evs[2].Update)
	}
}
