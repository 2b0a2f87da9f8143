package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/store"
)

// ErrHistoryPaths is returned for `sift import --history PATH…`: the
// histories are found where the CLIs keep them.
var ErrHistoryPaths = errors.New("--history takes no paths: it reads the CLIs' own folders " +
	"(set CLAUDE_CONFIG_DIR, CODEX_HOME or GEMINI_DIR to read others)")

// HistoryRoots returns the folders where the agent CLIs keep their session
// histories, as each harness's entry finds them (agents.History.Dirs),
// honouring the variables each CLI itself reads: Claude Code's
// CLAUDE_CONFIG_DIR, Codex's CODEX_HOME, Gemini CLI's GEMINI_DIR and
// GEMINI_CLI_HOME. A harness that keeps its history in the projects it
// ran in (Aider) is looked for in the project folders given
// (agents.History.InProjects; Env.KnownProjects).
//
// Folders that do not exist are kept: the import skips them quietly.
func HistoryRoots(getenv func(string) string, projects ...string) []ingest.HistoryRoot {
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	var roots []ingest.HistoryRoot
	seen := map[string]bool{}
	for _, h := range agents.Harnesses() {
		if h.History == nil {
			continue
		}
		dirs := h.History.Dirs(getenv, home)
		if in := h.History.InProjects; in != nil {
			for _, p := range projects {
				dirs = append(dirs, in(getenv, p)...)
			}
		}
		for _, dir := range dirs {
			if dir == "" || seen[dir] {
				continue
			}
			seen[dir] = true
			roots = append(roots, ingest.HistoryRoot{Agent: h.History.Parser.Kind(), Dir: dir})
		}
	}
	return roots
}

// ProjectRoots are the history roots the project folders given add to
// roots: what a store's folders add to the roots found before it opened.
func ProjectRoots(getenv func(string) string, roots []ingest.HistoryRoot, projects ...string) []ingest.HistoryRoot {
	var out []ingest.HistoryRoot
	for _, r := range HistoryRoots(getenv, projects...) {
		if !slices.Contains(roots, r) {
			out = append(out, r)
		}
	}
	return out
}

// KnownProjects are the project folders sift knows, where a harness that
// keeps its history in the projects it ran in (Aider) is looked for: the
// configuration's Projects, then the folders of the runs and history
// sessions st holds (nil st: the configuration's alone).
func (e *Env) KnownProjects(ctx context.Context, st *store.Store) ([]string, error) {
	out := slices.Clone(e.Cfg.Projects)
	if st == nil {
		return out, nil
	}
	folders, err := st.ProjectFolders(ctx)
	if err != nil {
		return nil, err
	}
	for _, f := range folders {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// HistoryHarnesses names every harness whose history sift reads, as
// `sift run --agent` spells a harness (claude, codex, cline, goose…), in
// the registry's order.
func HistoryHarnesses() []string {
	var out []string
	for _, h := range agents.Harnesses() {
		if h.History != nil {
			out = append(out, string(h.History.Parser.Kind().Harness()))
		}
	}
	return out
}

// PickHistories keeps the history roots of the harnesses named (all of
// them when none is). A name no harness bears is an error that lists the
// known ones.
func PickHistories(roots []ingest.HistoryRoot, names []string) ([]ingest.HistoryRoot, error) {
	if len(names) == 0 {
		return roots, nil
	}
	known := HistoryHarnesses()
	for _, n := range names {
		if !slices.Contains(known, n) {
			return nil, fmt.Errorf("unknown agent %q: known are %s", n, strings.Join(known, ", "))
		}
	}
	var out []ingest.HistoryRoot
	for _, r := range roots {
		if slices.Contains(names, string(r.Agent.Harness())) {
			out = append(out, r)
		}
	}
	return out, nil
}

// HarnessHistory is where one harness keeps its history: its history's
// kind, the folders of its that exist, and its roots.
type HarnessHistory struct {
	Name  string
	Kind  agents.Kind
	Found []string
	Roots []ingest.HistoryRoot
}

// HistoryHarnessRoots groups the history roots by harness, one entry for
// each harness whose history sift reads (a harness whose folders depend
// on what is found, as Crush's projects, may have no root), in the
// registry's order, and says which of each harness's folders exist.
func HistoryHarnessRoots(roots []ingest.HistoryRoot) []HarnessHistory {
	var out []HarnessHistory
	for _, h := range agents.Harnesses() {
		if h.History != nil {
			k := h.History.Parser.Kind()
			out = append(out, HarnessHistory{Name: string(k.Harness()), Kind: k})
		}
	}
	for _, r := range roots {
		i := slices.IndexFunc(out, func(h HarnessHistory) bool { return h.Kind == r.Agent })
		if i < 0 {
			continue
		}
		h := &out[i]
		h.Roots = append(h.Roots, r)
		if _, err := os.Lstat(r.Dir); err == nil {
			h.Found = append(h.Found, r.Dir)
		}
	}
	return out
}
