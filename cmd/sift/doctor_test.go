package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctor runs `sift doctor` on a temporary setup: first with an
// unmarked, world-readable logs folder and a world-readable database,
// then with both fixed.
func TestDoctor(t *testing.T) {
	dir := t.TempDir()
	// Others can reach the test's folder: the permission checks see
	// what a user's home would show.
	for p := dir; p != os.TempDir() && p != "/"; p = filepath.Dir(p) {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(dir, "home")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	for _, v := range []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_DIR", "GEMINI_CLI_HOME"} {
		t.Setenv(v, "")
	}
	claude := filepath.Join(home, ".claude", "projects")
	if err := os.MkdirAll(claude, 0o700); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "conf", "config.yaml")
	writeConf := func(body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(conf), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeConf("Path: streams\nRetainedDays: 7\nProjects: [src/app]\nAgents:\n  claude:\n    Binary: /opt/claude\n    Env: {ANTHROPIC_API_KEY: sk-ant-secret-value}\n")
	logs := filepath.Join(dir, "conf", "streams")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "sift.db")

	out, errOut, code := siftCmd(t, "doctor", "--config", conf, "--db", db)
	if code != 1 || errOut != "" {
		t.Fatalf("doctor: %d %q\n%s", code, errOut, out)
	}
	for _, want := range []string{
		"config: " + conf + "\n",
		"config Path: " + logs + "\n",
		"config RetainedDays: 7\n",
		"config History: unset (the inbox imports and watches the histories once the store holds any)\n",
		"config Projects: " + filepath.Join(dir, "conf", "src", "app") + "\n",
		"config Agents.claude: Binary /opt/claude, Env ANTHROPIC_API_KEY\n",
		"database: " + db + ": absent\n",
		"logs: " + logs + ": exists, drwxr-xr-x\n",
		"logs marked: no\n",
		"history claude: " + claude + ": exists, drwx------\n",
		"history claude: 0 sessions on disk, 0 unreadable\n",
		"history not found: aider, amp, antigravity, cline, codex, copilot, ",
		"problem: logs folder " + logs + " not swept: sift did not create it (it has no .sift-logs marker); run `sift init-logs " + logs + "` to let sift sweep it\n",
		"problem: logs " + logs + " can be read by group and others (drwxr-xr-x): it holds agents' prompts and outputs; chmod 700 it\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "sk-ant-secret-value") {
		t.Errorf("doctor printed an agent's Env value:\n%s", out)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("doctor created the database")
	}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if line == "" || strings.ContainsAny(line, "\r\x1b") {
			t.Errorf("bad line %q", line)
		}
	}

	// Fixed: the folder marked and private, the database private.
	if _, _, code := siftCmd(t, "init-logs", logs); code != 0 {
		t.Fatal("init-logs failed")
	}
	if err := os.Chmod(logs, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, _, code := siftCmd(t, "list", "--config", conf, "--db", db); code != 0 {
		t.Fatal("list failed")
	}
	if err := os.Chmod(db, 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = siftCmd(t, "doctor", "--config", conf, "--db", db)
	if code != 0 || errOut != "" || !strings.HasSuffix(out, "no problems found\n") ||
		!strings.Contains(out, "logs marked: yes (.sift-logs)\n") || !strings.Contains(out, "database: "+db+": exists, -rw-------\n") {
		t.Fatalf("doctor after the fixes: %d %q\n%s", code, errOut, out)
	}

	// The agent CLIs' own folders are theirs: one others can read (Claude
	// Code makes ~/.claude 0755) is a warning, and fails nothing (issue
	// 29, item 9: doctor exited 1).
	for _, p := range []string{home, filepath.Dir(claude), claude} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code = siftCmd(t, "doctor", "--config", conf, "--db", db)
	if code != 0 || errOut != "" || !strings.HasSuffix(out, "no problems found\n") || strings.Contains(out, "problem:") ||
		!strings.Contains(out, "warning: history claude "+claude+" can be read by group and others (drwxr-xr-x): it holds agents' prompts and outputs; the agent CLI made it so; sift leaves it alone\n") {
		t.Fatalf("doctor with a 0755 history folder: %d %q\n%s", code, errOut, out)
	}

	// A database others can read is a problem; so is a bad configuration,
	// reported with the defaults shown.
	if err := os.Chmod(db, 0o644); err != nil {
		t.Fatal(err)
	}
	writeConf("RetainedDays: 1.5\n")
	out, _, code = siftCmd(t, "doctor", "--config", conf, "--db", db)
	if code != 1 || !strings.Contains(out, "problem: database "+db+" can be read by group and others (-rw-r--r--)") ||
		!strings.Contains(out, "problem: configuration: config "+conf+": RetainedDays must be a whole number (got 1.5, line 1)") {
		t.Fatalf("doctor with a bad config and an open database: %d\n%s", code, out)
	}
}
