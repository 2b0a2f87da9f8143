package capture

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/redact"
)

// splitSecrets are secrets a model may write into a streamed reply, each
// with the text around it; they are built at run time.
func splitSecrets() []struct{ name, text, secret string } {
	gh := "ghp_" + strings.Repeat("aB3dE5fG7h", 4)[:36]
	ant := "sk-ant-api03-" + strings.Repeat("Xy1_Zw2-Vu3", 9)
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	return []struct{ name, text, secret string }{
		{"github token", "Set GH_TOKEN to " + gh + " and retry.", gh},
		{"anthropic key", "The key is " + ant + ".", ant},
		{"password", "Log in with password=correct-horse-battery-staple then.", "correct-horse-battery-staple"},
		{"jwt", "Cookie: session=" + jwt + "; Path=/", jwt},
		{"url password", "Use postgres://app:s3cr3t-P4ssw0rd@db:5432/app now.", "s3cr3t-P4ssw0rd"},
	}
}

// cursorDelta is a cursor --stream-partial-output assistant line.
func cursorDelta(t *testing.T, text string, ms int) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"type": "assistant", "session_id": "S", "timestamp_ms": ms,
		"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// captureLines runs lines through a structured run's recorder into a real
// file, one pipe read per line, and returns the file's lines.
func captureLines(t *testing.T, dir string, lines []string) []string {
	t.Helper()
	path := filepath.Join(dir, "work-1-abcdef.jsonl")
	s := Spec{Stdout: io.Discard, Stderr: io.Discard, create: func() (io.WriteCloser, string, error) {
		f, err := os.Create(path)
		return f, path, err
	}}
	r := newRecorder(s, Structured)
	for _, l := range lines {
		r.stdout.Write([]byte(l + "\n"))
	}
	r.close(time.Minute, nil)
	if r.err != nil {
		t.Fatal(r.err)
	}
	return readLines(t, path)
}

// deltaTexts checks that every line is JSON and returns the text of the
// cursor delta lines joined.
func deltaTexts(t *testing.T, lines []string) string {
	t.Helper()
	var sb strings.Builder
	for _, l := range lines {
		var m struct {
			TimestampMs *int64 `json:"timestamp_ms"`
			Message     struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %s", l)
		}
		if m.TimestampMs != nil && len(m.Message.Content) == 1 {
			sb.WriteString(m.Message.Content[0].Text)
		}
	}
	return sb.String()
}

// leaks reports whether any 12 bytes of secret survive in out.
func leaks(out, secret string) bool {
	for i := 0; i+12 <= len(secret); i++ {
		if strings.Contains(out, secret[i:i+12]) {
			return true
		}
	}
	return strings.Contains(out, secret)
}

// TestDeltaSecretSplitInFile streams a reply whose secret is split at
// every byte into two deltas, and at every pair of bytes into three,
// through a structured run's recorder, and reads the file written.
func TestDeltaSecretSplitInFile(t *testing.T) {
	t.Parallel()
	for _, tc := range splitSecrets() {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			lo := strings.Index(tc.text, tc.secret)
			hi := lo + len(tc.secret)
			check := func(cuts ...int) {
				var lines []string
				last := 0
				for k, c := range append(cuts, len(tc.text)) {
					lines = append(lines, cursorDelta(t, tc.text[last:c], 1000+k))
					last = c
				}
				lines = append(lines, `{"type":"result","subtype":"success","result":"done"}`)
				got := captureLines(t, dir, lines)
				if len(got) != len(lines) {
					t.Fatalf("cuts %v: %d lines in, %d out", cuts, len(lines), len(got))
				}
				text := deltaTexts(t, got)
				if leaks(text, tc.secret) || leaks(strings.Join(got, "\n"), tc.secret) {
					t.Fatalf("cuts %v: secret in the file:\n%s", cuts, strings.Join(got, "\n"))
				}
				if want := redact.String(tc.text); text != want {
					t.Fatalf("cuts %v: text %q, want %q", cuts, text, want)
				}
			}
			for i := lo; i <= hi; i++ {
				check(i)
			}
			for i := lo; i <= hi; i += 3 {
				for j := i; j <= hi; j++ {
					check(i, j)
				}
			}
		})
	}
}

