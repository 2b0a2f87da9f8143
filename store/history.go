package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/summary"
)

// PhaseInteractive is the phase of sessions imported from an agent CLI's
// own history: a person worked with the agent, nobody ran it as a phase.
const PhaseInteractive = "interactive"

// HistoryRoot is a folder where one agent CLI keeps its sessions:
// Claude Code's <config>/projects, Codex's <home>/sessions, Gemini CLI's
// <home>/tmp.
type HistoryRoot struct {
	Agent agents.Kind
	Dir   string
}

// ImportHistory ingests the session files under the history roots, like
// Import, with the history's own layout: the work item is the project
// (Claude Code's project folder; the cwd a Codex rollout records and the
// root Gemini CLI's projects.json gives its folder, both spelled as Claude
// Code spells project folders), the phase is interactive, one session per
// file, a subagent's transcript linked to the call that started it. Each
// file's model calls are recorded for Usage. Unchanged files are skipped.
func (s *Store) ImportHistory(ctx context.Context, roots []HistoryRoot, opts ImportOptions, progress func(Progress)) (ImportResult, error) {
	return s.ImportCollected(ctx, CollectHistory(roots), opts, progress)
}

// History is the session files found under the history roots.
type History struct {
	start time.Time
	cands []candidate
	res   ImportResult
}

// CollectHistory finds the session files under the history roots, the
// first half of ImportHistory. It needs no store: `sift import --history`
// runs it while the store opens.
func CollectHistory(roots []HistoryRoot) *History {
	h := &History{start: time.Now()}
	parents := &parentCalls{byFile: map[string]map[string]string{}}
	for _, r := range roots {
		cs, fails := collectHistory(r, parents)
		h.cands = append(h.cands, cs...)
		h.res.Failed = append(h.res.Failed, fails...)
	}
	h.res.Files = len(h.cands)
	return h
}

// ImportCollected ingests the files CollectHistory found, the second half
// of ImportHistory; the import's time counts from the collection's start.
func (s *Store) ImportCollected(ctx context.Context, h *History, opts ImportOptions, progress func(Progress)) (ImportResult, error) {
	return s.importFiles(ctx, h.cands, h.res, opts, progress, h.start)
}

// collectHistory lists the session files of one history root. A missing
// root is no failure: that CLI is simply not installed. Symlinks are
// followed only within the root (walkRoot).
func collectHistory(r HistoryRoot, parents *parentCalls) ([]candidate, []Failure) {
	var out []candidate
	var fails []Failure
	root, err := filepath.Abs(r.Dir)
	if err != nil {
		root = r.Dir
	}
	if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	w, err := newWalkRoot(root)
	if err != nil {
		return nil, []Failure{{root, reason(err)}}
	}
	var projects map[string]string
	if r.Agent == agents.GeminiHistory {
		projects = geminiProjects(w.dir)
	}
	err = filepath.WalkDir(w.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			fails = append(fails, Failure{path, reason(err)})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		l, ok := historyLayout(r.Agent, w.dir, path)
		link := d.Type()&fs.ModeSymlink != 0
		if !ok && !link {
			return nil
		}
		rel, info, err := w.entry(path, d)
		switch {
		case err != nil && (ok || errors.Is(err, errLinkOutside) && linkToDir(path)):
			fails = append(fails, Failure{path, reason(err)})
			return nil
		case err != nil, !ok, !info.Mode().IsRegular():
			// A link to a folder inside is walked as itself.
			return nil
		}
		if cwd, ok := projects[l.WorkItemID]; ok {
			l.WorkItemID = ProjectID(cwd)
		}
		out = append(out, candidate{path: path, size: info.Size(), mtime: info.ModTime().UnixMilli(),
			layout: l, history: r.Agent, parents: parents, root: w.real, rel: rel})
		return nil
	})
	if err != nil {
		fails = append(fails, Failure{root, reason(err)})
	}
	return out, fails
}

