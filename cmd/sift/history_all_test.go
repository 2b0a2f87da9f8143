package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/historydb/historydbtest"
)

// historyDirsEnv are the variables the harnesses read their history folders
// from (agents.History.Dirs): an all-histories HOME clears them, so that
// the home alone says where each history is.
var historyDirsEnv = []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_DIR", "GEMINI_CLI_HOME", "COPILOT_HOME",
	"CRUSH_GLOBAL_DATA", "AIDER_CHAT_HISTORY_FILE", "GOOSE_PATH_ROOT", "OPENCODE_DB", "PI_CODING_AGENT_SESSION_DIR", "PI_CODING_AGENT_DIR",
	"QWEN_RUNTIME_DIR", "QWEN_HOME", "AMP_DATA_DIR", "CURSOR_DATA_DIR", "KIMI_SHARE_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
	"XDG_STATE_HOME", "XDG_CACHE_HOME"}

// allHistoriesHome builds one HOME holding every harness's recorded
// history: testdata/history's Claude Code, Codex and Gemini CLI sessions
// where those CLIs keep them, and each testdata/histories/<harness> laid
// out as it lies there (its home/ folder, else the folder itself), the
// SQL scripts of Crush and Goose run into the databases they keep. It
// points HOME there and clears the variables that would move a history
// elsewhere. It returns the home and the harnesses it holds.
func allHistoriesHome(t testing.TB) (home string, harnesses []string) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range historyDirsEnv {
		t.Setenv(v, "")
	}
	const history = "../../testdata/history"
	claude, _ := filepath.Glob(filepath.Join(history, "claude", "spotter-2.1.38-*.jsonl"))
	for _, p := range claude {
		copyTo(t, p, filepath.Join(home, ".claude", "projects", "-home-marco-projects-spotter", filepath.Base(p)))
	}
	copyTo(t, filepath.Join(history, "codex", "e2e-codex-0.171.0-scripted.jsonl"),
		filepath.Join(home, ".codex", "sessions", "2026", "11", "29", "rollout-2026-11-29T10-00-00-e2e.jsonl"))
	copyTo(t, filepath.Join(history, "gemini", "e2e-gemini-cli-0.61.0-scripted.jsonl"),
		filepath.Join(home, ".gemini", "tmp", "e2e", "chats", "session-2026-11-29T10-00-e2e.jsonl"))
	harnesses = []string{"claude", "codex", "gemini"}

	const histories = "../../testdata/histories"
	dirs, err := os.ReadDir(histories)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		harnesses = append(harnesses, d.Name())
		if d.Name() == "cursor" {
			continue // built below
		}
		src := filepath.Join(histories, d.Name())
		if _, err := os.Stat(filepath.Join(src, "home")); err == nil {
			src = filepath.Join(src, "home")
		}
		err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || e.Name() == "PROVENANCE.md" || strings.HasSuffix(e.Name(), ".sql") {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			copyTo(t, p, filepath.Join(home, rel))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// Crush keeps its sessions in the project, which its projects.json
	// names (store/stored_crush_test.go crushProject); Goose in its data
	// folder.
	if _, err := os.Stat(filepath.Join(histories, "crush", "crush.sql")); err == nil {
		project := filepath.Join(home, "src", "foo")
		db := filepath.Join(project, ".crush", "crush.db")
		historydbtest.RunScript(t, db, filepath.Join(histories, "crush", "crush.sql"))
		projects := fmt.Sprintf(`{"projects":[{"path":%q,"data_dir":%q,"last_accessed":"2025-12-05T10:00:09Z"}]}`,
			project, filepath.Dir(db))
		writeHistoryFile(t, filepath.Join(home, ".local", "share", "crush", "projects.json"), []byte(projects))
	}
	// Cursor's sample is a dump of a store.db's rows: the database is
	// rebuilt from it where cursor-agent keeps it.
	historydbtest.CursorChat(t, home, filepath.Join(histories, "cursor", "store-db-sample.json"), -1)
	// Aider keeps its chat history in the project, which nothing under
	// HOME names: sift's configuration lists the projects.
	if aider, _ := filepath.Glob(filepath.Join(home, "src", "aider-*")); len(aider) > 0 {
		writeHistoryFile(t, filepath.Join(home, ".config", "sift", "config.yaml"),
			fmt.Appendf(nil, "Projects: [%s]\n", strings.Join(aider, ", ")))
	}
	if _, err := os.Stat(filepath.Join(histories, "goose", "sessions.sql")); err == nil {
		historydbtest.RunScript(t, filepath.Join(home, ".local", "share", "goose", "sessions", "sessions.db"),
			filepath.Join(histories, "goose", "sessions.sql"))
	}
	return home, harnesses
}

