package ingest

import (
	"bufio"
	"bytes"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agentsift/sift/core/agents"
)

// parentCalls links Claude Code subagent transcripts to the Task calls that
// started them. A subagent's transcript is
// <session>/subagents/agent-<id>.jsonl; the parent <session>.jsonl names
// agent <id> in the data.agentId of its agent_progress lines, whose
// parentToolUseID is the call. Each parent is read once per import, by the
// first of its subagents to be read.
type parentCalls struct {
	mu     sync.Mutex
	byFile map[string]map[string]string // parent path → agent id → call id
}

// lookup returns the call that started the subagent whose transcript f
// is, or "" when f is no subagent transcript or nothing links it. A nil
// cache reads the parent every time.
func (p *parentCalls) lookup(f *File) string {
	dir := filepath.Dir(f.Path)
	if filepath.Base(dir) != "subagents" {
		return ""
	}
	id, ok := strings.CutPrefix(strings.TrimSuffix(filepath.Base(f.Path), ".jsonl"), "agent-")
	if !ok || id == "" {
		return ""
	}
	// The parent transcript is opened as the file itself is: within the
	// folder walked, when it was found by a walk.
	parent := File{Path: filepath.Dir(dir) + ".jsonl", root: f.root}
	if f.root != nil {
		parent.rel = filepath.Dir(filepath.Dir(f.rel)) + ".jsonl"
	}
	if p == nil {
		return agentCalls(&parent)[id]
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	calls, ok := p.byFile[parent.Path]
	if !ok {
		calls = agentCalls(&parent)
		p.byFile[parent.Path] = calls
	}
	return calls[id]
}

// agentCalls reads a parent transcript's agent_progress lines: agent id →
// Task call id.
func agentCalls(parent *File) map[string]string {
	out := map[string]string{}
	f, err := parent.open()
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), agents.DefaultMaxLine)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.Contains(line, []byte(`"agent_progress"`)) {
			continue
		}
		id, call := jsonStringField(line, `"agentId":"`), jsonStringField(line, `"parentToolUseID":"`)
		if _, seen := out[id]; id != "" && call != "" && !seen {
			out[id] = call
		}
	}
	return out
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
