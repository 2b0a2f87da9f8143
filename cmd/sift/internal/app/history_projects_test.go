package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/store"
)

// TestImportAiderFromProjectFolders: `sift import --history` finds
// Aider's chat histories, which it keeps in the projects it ran in and
// nowhere under HOME, in the project folders sift knows: the
// configuration's Projects (a relative one next to the file), and the
// folder a run recorded, which only the store, once open, knows. The
// detail's roots hold both.
func TestImportAiderFromProjectFolders(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("AIDER_CHAT_HISTORY_FILE", "")
	const recorded = "../../../../testdata/histories/aider/home/src"
	configured, ran := filepath.Join(home, "src", "configured"), filepath.Join(home, "src", "ran")
	for dst, src := range map[string]string{configured: "aider-head", ran: "aider-overloaded"} {
		b, err := os.ReadFile(filepath.Join(recorded, src, ".aider.chat.history.md"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, ".aider.chat.history.md"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(home, "config.yaml")
	if err := os.WriteFile(cfg, []byte("Projects: [src/configured]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := Env{DB: filepath.Join(home, "sift.db"), Logs: filepath.Join(home, "logs"), LogsSet: true, ConfigPath: cfg}
	ctx := context.Background()
	st, err := env.Open()
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.RecordInvocation(ctx, store.Invocation{WorkItemID: "ENG-1", Phase: "build", AgentKind: "claude", Cwd: ran})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}

	// A command's environment, its configuration not read yet.
	env = Env{DB: env.DB, Logs: env.Logs, LogsSet: true, ConfigPath: cfg}
	res, err := Import(ctx, &env, ImportSpec{History: true, Agents: []string{"aider"}})
	if err != nil {
		t.Fatal(err)
	}
	// aider-head holds 4 sessions, aider-overloaded 10.
	if res.Sessions != 14 || len(res.Histories) != 1 || res.Histories[0].Agent != agents.AiderHistory ||
		!slices.Equal(res.Histories[0].Dirs, []string{filepath.Join(configured, ".aider.chat.history.md"), filepath.Join(ran, ".aider.chat.history.md")}) {
		t.Fatalf("imported %d sessions from %+v, want 14 from the chat histories of the configured folder and the run's", res.Sessions, res.Histories)
	}

	st, err = env.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	projects, err := env.KnownProjects(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	roots := env.StreamRoots(projects...)
	for _, p := range []string{configured, ran} {
		// The session view may open its chat history, not the project.
		if !slices.Contains(projects, p) || !slices.Contains(roots, filepath.Join(p, ".aider.chat.history.md")) ||
			slices.Contains(roots, p) {
			t.Errorf("%s: known projects %v, stream roots %v", p, projects, roots)
		}
	}
}
