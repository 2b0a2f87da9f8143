package amp

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentsift/sift/core/agents"
)

// Harness is Amp: sift reads the threads it keeps on disk; it has no
// stream sift runs it for yet.
func Harness() agents.Harness {
	return agents.Harness{
		Kind: agents.Amp,
		History: &agents.History{
			Parser: ampHistoryParser{},
			Dirs:   ampHistoryDirs, Session: ampSession, Root: filepath.Dir,
			Document: AmpThreadLines, ProjectFromCwd: true,
		},
		EditTools: []string{"edit_file", "create_file"},
	}
}

// ampHistoryDirs are the folders Amp keeps its threads in: the threads
// folder of its data folder, $XDG_DATA_HOME/amp (Amp 0.0.1767830505 reads
// XDG_DATA_HOME on every platform; its later builds only on Linux), else
// ~/.local/share/amp, on Linux and macOS alike. AMP_DATA_DIR is ccusage's
// own variable (a comma-separated list of such data folders), not Amp's:
// it is read too, so that sift finds what ccusage is pointed at.
func ampHistoryDirs(getenv func(string) string, home string) []string {
	var out []string
	add := func(data string) {
		if d := filepath.Join(data, "threads"); data != "" && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	for _, d := range strings.Split(getenv("AMP_DATA_DIR"), ",") {
		add(strings.TrimSpace(d))
	}
	if x := getenv("XDG_DATA_HOME"); filepath.IsAbs(x) {
		add(filepath.Join(x, "amp"))
	}
	if home != "" {
		add(filepath.Join(home, ".local", "share", "amp"))
	}
	return out
}

// ampSession names an Amp thread: <thread id>.json straight in the threads
// folder (Amp writes it whole to <id>.json.amptmp, then renames it: the
// temporary file is no thread). Its work item is the folder the thread
// records, once read.
func ampSession(parts []string) (workItem, name string, ok bool) {
	name = parts[len(parts)-1]
	if len(parts) != 1 || !strings.HasSuffix(name, ".json") {
		return "", name, false
	}
	return "amp", name, true
}