// historyLayout names a history file's session, or reports that the file
// is not one. The work item of a Codex rollout is its recorded cwd, known
// only once read; until then it is "codex".
func historyLayout(agent agents.Kind, root, path string) (fileLayout, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return fileLayout{}, false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	name := parts[len(parts)-1]
	l := fileLayout{Phase: PhaseInteractive, FileName: name}
	switch agent {
	case agents.ClaudeHistory:
		// <project>/<session>.jsonl, <project>/<session>/subagents/agent-<id>.jsonl
		if !strings.HasSuffix(name, ".jsonl") || len(parts) < 2 {
			return l, false
		}
		l.WorkItemID = parts[0]
		if len(parts) == 4 && parts[2] == "subagents" {
			l.FileName = parts[1] + "." + name
		} else if len(parts) != 2 {
			return l, false
		}
	case agents.CodexHistory:
		// YYYY/MM/DD/rollout-*.jsonl
		if !strings.HasPrefix(name, "rollout-") || !strings.HasSuffix(name, ".jsonl") {
			return l, false
		}
		l.WorkItemID = "codex"
	case agents.GeminiHistory:
		// <project>/chats/session-*.json(l), and a subagent's chat
		// <project>/chats/<parent session>/<session>.jsonl.
		if len(parts) < 3 || len(parts) > 4 || parts[1] != "chats" ||
			!(strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".json")) {
			return l, false
		}
		l.WorkItemID = parts[0]
		if len(parts) == 4 {
			l.FileName = parts[2] + "." + name
		}
	default:
		return l, false
	}
	return l, true
}

// geminiProjects maps Gemini CLI's project folders under tmp to the
// project roots they stand for: ~/.gemini/projects.json ({"projects":
// {root: folder}}) and a folder's own .project_root file. Older Gemini CLI
// named the folder by a hash of the root, which no file maps back: those
// stay by their hash.
func geminiProjects(root string) map[string]string {
	out := map[string]string{}
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(root), "projects.json")); err == nil {
		var pj struct {
			Projects map[string]string `json:"projects"`
		}
		if json.Unmarshal(b, &pj) == nil {
			for path, slug := range pj.Projects {
				out[slug] = path
			}
		}
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(root, e.Name(), ".project_root")); err == nil {
			if p := strings.TrimSpace(string(b)); p != "" {
				out[e.Name()] = p
			}
		}
	}
	return out
}

// sniffedLayout is the history layout of a file found by its shape rather
// than under a history root: the root is inferred from the CLI's folder
// structure around the file. A file outside that structure keeps its
// folder as work item, with the interactive phase.
func sniffedLayout(kind agents.Kind, path string, l fileLayout) fileLayout {
	up := func(p string, n int) string {
		for range n {
			p = filepath.Dir(p)
		}
		return p
	}
	dir := filepath.Base(filepath.Dir(path))
	var root string
	switch kind {
	case agents.ClaudeHistory:
		root = up(path, 2)
		if dir == "subagents" {
			root = up(path, 4)
		}
	case agents.CodexHistory:
		root = up(path, 1)
	case agents.GeminiHistory:
		root = up(path, 3)
		if dir != "chats" {
			root = up(path, 4)
		}
	}
	if hl, ok := historyLayout(kind, root, path); ok {
		if kind == agents.GeminiHistory {
			if cwd, ok := geminiProjects(root)[hl.WorkItemID]; ok {
				hl.WorkItemID = ProjectID(cwd)
			}
		}
		return hl
	}
	l.Phase, l.Iteration = PhaseInteractive, nil
	return l
}

// ProjectID spells a working directory as Claude Code names its project
// folders (every character but ASCII letters and digits becomes a dash),
// so that one project's Claude, Codex and Gemini sessions share a work
// item.
func ProjectID(cwd string) string {
	b := []byte(cwd)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

// historyKinds are the formats whose files carry usage to account.
func isHistoryKind(k agents.Kind) bool {
	return k == agents.ClaudeHistory || k == agents.CodexHistory || k == agents.GeminiHistory
}

// sniffHistory reports the history format of a file from its first bytes,
// or "" when it is none (or not sure). The head may end inside a long
// first line (a Codex session_meta carries the whole system prompt): the
// history formats name their distinctive keys first, so that part is asked
// too.
func sniffHistory(head []byte) agents.Kind {
	reg := agents.Default()
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		k := reg.Sniff([][]byte{line})
		if isHistoryKind(k) {
			return k
		}
		if k != agents.Unknown {
			return ""
		}
	}
	return ""
}

