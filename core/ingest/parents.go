package ingest

import (
	"bufio"
	"bytes"
	"path/filepath"
	"strings"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// parentCalls links Claude Code subagent transcripts to their parents. A
// subagent's transcript is <session>/subagents/agent-<id>.jsonl; the
// parent <session>.jsonl names agent <id> in the data.agentId of its
// agent_progress lines, whose parentToolUseID is the call that started it,
// and records the messages its main chain counted, whose replay by the
// subagent counts not (parent.replays). Each parent is read once per
// import, by the first of its subagents to be read.
type parentCalls struct {
	mu     sync.Mutex
	byFile map[string]*parent // parent path → what it records
}

// parent is what a subagent's transcript needs of its parent's.
type parent struct {
	// calls maps an agent id to the Task call that started it.
	calls map[string]string
	// counted holds the message ids whose usage the main chain records
	// under a request id: the calls the parent's row counts.
	counted map[string]struct{}
}

// lookup returns what the parent transcript of f records, and the call
// that started the subagent whose transcript f is ("" when nothing links
// it); nil and "" when f is no subagent transcript. A nil cache reads the
// parent every time.
func (p *parentCalls) lookup(f *File) (*parent, string) {
	dir := filepath.Dir(f.Path)
	if filepath.Base(dir) != "subagents" {
		return nil, ""
	}
	id, ok := strings.CutPrefix(strings.TrimSuffix(filepath.Base(f.Path), ".jsonl"), "agent-")
	if !ok || id == "" {
		return nil, ""
	}
	// The parent transcript is opened as the file itself is: within the
	// folder walked, when it was found by a walk.
	pf := File{Path: filepath.Dir(dir) + ".jsonl", root: f.root}
	if f.root != nil {
		pf.rel = filepath.Dir(filepath.Dir(f.rel)) + ".jsonl"
	}
	if p == nil {
		par := readParent(&pf)
		return par, par.calls[id]
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	par, ok := p.byFile[pf.Path]
	if !ok {
		par = readParent(&pf)
		p.byFile[pf.Path] = par
	}
	return par, par.calls[id]
}

// replays reports a subagent's usage event that replays a message its
// parent's main chain counted: a sidechain can replay a message of its
// main chain under a request id of its own, and the message counts once,
// as the main chain's (ccusage's rule, which usage.Total applies across
// files and the Claude Code parser within one). Dropped before the summary
// and the usage hear it, the replay is counted by neither the inbox nor
// `sift usage`. A nil parent reports none.
func (p *parent) replays(ev *event.Event) bool {
	if p == nil || len(p.counted) == 0 || ev.MessageID == "" ||
		ev.Update.SessionUpdate != event.Usage || ev.Update.Scope != event.ScopeCall {
		return false
	}
	if side, _ := ev.Extra["isSidechain"].(bool); !side {
		return false
	}
	_, ok := p.counted[ev.MessageID]
	return ok
}

// readParent reads a parent transcript's agent_progress lines (agent id →
// Task call id) and its main chain's calls (mainCall). A parent that
// cannot be read records nothing.
func readParent(pf *File) *parent {
	out := &parent{calls: map[string]string{}, counted: map[string]struct{}{}}
	f, err := pf.open()
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), agents.DefaultMaxLine)
	for sc.Scan() {
		line := sc.Bytes()
		if bytes.Contains(line, []byte(`"agent_progress"`)) {
			id, call := jsonStringField(line, `"agentId":"`), jsonStringField(line, `"parentToolUseID":"`)
			if _, seen := out.calls[id]; id != "" && call != "" && !seen {
				out.calls[id] = call
			}
			continue
		}
		if id := mainCall(line); id != "" {
			out.counted[id] = struct{}{}
		}
	}
	return out
}

// mainCall returns the message id of a transcript line that records a
// main-chain call's usage under a request id (as the parser keys the
// calls it counts: claudeStream.firstUsage), "" for any other line.
//
// The line is read as Claude Code writes it, the flags before the message
// and the message's id before its content: the bytes tell without decoding
// the content, which is most of a transcript. A line of another shape is
// decoded.
func mainCall(line []byte) string {
	if !bytes.Contains(line, []byte(`"usage":{`)) || !bytes.Contains(line, []byte(`"requestId":"`)) {
		return ""
	}
	if m := bytes.Index(line, []byte(`"message":{`)); m >= 0 && bytes.Contains(line[:m], []byte(`"isSidechain":`)) {
		if bytes.Contains(line[:m], []byte(`"isSidechain":true`)) {
			return ""
		}
		msg := line[m:]
		id, content := bytes.Index(msg, []byte(`"id":"`)), bytes.Index(msg, []byte(`"content":`))
		if id >= 0 && (content < 0 || id < content) && jsonStringField(line, `"requestId":"`) != "" {
			return jsonStringField(msg, `"id":"`)
		}
	}
	var l struct {
		IsSidechain bool   `json:"isSidechain"`
		RequestID   string `json:"requestId"`
		Message     struct {
			ID    string    `json:"id"`
			Usage *struct{} `json:"usage"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &l) != nil || l.IsSidechain || l.RequestID == "" || l.Message.Usage == nil {
		return ""
	}
	return l.Message.ID
}

// jsonStringField returns the value of the first `"key":"value"` in a
// line, when it has no escapes.
func jsonStringField(line []byte, key string) string {
	i := bytes.Index(line, []byte(key))
	if i < 0 {
		return ""
	}
	rest := line[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 || bytes.IndexByte(rest[:j], '\\') >= 0 {
		return ""
	}
	return string(rest[:j])
}