// TestImportHistoryAllHarnesses imports, from a HOME holding every
// harness's recorded history, with `sift import --history`: one line per
// harness names its folder and its sessions found, imported, unchanged
// and failed, then the total; a second import finds them all unchanged;
// --agent picks harnesses, and an unknown name is one error line listing
// the known ones.
func TestImportHistoryAllHarnesses(t *testing.T) {
	home, harnesses := allHistoriesHome(t)
	db := filepath.Join(t.TempDir(), "sift.db")
	code, out, errs := runSift(t, "import", "--history", "--db", db)
	if code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errs)
	}
	t.Logf("sift import --history:\n%s", out)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(harnesses)+1 {
		t.Fatalf("%d lines, want one per harness (%v) and the total:\n%s", len(lines), harnesses, out)
	}
	total := 0
	var got []string
	for _, l := range lines[:len(lines)-1] {
		name, rest, _ := strings.Cut(l, ": ")
		got = append(got, name)
		var found, imported, unchanged, failed int
		dirs, figures, _ := strings.Cut(rest, ": ")
		if _, err := fmt.Sscanf(figures, "%d sessions found, %d imported, %d unchanged, %d failed",
			&found, &imported, &unchanged, &failed); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if !strings.HasPrefix(dirs, home) || found == 0 || imported != found || unchanged != 0 || failed != 0 {
			t.Errorf("%q: want its folder under %s, every session found imported", l, home)
		}
		total += imported
	}
	slices.Sort(got)
	slices.Sort(harnesses)
	if !slices.Equal(got, harnesses) {
		t.Errorf("harnesses %v, want %v", got, harnesses)
	}
	if want := fmt.Sprintf(" %d sessions,", total); !strings.Contains(lines[len(lines)-1], want) {
		t.Errorf("total %q, want %q", lines[len(lines)-1], want)
	}

	// status and doctor list each harness with its folder and counts.
	code, out, errs = runSift(t, "status", "--db", db)
	if code != 0 {
		t.Fatalf("status: exit %d, %q", code, errs)
	}
	checkHarnessLines(t, "status", out, harnesses, home, " stored")
	code, out, errs = runSift(t, "doctor", "--db", db)
	if errs != "" {
		t.Fatalf("doctor: exit %d, %q", code, errs)
	}
	checkHarnessLines(t, "doctor", out, harnesses, home, " on disk, 0 unreadable")

	// Again: every session is unchanged.
	_, out, _ = runSift(t, "import", "--history", "--db", db)
	for _, l := range strings.Split(strings.TrimSpace(out), "\n")[:len(harnesses)] {
		if !strings.Contains(l, " 0 imported, ") || strings.Contains(l, " 0 unchanged") {
			t.Errorf("reimport: %q, want every session unchanged", l)
		}
	}

	// --agent picks.
	code, out, errs = runSift(t, "import", "--history", "--agent", "codex,pi,goose", "--db", db)
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 4 || !strings.HasPrefix(lines[0], "codex: ") || !strings.HasPrefix(lines[1], "goose: ") ||
		!strings.HasPrefix(lines[2], "pi: ") {
		t.Errorf("--agent codex,pi,goose: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runSift(t, "import", "--history", "--agent", "clade", "--db", db)
	if want := "sift import: unknown agent \"clade\": known are " + strings.Join(app.HistoryHarnesses(), ", ") + "\n"; code != 2 ||
		out != "" || errs != want {
		t.Errorf("--agent clade: exit %d, %q, %q; want %q", code, out, errs, want)
	}
}

// checkHarnessLines checks that a command's output has, for each harness,
// a line "history NAME: " naming a folder under home and one ending with
// suffix (status says both in one line), and that no harness it lacks is
// listed but as not found.
func checkHarnessLines(t *testing.T, cmd, out string, harnesses []string, home, suffix string) {
	t.Helper()
	for _, h := range harnesses {
		var folder, counts bool
		for _, l := range strings.Split(out, "\n") {
			if rest, ok := strings.CutPrefix(l, "history "+h+": "); ok {
				folder = folder || strings.HasPrefix(rest, home)
				counts = counts || strings.HasSuffix(rest, suffix) && !strings.HasPrefix(strings.TrimPrefix(rest, home), "0 ")
			}
		}
		if !folder || !counts {
			t.Errorf("%s: no line for %s with its folder and %q:\n%s", cmd, h, suffix, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, "history not found: "); ok {
			for _, h := range harnesses {
				if slices.Contains(strings.Split(rest, ", "), h) {
					t.Errorf("%s lists %s as not found: %q", cmd, h, l)
				}
			}
		}
	}
}

// BenchmarkImportHistoryAllHarnesses times `sift import --history` cold,
// into a new database, over a HOME holding every harness's recorded
// history (allHistoriesHome): the finding of each harness's folders, the
// copies of its databases and the parse of every session.
func BenchmarkImportHistoryAllHarnesses(b *testing.B) {
	_, harnesses := allHistoriesHome(b)
	dir := b.TempDir()
	var out, errs strings.Builder
	for i := 0; b.Loop(); i++ {
		out.Reset()
		errs.Reset()
		db := filepath.Join(dir, fmt.Sprintf("sift-%d.db", i))
		if code := run([]string{"import", "--history", "--db", db}, strings.NewReader(""), &out, &errs); code != 0 {
			b.Fatalf("import: exit %d\n%s%s", code, out.String(), errs.String())
		}
	}
	if n := strings.Count(out.String(), "\n"); n != len(harnesses)+1 {
		b.Fatalf("%d lines, want one per harness and the total:\n%s", n, out.String())
	}
	b.ReportMetric(float64(len(harnesses)), "harnesses")
}