// summarizeHistory summarizes one history file and collects its usage in
// the same pass.
func (s *Store) summarizeHistory(f *os.File, c candidate, kind agents.Kind, opt summary.Options, br *bufio.Reader) (*sessionRow, error) {
	opt.Agent = kind
	b := summary.NewBuilder(opt)
	u := &usageFile{}
	var cwd string
	if kind == agents.ClaudeHistory {
		u.parentCall = c.parents.lookup(c)
	}
	br.Reset(f)
	var rd io.Reader = br
	if kind == agents.GeminiHistory && strings.HasSuffix(c.path, ".json") {
		// The older Gemini CLI wrote one JSON document per session.
		doc, err := io.ReadAll(f)
		if err != nil {
			return nil, errors.New(reason(err))
		}
		lines, err := agents.GeminiLegacyLines(doc)
		if err != nil {
			return nil, fmt.Errorf("gemini session document: %w", err)
		}
		rd = bytes.NewReader(lines)
	}
	// The events are lent (Borrow): the builder and the usage copy what
	// they keep.
	st, err := agents.Default().Parse(rd, agents.Options{Agent: kind, Borrow: true}, func(ev *event.Event) {
		u.add(ev)
		if cwd == "" && ev.Update.SessionUpdate == event.SessionStart {
			cwd = strings.Clone(ev.Update.Cwd)
		}
		if u.parentCall != "" && ev.ParentToolCallID == "" {
			ev.ParentToolCallID = u.parentCall
		}
		b.Add(ev)
	})
	if err != nil {
		return nil, err
	}
	sum, rev := b.FinishEvents(st)
	l := c.layout
	if c.history == "" {
		// Recognised by shape (`sift import FILE`, a rebuild): the
		// layout is read from where the file lies.
		l = sniffedLayout(kind, c.path, l)
	}
	sum.WorkItemID, sum.FileName, sum.Phase, sum.Iteration = l.WorkItemID, l.FileName, l.Phase, l.Iteration
	if kind == agents.CodexHistory && cwd != "" {
		// Gemini CLI records no cwd: its project is its folder.
		sum.WorkItemID = ProjectID(cwd)
	}
	row, err := newSessionRow(c, sum, rev)
	if err != nil {
		return nil, err
	}
	row.usage = u
	return row, nil
}

// parentCalls links Claude Code subagent transcripts to the Task calls that
// started them. A subagent's transcript is
// <session>/subagents/agent-<id>.jsonl; the parent <session>.jsonl names
// agent <id> in the data.agentId of its agent_progress lines, whose
// parentToolUseID is the call. Each parent is read once per import, by the
// first of its subagents to be summarized.
type parentCalls struct {
	mu     sync.Mutex
	byFile map[string]map[string]string // parent path → agent id → call id
}

// lookup returns the call that started the subagent whose transcript is at
// path, or "" when path is no subagent transcript or nothing links it. A
// nil cache reads the parent every time.
func (p *parentCalls) lookup(c candidate) string {
	dir := filepath.Dir(c.path)
	if filepath.Base(dir) != "subagents" {
		return ""
	}
	id, ok := strings.CutPrefix(strings.TrimSuffix(filepath.Base(c.path), ".jsonl"), "agent-")
	if !ok || id == "" {
		return ""
	}
	// The parent transcript is opened as the file itself is: within the
	// folder walked, when it was found by a walk.
	parent := candidate{path: filepath.Dir(dir) + ".jsonl", root: c.root}
	if c.root != "" {
		parent.rel = filepath.Dir(filepath.Dir(c.rel)) + ".jsonl"
	}
	if p == nil {
		return agentCalls(parent)[id]
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	calls, ok := p.byFile[parent.path]
	if !ok {
		calls = agentCalls(parent)
		p.byFile[parent.path] = calls
	}
	return calls[id]
}

// agentCalls reads a parent transcript's agent_progress lines: agent id →
// Task call id.
func agentCalls(parent candidate) map[string]string {
	out := map[string]string{}
	f, err := openCandidate(parent)
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

// pastEventsTier reports whether a session is past the review-events tier
// of retention r (by default 48 h, 30 days when flagged): its review events
// would be swept as soon as written, so an import (of history files above
// all, whose sessions are mostly old) does not build or write them. The
// summary, turns and tool calls are kept; the detail is re-read from the
// file on demand.
func pastEventsTier(sum *summary.Summary, c candidate, now time.Time, r Retention) bool {
	act := time.UnixMilli(c.mtime)
	if t := sum.EndedAt; t != nil && !t.IsZero() {
		act = *t
	} else if t := sum.StartedAt; t != nil && !t.IsZero() {
		act = *t
	}
	r = r.withDefaults()
	age := now.Sub(act)
	return age > r.FullEventsFor && (age > r.FlaggedFor || !sum.Flagged)
}
