package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/redact/redacttest"
)

// TestTitleSecretNeverStored is Hardening II item 2 end to end: an AWS
// access key id in a command that straddles the 120 bytes the parsers
// once cut titles at (18 of its 20 characters before the cut) is neither
// stored, indexed, listed nor exported, in part or whole.
func TestTitleSecretNeverStored(t *testing.T) {
	dir := t.TempDir()
	isolate(t, dir)
	token := redacttest.Tok("AKIA", redacttest.AUpper, 16) // an AWS access key id
	logs := filepath.Join(dir, "logs", "wi-1")
	os.MkdirAll(logs, 0o700)
	command := strings.Repeat("x", 120-18-len(" aws configure set aws_access_key_id ")) + " aws configure set aws_access_key_id " + token
	input, _ := json.Marshal(map[string]string{"command": command})
	// A recorded Claude Code stream whose Write call becomes the command.
	src, err := os.ReadFile("../../testdata/streams/claude/vincent-2.1.226-permission-denied-tool-error.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	call := `"name":"Write","input":{"file_path":"C:\\work\\repo\\hello.txt","content":"hi"}`
	if !strings.Contains(string(src), call) {
		t.Fatal("the recorded stream changed: no Write call to replace")
	}
	stream := strings.Replace(string(src), call, `"name":"Bash","input":`+string(input), 1)
	if err := os.WriteFile(filepath.Join(logs, "work-1-a1b2c3.jsonl"), []byte(stream), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "sift.db")
	if out, errOut, code := siftCmd(t, "import", "--db", db, filepath.Join(dir, "logs")); code != 0 {
		t.Fatalf("import: %q %q", out, errOut)
	}
	raw, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{"the database file": string(raw)}
	for name, args := range map[string][]string{
		"search":      {"search", strings.ToLower(token[:12]) + "*"},
		"list":        {"list", "--json", "--full"},
		"atif export": {"export", "wi-1/work-1-a1b2c3.jsonl", "--format", "atif"},
		"acp export":  {"export", "wi-1/work-1-a1b2c3.jsonl", "--format", "acp"},
		"report":      {"report", "--since", "999999d", "--format", "json"},
	} {
		out, errOut, _ := siftCmd(t, append(args, "--db", db)...)
		outputs[name] = out + errOut
	}
	if !strings.Contains(outputs["list"], "work-1-a1b2c3") {
		t.Fatalf("the session is not listed: %s", outputs["list"])
	}
	body := token
	for name, out := range outputs {
		for i := 0; i+8 <= len(body); i++ {
			if strings.Contains(out, body[i:i+8]) {
				t.Errorf("%s keeps %q of the token", name, body[i:i+8])
				break
			}
		}
	}
}
