package antigravity

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// agyVocabularyLog is agy 1.0.16's recorded step log
// (testdata/histories/antigravity/PROVENANCE.md): compact, its lines out
// of step order.
var agyVocabularyLog = agentstest.RecordedHistories + "/antigravity/.gemini/antigravity-cli/brain/" +
	"7c1e9a52-0d3f-4b8e-9a61-2f5d8c4b7e10/.system_generated/logs/transcript.jsonl"

// TestAntigravityHistoryDirs: the brain folders of the IDE's and the CLI's
// app data folders, under ~/.gemini on Linux and macOS alike.
func TestAntigravityHistoryDirs(t *testing.T) {
	t.Parallel()
	home := filepath.FromSlash("/home/u")
	want := []string{filepath.FromSlash("/home/u/.gemini/antigravity/brain"),
		filepath.FromSlash("/home/u/.gemini/antigravity-cli/brain"), filepath.FromSlash("/home/u/.gemini/antigravity-ide/brain")}
	if got := antigravityHistoryDirs(func(string) string { return "" }, home); !slices.Equal(got, want) {
		t.Errorf("dirs %v, want %v", got, want)
	}
	if got := antigravityHistoryDirs(func(string) string { return "" }, ""); got != nil {
		t.Errorf("no home: %v", got)
	}
}

