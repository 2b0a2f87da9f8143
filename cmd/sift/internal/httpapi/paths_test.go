package httpapi

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidName(t *testing.T) {
	t.Parallel()
	good := []string{"wi-1", "work-1-a1b2c3.jsonl", "audit-llm-security:llm-review-3-d4e5f6.jsonl",
		"abc12345-0000-0000-0000-000000000000", "a", "x@y+z_1"}
	bad := []string{"", ".", "..", "...", ".hidden", "-flag", "a/b", `a\b`, "a..b", "/etc", "a\x00b",
		"C:\\x", "a b", "é", strings.Repeat("a", maxNameLen+1), "%2e%2e"}
	for _, s := range good {
		if !validName(s) {
			t.Errorf("validName(%q) = false, want true", s)
		}
	}
	for _, s := range bad {
		if validName(s) {
			t.Errorf("validName(%q) = true, want false", s)
		}
	}
}

// TestTraversal sends every way out of the logs root we know of, on the
// wire byte for byte, to the stream, list and summary endpoints. None may
// succeed or echo the secret or a path.
func TestTraversal(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	// A file symlink and a directory symlink that lead out of the root,
	// and one that stays inside it.
	must(t, os.Symlink(filepath.Join(e.outside, "secret.jsonl"), filepath.Join(e.logs, "wi-1", "escape-1-aaaaaa.jsonl")))
	must(t, os.Symlink(e.outside, filepath.Join(e.logs, "wi-out")))
	must(t, os.Symlink("../../../outside/secret.jsonl", filepath.Join(e.logs, "wi-1", "rel-1-bbbbbb.jsonl")))
	must(t, os.Symlink(filepath.Join(e.logs, "wi-1", "work-1-a1b2c3.jsonl"), filepath.Join(e.logs, "wi-1", "alias-1-cccccc.jsonl")))

	tests := []struct {
		name   string
		target string
		status int
		code   Code
	}{
		{"dot dot segment", "/workitems/../agent-streams", 400, CodeInvalidPath},
		{"dot dot in file", "/workitems/wi-1/agent-streams/../../outside/secret.jsonl", 400, CodeInvalidPath},
		{"encoded dot dot", "/workitems/%2e%2e/agent-streams", 400, CodeInvalidPath},
		{"encoded dot dot upper", "/workitems/wi-1/agent-streams/%2E%2E/summary", 400, CodeInvalidPath},
		{"half encoded dot dot", "/workitems/wi-1/agent-streams/.%2e", 400, CodeInvalidPath},
		{"encoded slash", "/workitems/wi-1/agent-streams/..%2f..%2foutside%2fsecret.jsonl", 400, CodeInvalidPath},
		{"encoded absolute", "/workitems/wi-1/agent-streams/%2Fetc%2Fpasswd", 400, CodeInvalidPath},
		{"absolute via empty segment", "/workitems/wi-1/agent-streams//etc/passwd", 400, CodeInvalidPath},
		{"absolute work item", "/workitems//etc/agent-streams", 400, CodeInvalidPath},
		{"double encoded", "/workitems/wi-1/agent-streams/%252e%252e", 400, CodeInvalidPath},
		{"backslash", `/workitems/wi-1/agent-streams/..\..\outside\secret.jsonl`, 400, CodeInvalidPath},
		{"encoded backslash", "/workitems/wi-1/agent-streams/..%5c..%5csecret.jsonl", 400, CodeInvalidPath},
		{"NUL", "/workitems/wi-1/agent-streams/work-1-a1b2c3.jsonl%00.txt", 400, CodeInvalidPath},
		{"hidden file", "/workitems/wi-1/agent-streams/.secret", 400, CodeInvalidPath},
		{"three dots", "/workitems/wi-1/agent-streams/...", 400, CodeInvalidPath},
		{"dot work item", "/workitems/./agent-streams", 400, CodeInvalidPath},
		{"symlinked file out", "/workitems/wi-1/agent-streams/escape-1-aaaaaa.jsonl", 404, CodeNotFound},
		{"relative symlink out", "/workitems/wi-1/agent-streams/rel-1-bbbbbb.jsonl", 404, CodeNotFound},
		{"symlink out summary", "/workitems/wi-1/agent-streams/escape-1-aaaaaa.jsonl/summary", 404, CodeNotFound},
		{"symlinked dir out", "/workitems/wi-out/agent-streams/secret.jsonl", 404, CodeNotFound},
		{"symlinked dir out list", "/workitems/wi-out/agent-streams", 404, CodeNotFound},
		{"unknown work item", "/workitems/wi-none/agent-streams", 404, CodeNotFound},
		{"unknown file", "/workitems/wi-1/agent-streams/work-9-ffffff.jsonl", 404, CodeNotFound},
		{"directory as file", "/workitems/wi-1/agent-streams/wi-1", 404, CodeNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			e.wantError(e.raw(tc.target), tc.status, tc.code)
		})
	}
	e.t = t

	// A symlink that stays inside the root is served; the ones leading out
	// are not listed.
	r := e.raw("/workitems/wi-1/agent-streams/alias-1-cccccc.jsonl")
	if r.status != http.StatusOK {
		t.Fatalf("inside symlink: status %d: %s", r.status, r.body)
	}
	l := decode[streamList](t, e.get("/workitems/wi-1/agent-streams"), 200)
	for _, f := range l.Files {
		if strings.HasPrefix(f.FileName, "escape") || strings.HasPrefix(f.FileName, "rel-") {
			t.Errorf("listed %s, a symlink out of the root", f.FileName)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
