package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/redact/redacttest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// TestIdentifiersShownRedacted is Hardening II item 10 in the inbox: a
// secret as the session's work item folder, file name, harness session id,
// model or tool name is drawn redacted in the list, the preview, the
// session and the tool call, while the session keeps its real key for
// what the inbox does with it.
func TestIdentifiersShownRedacted(t *testing.T) {
	tok := func(seed string) string { return "ghp_" + redacttest.Fake(seed, redacttest.AAlnum, 36) }
	secrets := map[string]string{"session id": tok("session"), "model": tok("model"), "tool name": tok("tool"),
		"work item": tok("item"), "file name": tok("file")}
	src, err := os.ReadFile(filepath.Join("..", "testdata", "streams", "claude", "vincent-2.1.226-permission-denied-tool-error.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	stream := strings.ReplaceAll(string(src), "73094031-e29e-409e-bbcc-ec1a75506b3d", secrets["session id"])
	stream = strings.ReplaceAll(stream, "claude-haiku-4-5-20251001", secrets["model"])
	stream = strings.ReplaceAll(stream, `"name":"Write"`, `"name":"`+secrets["tool name"]+`"`)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(stream), 0o600); err != nil {
		t.Fatal(err)
	}
	s, _, err := ingest.AnalyzeFile(path, summary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.WorkItemID, s.FileName, s.Phase = secrets["work item"], secrets["file name"]+".jsonl", "work"
	m := newTestApp(t, 160, 40, NewMemStore([]review.Session{{Summary: *s, Path: path}}))
	k := m.c.Keys
	screens := map[string]string{"inbox": screenText(m)}
	press(t, m, k.Preview)
	screens["preview"] = screenText(m)
	press(t, m, k.Preview, k.Enter)
	screens["session"] = screenText(m)
	press(t, m, k.Enter)
	screens["session, call selected"] = screenText(m)
	press(t, m, k.Enter)
	screens["tool call"] = screenText(m)
	if !strings.Contains(screens["tool call"], "› t1 · ") {
		t.Errorf("the tool call is not open:\n%s", screens["tool call"])
	}
	if !strings.Contains(screens["inbox"], "[REDACTED:github-token]") {
		t.Fatalf("the work item is not shown redacted:\n%s", screens["inbox"])
	}
	for what, secret := range secrets {
		body := secret[len("ghp_"):]
		for name, screen := range screens {
			for i := 0; i+8 <= len(body); i++ {
				if strings.Contains(screen, body[i:i+8]) {
					t.Errorf("the %s draws %q of the %s:\n%s", name, body[i:i+8], what, screen)
					break
				}
			}
		}
	}
}
