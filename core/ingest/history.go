package ingest

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentsift/sift/core/agents"
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

// FindHistory finds the session files under the history roots, with the
// history's own layout: the work item is the project (Claude Code's
// project folder; the cwd a Codex rollout records and the root Gemini
// CLI's projects.json gives its folder, both spelled as Claude Code spells
// project folders), the phase is interactive, one session per file, a
// subagent's transcript linked to the call that started it. It needs no
// store: `sift import --history` runs it while the store opens.
func FindHistory(roots []HistoryRoot) *Found {
	out := &Found{start: time.Now(), source: SourceHistory}
	for _, r := range roots {
		out.roots = append(out.roots, absPath(r.Dir))
	}
	parents := &parentCalls{byFile: map[string]*parent{}}
	for _, r := range roots {
		files, fails := findHistory(r, parents, out)
		out.Files = append(out.Files, files...)
		out.Failed = append(out.Failed, fails...)
		if len(files) > 0 || len(fails) > 0 || exists(r.Dir) {
			c := out.history(r.Agent)
			c.Dirs = append(c.Dirs, absPath(r.Dir))
			c.Found += len(files)
			c.Failed += len(fails)
		}
	}
	return out
}

// Merge adds to a find of the histories another one's (the roots a
// store's project folders add once it is open): its files, failures and
// counts, and what it keeps open.
func (f *Found) Merge(g *Found) {
	f.Files = append(f.Files, g.Files...)
	f.Failed = append(f.Failed, g.Failed...)
	f.Ignored += g.Ignored
	f.roots = append(f.roots, g.roots...)
	f.done = append(f.done, g.done...)
	for path, d := range g.folders {
		if f.folders[path] != nil {
			d.close() // read through f's own
			continue
		}
		if f.folders == nil {
			f.folders = map[string]*folder{}
		}
		f.folders[path] = d
	}
	for _, h := range g.histories {
		c := f.history(h.Agent)
		c.Dirs = append(c.Dirs, h.Dirs...)
		c.Found += h.Found
		c.Failed += h.Failed
	}
}

// HistoryCount is what an import of the histories met of one harness's:
// the folders of its that exist, its sessions found there, and of those
// the ones imported, unchanged since the last import and failed. A
// folder's failure to list counts as failed too.
type HistoryCount struct {
	Agent                              agents.Kind
	Dirs                               []string
	Found, Imported, Unchanged, Failed int
}

// history returns the count of a history's, added in the order of the
// roots the first time it is asked for.
func (f *Found) history(k agents.Kind) *HistoryCount {
	for i := range f.histories {
		if f.histories[i].Agent == k {
			return &f.histories[i]
		}
	}
	f.histories = append(f.histories, HistoryCount{Agent: k})
	return &f.histories[len(f.histories)-1]
}

// exists reports whether a path exists (a folder sift may not read still
// does).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// findHistory lists the session files of one history root. A missing
// root is no failure: that CLI is simply not installed. Symlinks are
// followed only within the root (walkRoot).
func findHistory(r HistoryRoot, parents *parentCalls, found *Found) ([]File, []Failure) {
	var out []File
	var fails []Failure
	root, err := filepath.Abs(r.Dir)
	if err != nil {
		root = r.Dir
	}
	if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if h, ok := agents.LookupHistory(r.Agent); ok && h.Sessions != nil {
		return storedSessions(r.Agent, root, h, found)
	}
	w, err := newWalkRoot(root)
	if err != nil {
		return nil, []Failure{{root, reason(err)}}
	}
	var projects map[string]string
	if h, ok := agents.LookupHistory(r.Agent); ok && h.Projects != nil {
		projects = h.Projects(w.dir)
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
		cwd, ok := projects[l.WorkItemID]
		if ok {
			l.WorkItemID = ProjectID(cwd)
		}
		out = append(out, File{Path: path, Size: info.Size(), MTime: info.ModTime().UnixMilli(),
			Layout: l, history: r.Agent, parents: parents, root: found.folder(w.real), rel: rel, project: cwd})
		return nil
	})
	if err != nil {
		fails = append(fails, Failure{root, reason(err)})
	}
	return out, fails
}

