package main

import (
	"regexp"
	"strings"
	"testing"
)

// loneSurrogate finds the escape of half a surrogate pair: a high one not
// followed by a low one, or a low one after anything but a high one.
var loneSurrogate = regexp.MustCompile(`(?i)\\ud[89ab][0-9a-f]{2}(?:[^\\]|\\[^u]|\\u[^d]|\\ud[^c-f]|$)|(?:^|[^0-9a-f]{4}|[0-9a-f]{0,3}[^0-9a-f])\\ud[c-f][0-9a-f]{2}`)

// TestExportsHoldNoLoneSurrogate is Hardening II item 11: a tool input
// whose raw JSON holds half a surrogate pair ("x\ud83d") is exported, as
// ATIF and as ACP, without it: strict JSON readers refuse one.
func TestExportsHoldNoLoneSurrogate(t *testing.T) {
	dir := t.TempDir()
	isolate(t, dir)
	src := recordedStream(t)
	call := `"content":"hi"}`
	if !strings.Contains(src, call) {
		t.Fatal("the recorded stream changed: no Write content to replace")
	}
	db, logs := importStreams(t, dir, map[string]string{"wi-1/work-1-a1b2c3.jsonl": strings.Replace(src, call, `"content":"x\ud83d"}`, 1)})
	for _, format := range []string{"atif", "acp"} {
		out, errOut, code := siftCmd(t, "export", "wi-1/work-1-a1b2c3.jsonl", "--format", format, "--db", db, "--logs", logs)
		if code != 0 || !strings.Contains(out, "x") {
			t.Fatalf("export --format %s: %d %q", format, code, errOut)
		}
		if m := loneSurrogate.FindString(out); m != "" {
			t.Errorf("the %s export holds a lone surrogate: %q", format, m)
		}
	}
}
