package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/redact/redacttest"
)

// TestIdentifiersNeverLeave is Hardening II item 10: a secret as the
// harness's session id, the model, a tool's name, the work item's folder,
// the stream's file name or a reviewer id is redacted in the search index
// and in every output: lists, search, follow-ups, the report, exports, the
// decisions backup and the API. The store keeps the key (the file's real
// name, which it needs to find the file), and only the key: the database
// file holds none of the others. The key as shown still names the session.
func TestIdentifiersNeverLeave(t *testing.T) {
	dir := t.TempDir()
	isolate(t, dir)
	tok := func(seed string) string { return "ghp_" + redacttest.Fake(seed, redacttest.AAlnum, 36) }
	secrets := map[string]string{
		"session id": tok("session"), "model": tok("model"), "tool name": tok("tool"),
		"work item": tok("item"), "file name": tok("file"), "reviewer": tok("reviewer"),
	}
	src := recordedStream(t)
	stream := src
	for old, secret := range map[string]string{
		"73094031-e29e-409e-bbcc-ec1a75506b3d": secrets["session id"],
		"claude-haiku-4-5-20251001":            secrets["model"],
		`"name":"Write"`:                       `"name":"` + secrets["tool name"] + `"`,
	} {
		if !strings.Contains(stream, old) {
			t.Fatalf("the recorded stream changed: no %s", old)
		}
		stream = strings.ReplaceAll(stream, old, secret)
	}
	key := secrets["work item"] + "/" + secrets["file name"] + ".jsonl"
	db, logs := importStreams(t, dir, map[string]string{key: stream})
	if out, errOut, code := siftCmd(t, "decide", key, "--decision", "needs_followup", "--note", "why was it denied?",
		"--reviewer", secrets["reviewer"], "--db", db); code != 0 {
		t.Fatalf("decide: %q %q", out, errOut)
	}
	shown := "[REDACTED:github-token]/[REDACTED:github-token].jsonl"

	outputs := map[string]string{}
	for name, args := range map[string][]string{
		"list --json":       {"list", "--json", "--full"},
		"list":              {"list"},
		"search by name":    {"search", "agent:claude"},
		"search --json":     {"search", "--json", "denied"},
		"search the secret": {"search", strings.ToLower(secrets["work item"][:14]) + "*"},
		"followups --json":  {"followups", "--json"},
		"followups":         {"followups"},
		"report md":         {"report", "--since", "999999d", "--format", "md"},
		"report html":       {"report", "--since", "999999d", "--format", "html"},
		"report json":       {"report", "--since", "999999d", "--format", "json"},
		"atif export":       {"export", key, "--format", "atif"},
		"acp export":        {"export", key, "--format", "acp"},
		"decision history":  {"decide", key, "--history"},
		"decisions export":  {"decisions", "export"},
	} {
		out, errOut, code := siftCmd(t, append(args, "--db", db, "--logs", logs)...)
		if code != 0 && name != "search the secret" {
			t.Errorf("%s: exit %d: %s", name, code, errOut)
		}
		outputs[name] = out + errOut
	}
	if !strings.Contains(outputs["list"], shown) || !strings.Contains(outputs["followups"], shown) {
		t.Errorf("the session is not listed by its key as shown (%s):\n%s\n%s", shown, outputs["list"], outputs["followups"])
	}
	if strings.Contains(outputs["search the secret"], "REDACTED") {
		t.Errorf("a search for the secret in the key finds the session:\n%s", outputs["search the secret"])
	}
	out := filepath.Join(dir, "exports")
	if _, errOut, code := siftCmd(t, "export", "--all", "--since", "999999d", "--out", out, "--db", db, "--logs", logs); code != 0 {
		t.Fatalf("export --all: %s", errOut)
	}
	names, err := os.ReadDir(out)
	if err != nil || len(names) != 1 {
		t.Fatalf("export --all wrote %v (%v)", names, err)
	}
	outputs["export --all file name"] = names[0].Name()
	for name, body := range serveBodies(t, dir, db, logs, key) {
		outputs[name] = body
	}

	// The key as shown names the session to every command.
	if o, errOut, code := siftCmd(t, "decide", shown, "--decision", "reviewed", "--db", db); code != 0 {
		t.Errorf("decide by the key as shown: %q %q", o, errOut)
	}

	// The decisions backup names the session as shown; read back into a
	// store that holds the session, its decisions find it.
	backup := filepath.Join(dir, "decisions.jsonl")
	if err := os.WriteFile(backup, []byte(outputs["decisions export"]), 0o600); err != nil {
		t.Fatal(err)
	}
	db2, logs2 := importStreams(t, filepath.Join(dir, "again"), map[string]string{key: stream})
	if o, errOut, code := siftCmd(t, "decisions", "import", backup, "--db", db2); code != 0 || strings.Contains(o+errOut, "does not hold") {
		t.Errorf("decisions import: %d %q %q", code, o, errOut)
	}
	if o, _, _ := siftCmd(t, "followups", "--db", db2, "--logs", logs2); !strings.Contains(o, "why was it denied?") {
		t.Errorf("the imported follow-up is not on the session:\n%s", o)
	}

	raw, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	for what, secret := range secrets {
		body := secret[len("ghp_"):]
		for name, out := range outputs {
			if w := secretWindow(out, body); w != "" {
				t.Errorf("%s shows %q of the %s", name, w, what)
			}
		}
		if what == "work item" || what == "file name" {
			continue // the store keeps the key: the file's real name
		}
		if w := secretWindow(string(raw), body); w != "" {
			t.Errorf("the database file keeps %q of the %s", w, what)
		}
	}
}

// secretWindow returns the first 8 consecutive bytes of secret found in s, or "".
func secretWindow(s, secret string) string {
	for i := 0; i+8 <= len(secret); i++ {
		if strings.Contains(s, secret[i:i+8]) {
			return secret[i : i+8]
		}
	}
	return ""
}

// serveBodies starts `sift serve` on the database and returns the bodies
// of the API's reads of one session, by request.
func serveBodies(t *testing.T, dir, db, logs, key string) map[string]string {
	t.Helper()
	cfg := filepath.Join(dir, "serve.yaml")
	if err := os.WriteFile(cfg, []byte("Path: "+logs+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- serve(ctx, []string{"--addr", "127.0.0.1:0", "--db", db, "--config", cfg}, &stdout, &stderr)
	}()
	defer func() {
		cancel()
		select {
		case <-exit:
		case <-time.After(15 * time.Second):
			t.Error("serve did not stop")
		}
	}()
	addrRE := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)
	waitFor(t, "the listening line", 10*time.Second, func() bool { return addrRE.MatchString(stdout.String()) })
	base := addrRE.FindStringSubmatch(stdout.String())[1]
	item, file, _ := strings.Cut(key, "/")
	bodies := map[string]string{}
	for _, target := range []string{
		"/sessions?full=true",
		"/search?q=denied",
		"/workitems/" + item + "/agent-streams",
		"/workitems/" + item + "/agent-streams/" + file + "/summary",
		"/sessions/" + item + "/" + file + "/decisions",
	} {
		resp, err := http.Get(base + target)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d %s", target, resp.StatusCode, b)
		}
		bodies["GET "+target] = string(b)
	}
	return bodies
}