// agyConversation lays out a conversation folder under a brain folder with
// the given copies of its step log (paths relative to its logs folder).
func agyConversation(t *testing.T, brain, id string, copies map[string][]byte) string {
	t.Helper()
	conv := filepath.Join(brain, id)
	for name, b := range copies {
		p := filepath.Join(conv, filepath.FromSlash(antigravityLogs), filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return conv
}

// agyFull is the full copy of a compact log, as agy writes it beside the
// compact one: each argument in its own JSON type (Switchboard's
// paths.rs). It is built from the compact copy by decoding each argument
// one level; clipped arguments are none in the 1.0.16 log.
func agyFull(t *testing.T, compact []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	for line := range bytes.SplitSeq(bytes.TrimSpace(compact), []byte{'\n'}) {
		var step map[string]json.RawMessage
		if err := json.Unmarshal(line, &step); err != nil {
			t.Fatal(err)
		}
		if calls, ok := step["tool_calls"]; ok {
			var cs []struct {
				Name string                     `json:"name"`
				Args map[string]json.RawMessage `json:"args"`
			}
			if err := json.Unmarshal(calls, &cs); err != nil {
				t.Fatal(err)
			}
			for _, c := range cs {
				for k, v := range c.Args {
					var text string
					if err := json.Unmarshal(v, &text); err != nil || !json.Valid([]byte(text)) {
						t.Fatalf("argument %s: %s is no JSON text", k, v)
					}
					c.Args[k] = json.RawMessage(text)
				}
			}
			step["tool_calls"], _ = json.Marshal(cs)
		}
		b, _ := json.Marshal(step)
		out.Write(b)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// agyCallInputs parses a conversation's render and returns each tool
// call's id and input, with the render's first line.
func agyCallInputs(t *testing.T, lines []byte) (head string, inputs map[string]string) {
	t.Helper()
	head, _, _ = strings.Cut(string(lines), "\n")
	evs, _ := agentstest.ParseBytes(t, lines, agents.Options{Agent: agents.AntigravityHistory})
	inputs = map[string]string{}
	for _, ev := range evs {
		if ev.Update.SessionUpdate == event.ToolCall {
			var v any
			if err := json.Unmarshal(ev.Update.RawInput, &v); err != nil {
				t.Fatalf("call %s: input %s: %v", ev.Update.ToolCallID, ev.Update.RawInput, err)
			}
			b, _ := json.Marshal(v)
			inputs[ev.Update.ToolCallID] = string(b)
		}
	}
	return head, inputs
}

// TestAntigravityLogCopies: a conversation is read from the most complete
// copy of its step log, the full one on a tie; its arguments read the same
// from either (the compact copy's JSON texts decoded); the pieces of a
// chunks folder, cut mid-line, read as the file they were cut from; and
// the change token grows with any copy.
func TestAntigravityLogCopies(t *testing.T) {
	t.Parallel()
	compact := agentstest.MustRead(t, agyVocabularyLog)
	full := agyFull(t, compact)
	brain := filepath.Join(t.TempDir(), "brain")

	conv := agyConversation(t, brain, "compact", map[string][]byte{"transcript.jsonl": compact})
	lines, err := antigravityLines(conv, nil)
	if err != nil {
		t.Fatal(err)
	}
	head, fromCompact := agyCallInputs(t, lines)
	if !strings.Contains(head, `"source":"transcript.jsonl"`) || !strings.Contains(head, `"compactArgs":true`) {
		t.Errorf("compact alone: %s", head)
	}
	if len(fromCompact) != 6 || fromCompact["26.0"] != `{"AllowMultiple":false,"Description":"Change foo to bar","EndLine":1,`+
		`"Instruction":"Change foo to bar","ReplacementContent":"bar","StartLine":1,"TargetContent":"foo",`+
		`"TargetFile":"/tmp/facet-probe/scratch/alpha.txt","toolAction":"Replacing foo with bar","toolSummary":"Modify alpha.txt"}` {
		t.Errorf("compact arguments %v", fromCompact)
	}

	// A full copy that lags behind the compact one is not read yet.
	lag := full[:bytes.Index(full, []byte(`"step_index":30`))]
	conv = agyConversation(t, brain, "lagging", map[string][]byte{"transcript.jsonl": compact, "transcript_full.jsonl": lag})
	if lines, err = antigravityLines(conv, nil); err != nil {
		t.Fatal(err)
	}
	if head, _ := agyCallInputs(t, lines); !strings.Contains(head, `"source":"transcript.jsonl"`) {
		t.Errorf("a lagging full copy was read: %s", head)
	}

	conv = agyConversation(t, brain, "full", map[string][]byte{"transcript.jsonl": compact, "transcript_full.jsonl": full})
	if lines, err = antigravityLines(conv, nil); err != nil {
		t.Fatal(err)
	}
	head, fromFull := agyCallInputs(t, lines)
	if !strings.Contains(head, `"source":"transcript_full.jsonl"`) || !strings.Contains(head, `"compactArgs":false`) {
		t.Errorf("full beside compact: %s", head)
	}
	if !maps.Equal(fromFull, fromCompact) {
		t.Errorf("arguments differ:\nfull    %v\ncompact %v", fromFull, fromCompact)
	}

	// Chunks alone: three pieces, each cut in the middle of a line.
	cut1, cut2 := len(full)/3, 2*len(full)/3
	conv = agyConversation(t, brain, "chunks", map[string][]byte{"chunks/transcript_full/00000000.jsonl": full[:cut1],
		"chunks/transcript_full/00000001.jsonl": full[cut1:cut2], "chunks/transcript_full/00000002.jsonl": full[cut2:]})
	chunked, err := antigravityLines(conv, nil)
	if err != nil {
		t.Fatal(err)
	}
	head, fromChunks := agyCallInputs(t, chunked)
	if !strings.Contains(head, `"source":"chunks/transcript_full"`) || !maps.Equal(fromChunks, fromFull) {
		t.Errorf("chunks: %s, calls %v", head, fromChunks)
	}
	_, body, _ := bytes.Cut(chunked, []byte{'\n'})
	_, want, _ := bytes.Cut(lines, []byte{'\n'})
	if !bytes.Equal(body, want) {
		t.Errorf("the joined pieces' steps differ from the file's:\n%s\nwant\n%s", body, want)
	}

	// A flat file behind its pieces is not read; level with them, it is.
	for flat, want := range map[string]string{string(lag): "chunks/transcript_full", string(full): "transcript_full.jsonl"} {
		both := agyConversation(t, brain, "both-"+strconv.Itoa(len(flat)), map[string][]byte{"transcript_full.jsonl": []byte(flat),
			"chunks/transcript_full/00000000.jsonl": full[:cut1], "chunks/transcript_full/00000001.jsonl": full[cut1:]})
		b, err := antigravityLines(both, nil)
		if err != nil {
			t.Fatal(err)
		}
		if head, _ := agyCallInputs(t, b); !strings.Contains(head, `"source":"`+want+`"`) {
			t.Errorf("flat file of %d bytes beside pieces of %d: %s, want %s", len(flat), len(full), head, want)
		}
	}

	size, _, ok := antigravityToken(conv)
	if !ok || size != int64(len(full)) {
		t.Errorf("token size %d (%v), want %d", size, ok, len(full))
	}
}

// TestAntigravityConversationsAndProjects lists the conversations of an
// IDE's brain folder: a folder without a step log is none, the project is
// the workspace history.jsonl records for the conversation, else the first
// absolute folder a command ran in outside Antigravity's own.
func TestAntigravityConversationsAndProjects(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), ".gemini", "antigravity-ide")
	brain := filepath.Join(root, "brain")
	marker := agentstest.MustRead(t, filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(agyVocabularyLog)))),
		"1343c404-84be-4274-af97-5e7aa173da4f", ".system_generated", "logs", "transcript.jsonl"))
	agyConversation(t, brain, "marker", map[string][]byte{"transcript.jsonl": marker})
	agyConversation(t, brain, "vocabulary", map[string][]byte{"transcript.jsonl": agentstest.MustRead(t, agyVocabularyLog)})
	if err := os.MkdirAll(filepath.Join(brain, "tempmediaStorage"), 0o755); err != nil {
		t.Fatal(err)
	}
	history := `{"display":"read alpha.txt","timestamp":1783727331000,"workspace":"/tmp/facet-probe","conversationId":"vocabulary"}` + "\n"
	if err := os.WriteFile(filepath.Join(root, "history.jsonl"), []byte(history), 0o644); err != nil {
		t.Fatal(err)
	}
	ss, done, err := antigravityConversations(brain)
	if err != nil || done != nil {
		t.Fatalf("%v, done %v", err, done != nil)
	}
	got := map[string]string{}
	for _, s := range ss {
		lines, err := s.Lines()
		if err != nil {
			t.Fatal(err)
		}
		var head struct {
			Conversation struct{ Cwd string } `json:"conversation"`
		}
		first, _, _ := bytes.Cut(lines, []byte{'\n'})
		if err := json.Unmarshal(first, &head); err != nil {
			t.Fatal(err)
		}
		got[s.ID] = s.Project + " | " + head.Conversation.Cwd
		if again, ok, err := antigravityRender(s.Key); !ok || err != nil || !bytes.Equal(again, lines) {
			t.Errorf("%s: render again: ok %v, %v", s.Key, ok, err)
		}
	}
	want := map[string]string{"marker": " | /tmp/agy-probe", "vocabulary": "/tmp/facet-probe | /tmp/facet-probe"}
	if !maps.Equal(got, want) {
		t.Errorf("conversations %v, want %v", got, want)
	}
	if _, ok, _ := antigravityRender(agents.StoredKey(filepath.Join(t.TempDir(), "tasks", "x"), "x")); ok {
		t.Error("a key outside a brain folder is rendered")
	}
}