// TestDeltaFormats splits a secret across the delta lines of every
// harness that streams deltas.
func TestDeltaFormats(t *testing.T) {
	t.Parallel()
	gh := "ghp_" + strings.Repeat("Zq9Wx8Vu7T", 4)[:36]
	pieces := []string{"export GH_TOKEN=" + gh[:10], gh[10:25], gh[25:] + " done"}
	enc := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	for _, tc := range []struct {
		name string
		line func(string) string
		end  string
	}{
		{"cursor thinking", func(p string) string {
			return `{"type":"thinking","subtype":"delta","text":` + enc(p) + `,"session_id":"S","timestamp_ms":1}`
		}, `{"type":"thinking","subtype":"completed","session_id":"S"}`},
		{"gemini", func(p string) string {
			return `{"type":"message","timestamp":"2026-01-01T00:00:00Z","role":"assistant","content":` + enc(p) + `,"delta":true}`
		}, `{"type":"result","status":"success"}`},
		{"claude partial messages", func(p string) string {
			return `{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":` + enc(p) + `}},"session_id":"S"}`
		}, `{"type":"stream_event","event":{"type":"content_block_stop","index":0}}`},
		{"claude thinking", func(p string) string {
			return `{"type":"stream_event","event":{"type":"content_block_delta","index":1,"delta":{"type":"thinking_delta","thinking":` + enc(p) + `}}}`
		}, `{"type":"result","subtype":"success"}`},
		{"codex legacy", func(p string) string {
			return `{"id":"3","msg":{"type":"agent_message_delta","delta":` + enc(p) + `}}`
		}, `{"id":"3","msg":{"type":"agent_message","message":"x"}}`},
		{"antigravity", func(p string) string {
			return `{"event":"step_update","step_update":{"step_index":1,"text_delta":` + enc(p) + `}}`
		}, `{"event":"result","result":{"status":"SUCCESS"}}`},
		{"sandbox prefix", func(p string) string {
			return "\x01\x01\x01" + `{"type":"thinking","subtype":"delta","text":` + enc(p) + `}`
		}, `{"type":"result"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var lines []string
			for _, p := range pieces {
				lines = append(lines, tc.line(p))
			}
			lines = append(lines, tc.end)
			got := captureLines(t, t.TempDir(), lines)
			if len(got) != len(lines) {
				t.Fatalf("%d lines in, %d out:\n%s", len(lines), len(got), strings.Join(got, "\n"))
			}
			file := strings.Join(got, "\n")
			if leaks(file, gh) || !strings.Contains(file, "[REDACTED:github-token]") {
				t.Fatalf("secret not redacted:\n%s", file)
			}
			for _, l := range got {
				if !json.Valid([]byte(strings.TrimLeft(l, "\x01"))) {
					t.Errorf("not JSON: %q", l)
				}
			}
			if got[len(got)-1] != tc.end {
				t.Errorf("last line %s, want %s", got[len(got)-1], tc.end)
			}
		})
	}
}

// TestDeltaOrderKept checks that a line between deltas writes the held
// deltas first, and that lines come out in the order they came in.
func TestDeltaOrderKept(t *testing.T) {
	t.Parallel()
	in := []string{
		cursorDelta(t, "one ", 1), cursorDelta(t, "two ", 2),
		`{"type":"tool_call","subtype":"started","call_id":"tool_1"}`,
		cursorDelta(t, "three", 3),
		`{"type":"thinking","subtype":"delta","text":"hmm"}`,
		`{"type":"result","subtype":"success"}`,
	}
	got := captureLines(t, t.TempDir(), in)
	if strings.Join(got, "\n") != strings.Join(in, "\n") {
		t.Errorf("lines changed or moved:\n got %s\nwant %s", strings.Join(got, "\n"), strings.Join(in, "\n"))
	}
}

// TestDeltaHeldBounded streams a long reply in small deltas and checks
// what deltaLines holds: the window's text and the lines that carry it.
func TestDeltaHeldBounded(t *testing.T) {
	t.Parallel()
	var written int
	d := newDeltaLines(func(b []byte) { written++ }, &keyBlock{})
	unit := "Then I set password=hunter2-hunter2 and moved on. "
	n := 0
	for k := range 20000 {
		piece := unit[k%len(unit) : k%len(unit)+1]
		line := cursorDelta(t, piece, k)
		d.Line([]byte(line))
		n++
		if held := d.win.Held(); held > 2*redact.DeltaWindow+64 {
			t.Fatalf("after %d deltas the window holds %d bytes", n, held)
		}
		if len(d.held) > redact.DeltaWindow+1 || d.heldBytes > (redact.DeltaWindow+1)*len(line) {
			t.Fatalf("after %d deltas %d lines (%d bytes) are held", n, len(d.held), d.heldBytes)
		}
	}
	d.Close()
	if written != n {
		t.Fatalf("%d lines in, %d written", n, written)
	}
}

// TestKeyBlockOnStructuredStdout prints a key block on stdout lines that
// are not JSON in a structured run: every line of it is replaced.
func TestKeyBlockOnStructuredStdout(t *testing.T) {
	t.Parallel()
	body := []string{"MIIEowIBAAKCAQEA0Z3VS5JJcds3xfnygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB", "aFDrBz9vFqU4yxgAAAA"}
	in := []string{`{"type":"system","subtype":"init"}`, "-----BEGIN RSA PRIVATE KEY-----", body[0], body[1],
		"-----END RSA PRIVATE KEY-----", `{"type":"result"}`}
	got := captureLines(t, t.TempDir(), in)
	file := strings.Join(got, "\n")
	for _, b := range body {
		if strings.Contains(file, b) {
			t.Fatalf("key line in the file:\n%s", file)
		}
	}
	if len(got) != len(in) || got[0] != in[0] || got[len(got)-1] != in[len(in)-1] {
		t.Fatalf("lines:\n%s", file)
	}
}

// TestRunCursorPartialOutput runs a fake cursor-agent that streams a reply
// with a token split across three deltas, as --stream-partial-output does.
func TestRunCursorPartialOutput(t *testing.T) {
	t.Parallel()
	gh := "ghp_" + strings.Repeat("k3L4m5N6o7", 4)[:36]
	var script strings.Builder
	for k, p := range []string{"Your token is " + gh[:7], gh[7:30], gh[30:] + ", keep it safe."} {
		script.WriteString("printf '%s\\n' '" + cursorDelta(t, p, 100+k) + "'\n")
	}
	script.WriteString(`echo '{"type":"result","subtype":"success","is_error":false,"result":"done"}'` + "\n")
	dir := t.TempDir()
	bin := fakeBin(t, dir, "cursor-agent", script.String())
	s, out, _ := spec(t, mustCLI(t, "cursor-agent"), bin, "do it")
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != Structured {
		t.Fatalf("mode %v", res.Mode)
	}
	lines := readLines(t, res.File)
	if len(lines) != 4 {
		t.Fatalf("%d lines:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	if text := deltaTexts(t, lines); leaks(text, gh) || text != "Your token is [REDACTED:github-token], keep it safe." {
		t.Fatalf("text in the file: %q", text)
	}
	// The agent's own output reaches sift's stdout unchanged.
	if !strings.Contains(out.String(), gh[7:30]) {
		t.Errorf("stdout pass-through: %q", out.String())
	}
}
