package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseCommandPrintsEvents(t *testing.T) {
	t.Parallel()
	code, out, errOut := runSift(t, "parse", "../../testdata/streams/claude/evolve-2.1.7-run1-write-file.jsonl")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var kinds []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var ev struct {
			Line   int `json:"line"`
			Update struct {
				SessionUpdate string `json:"sessionUpdate"`
			} `json:"update"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("not a JSON line: %v: %s", err, sc.Text())
		}
		if ev.Line < 1 || ev.Line > 5 {
			t.Errorf("event line %d outside the 5-line stream", ev.Line)
		}
		kinds = append(kinds, ev.Update.SessionUpdate)
	}
	if kinds[0] != "session_start" || kinds[len(kinds)-1] != "result" || len(kinds) != 8 {
		t.Fatalf("kinds = %v", kinds)
	}
}

func TestParseCommandStats(t *testing.T) {
	t.Parallel()
	code, out, _ := runSift(t, "parse", "--stats", "../../testdata/streams/cursor/vincent-2026.08.11-edit-shell-tools.jsonl", "--agent", "cursor")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"agent\tcursor\n", "lines\t17\n", "tool_call\t2\n", "result\t1\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats lack %q:\n%s", want, out)
		}
	}
	// Without a declared kind the Claude-shaped stream is attributed to claude.
	_, out, _ = runSift(t, "parse", "--stats", "../../testdata/streams/cursor/vincent-2026.08.11-edit-shell-tools.jsonl")
	if !strings.Contains(out, "agent\tclaude\n") {
		t.Errorf("sniffed stats:\n%s", out)
	}
}

func TestParseCommandErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, want string
		args       []string
	}{
		{"missing file", "no such file", []string{"parse", "/nonexistent/stream.jsonl"}},
		{"unknown agent", "unknown agent", []string{"parse", "--agent", "nope", "../../testdata/streams/claude/evolve-2.1.7-run1-write-file.jsonl"}},
		{"no file", "want 1 argument", []string{"parse"}},
		{"unknown flag", "flag provided but not defined: -bogus", []string{"list", "--bogus"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runSift(t, tc.args...)
			if code != 2 || out != "" {
				t.Fatalf("exit %d, stdout %q", code, out)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, tc.want) || !strings.HasPrefix(errOut, "sift "+tc.args[0]+": ") {
				t.Fatalf("stderr %q, want one line with %q", errOut, tc.want)
			}
		})
	}
}

// TestParseCommandRedacts prints the events of a stream whose tool input,
// tool output, message and session id hold a secret: `sift parse` reads a
// file sift did not capture, so it redacts each line as it enters, and
// the secret reaches the screen nowhere.
func TestParseCommandRedacts(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../testdata/streams/claude/evolve-2.1.7-run1-write-file.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	secret := "ghp_" + strings.Repeat("Z9y8X7w6", 5)[:36]
	stream := strings.ReplaceAll(string(src), "4bd9804e-6adb-41d7-8691-9b07158b0d3a", secret)
	stream = strings.ReplaceAll(stream, "Hello from claude!", "token "+secret)
	if strings.Count(stream, secret) < 5 {
		t.Fatal("the stream holds no secret to redact")
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(stream), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runSift(t, "parse", path)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if w := secretWindow(out, secret[len("ghp_"):]); w != "" || !strings.Contains(out, "[REDACTED:") {
		t.Fatalf("sift parse printed the secret (%q) or no marker:\n%s", w, out)
	}
}