// historyLayout names a history file's session, as its harness's entry
// reads its path under the root (agents.History.Session), or reports that
// the file is not one.
func historyLayout(agent agents.Kind, root, path string) (Layout, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return Layout{}, false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	l := Layout{Phase: PhaseInteractive, FileName: parts[len(parts)-1]}
	h, ok := agents.LookupHistory(agent)
	if !ok {
		return l, false
	}
	l.WorkItemID, l.FileName, ok = h.Session(parts)
	return l, ok
}

// sniffedLayout is the history layout of a file found by its shape rather
// than under a history root, with the folder its project stands for when
// the harness records that outside the session: the root is inferred from
// the CLI's folder structure around the file. A file outside that
// structure keeps its folder as work item, with the interactive phase.
func sniffedLayout(kind agents.Kind, path string, l Layout) (Layout, string) {
	if h, ok := agents.LookupHistory(kind); ok {
		root := h.Root(path)
		if hl, ok := historyLayout(kind, root, path); ok {
			var cwd string
			if h.Projects != nil {
				if cwd, ok = h.Projects(root)[hl.WorkItemID]; ok {
					hl.WorkItemID = ProjectID(cwd)
				}
			}
			return hl, cwd
		}
	}
	l.Phase, l.Iteration = PhaseInteractive, nil
	return l, ""
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

// isHistoryKind reports whether a format is an agent CLI's own history:
// its files carry the usage Usage accounts.
func isHistoryKind(k agents.Kind) bool {
	_, ok := agents.LookupHistory(k)
	return ok
}

// sniffHistory reports the history format of a file from its first bytes,
// or "" when it is none (or not sure). The head may end inside a long
// first line (a Codex session_meta carries the whole system prompt): the
// history formats name their distinctive keys first, so that part is asked
// too. The line sniffed last is remembered in sc, so that the file's parse
// does not ask the parsers about it again (agents.Registry.SniffLine).
func sniffHistory(reg *agents.Registry, sc *agents.Scratch, head []byte) agents.Kind {
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
		k := reg.SniffLine(sc, line)
		if isHistoryKind(k) {
			return k
		}
		if k != agents.Unknown {
			return ""
		}
	}
	return ""
}

// historySessionName is the file name a Gemini CLI session is stored
// under: keyed by the session id the CLI recorded, so that the sessions
// of several machines sharing a database never collide, and two copies
// of one session are one session. Gemini CLI names a chat
// session-<minute>-<first 8 hex digits of its id>.json: two machines' chats
// of the same project can bear the same name with different ids (the
// same path, the same minute), so the stored name is
// session-<id>.json(l). A session the store already holds under the name
// of its file keeps it (its decisions are filed under it): the ingest
// index says so when it recorded the same session id for the file. A
// chat without an id (or with one that is not a plain name), and a
// subagent's (named under its parent's folder), keep the layout's name.
func historySessionName(f *File, name, id string) string {
	switch {
	case !safeID(id) || !strings.HasPrefix(name, "session-") || name != filepath.Base(f.Path):
		return name
	case f.prev.Name != "" && f.prev.SessionID == id:
		return f.prev.Name
	}
	ext := ".jsonl"
	if strings.HasSuffix(name, ".json") {
		ext = ".json"
	}
	return "session-" + id + ext
}

// safeID reports whether a recorded session id can name a session: a
// plain run of letters, digits, dashes and underscores (a UUID), never a
// path.
func safeID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, c := range []byte(id) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Histories is what the find met of each harness whose history folder
// exists, in the order of the roots: its folders, and its sessions found
// and folders or sessions it could not list (Failed).
func (f *Found) Histories() []HistoryCount { return slices.Clone(f.histories) }