// agyParse parses rendered lines: the conversation line, then steps.
func agyParse(t *testing.T, steps ...string) []*event.Event {
	t.Helper()
	data := `{"conversation":{"id":"c","cwd":"","compactArgs":true}}` + "\n" + strings.Join(steps, "\n") + "\n"
	evs, _ := agentstest.ParseBytes(t, []byte(data), agents.Options{Agent: agents.AntigravityHistory})
	return evs
}

// TestAntigravityHistoryEnds pins how a conversation's log ends: on a
// reply it completed; on an error that answers no call it failed; on a
// call without its result it is not known. A call still without a result
// when the model plans again was refused (agy 1.1.19 logs nothing for
// it). The prompt is the <USER_REQUEST> alone; the model is the one the
// settings change names, from the step that names it on.
func TestAntigravityHistoryEnds(t *testing.T) {
	t.Parallel()
	const (
		prompt = `{"step_index":0,"source":"USER_EXPLICIT","type":"USER_INPUT","status":"DONE","created_at":"2026-08-23T10:00:00Z",` +
			`"content":"<USER_REQUEST>\nread a.txt\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is: now.\n</ADDITIONAL_METADATA>\n` +
			`<USER_SETTINGS_CHANGE>\nThe user changed setting ` + "`Model Selection`" + ` from None to Gemini 3.5 Flash (Low). No need to comment.\n</USER_SETTINGS_CHANGE>"}`
		call = `{"step_index":2,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-08-23T10:00:01Z",` +
			`"tool_calls":[{"name":"view_file","args":{"AbsolutePath":"\"/w/a.txt\""}}]}`
		reply = `{"step_index":4,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-08-23T10:00:03Z","content":"ack"}`
		fail  = `{"step_index":5,"source":"SYSTEM","type":"ERROR_MESSAGE","status":"DONE","created_at":"2026-08-23T10:00:04Z",` +
			`"error":"RESOURCE_EXHAUSTED (code 429): Individual quota reached."}`
	)
	result := func(evs []*event.Event) *event.Update {
		for _, ev := range evs {
			if ev.Update.SessionUpdate == event.Result {
				return &ev.Update
			}
		}
		return nil
	}
	evs := agyParse(t, prompt, call, reply)
	if r := result(evs); r == nil || *r.IsError || r.Text != "ack" {
		t.Errorf("ends on a reply: result %+v", r)
	}
	var refused *event.Update
	for _, ev := range evs {
		u := &ev.Update
		switch {
		case u.SessionUpdate == event.UserMessageChunk && u.Content.Text != "read a.txt":
			t.Errorf("prompt %q", u.Content.Text)
		case u.SessionUpdate == event.AgentMessageChunk && ev.Model != "Gemini 3.5 Flash (Low)":
			t.Errorf("model %q", ev.Model)
		case u.SessionUpdate == event.ToolCallUpdate:
			refused = u
		}
	}
	if refused == nil || refused.ToolCallID != "2.0" || refused.Status != event.StatusFailed {
		t.Errorf("the call without a result before the next plan: %+v", refused)
	}
	if r := result(agyParse(t, prompt, call, reply, fail)); r == nil || !*r.IsError || !strings.Contains(r.Text, "RESOURCE_EXHAUSTED") {
		t.Errorf("ends on an error: result %+v", r)
	}
	if r := result(agyParse(t, prompt, call)); r != nil {
		t.Errorf("ends on a call: result %+v", r)
	}
	plain := `{"step_index":0,"source":"USER_EXPLICIT","type":"USER_INPUT","status":"DONE","content":"  hello  "}`
	for _, ev := range agyParse(t, plain) {
		if ev.Update.SessionUpdate == event.UserMessageChunk && ev.Update.Content.Text != "hello" {
			t.Errorf("unwrapped prompt %q", ev.Update.Content.Text)
		}
	}
}

// FuzzAntigravityHistory fuzzes the parser of rendered conversations,
// seeded with the renders of the recorded ones and each of their lines:
// no input makes it fail or panic, and every line with text gives an
// event.
func FuzzAntigravityHistory(f *testing.F) {
	brain := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(agyVocabularyLog))))
	ss, _, err := antigravityConversations(brain)
	if err != nil || len(ss) != 3 {
		f.Fatalf("%d recorded conversations, %v", len(ss), err)
	}
	var renders [][]byte
	for _, s := range ss {
		b, err := s.Lines()
		if err != nil {
			f.Fatal(err)
		}
		renders = append(renders, b)
	}
	agentstest.AddSeeds(f, renders)
	agentstest.FuzzEveryLine(f, agents.AntigravityHistory)
}
