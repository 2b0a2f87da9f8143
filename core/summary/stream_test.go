package summary

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
)

func TestTruncatedFile(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../testdata/streams/claude/evolve-2.1.7-run1-write-file.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	in := append(bytes.Join(lines[:3], nil), "[...truncated by 4096 bytes]\n"...)
	sum, _, err := Analyze(bytes.NewReader(in), Options{Agent: string(agents.Claude)})
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Truncated || !hasFlag(sum.Flags, FlagTruncated) || !sum.Flagged {
		t.Errorf("truncated %v, flags %v", sum.Truncated, sum.Flags)
	}
	if sum.Outcome != OutcomeUnknown {
		t.Errorf("status %s, want unknown: the result line was cut off", sum.Outcome)
	}
	if sum.LineCount != 4 || sum.ByteCount != int64(len(in)) {
		t.Errorf("lines %d bytes %d, want 4 %d", sum.LineCount, sum.ByteCount, len(in))
	}
	if sum.ToolCallCount != 1 || sum.ToolCalls[0].Success == nil || !*sum.ToolCalls[0].Success {
		t.Errorf("the tool call before the cut still counts: %+v", sum.ToolCalls)
	}
}

func TestPlaintextFallbackWithStderr(t *testing.T) {
	t.Parallel()
	var in strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&in, "step %d\n", i)
		if i%4 == 0 {
			in.WriteString("\n")
		}
	}
	in.WriteString("Error: could not open config\n")
	in.WriteString("goroutine 1 [running]: PANIC here\n")
	in.WriteString("Traceback (most recent call last):\n")
	in.WriteString("nothing wrong\n")
	// 20 KiB of captured stderr: only the last 8 KiB is folded in.
	for i := range 200 {
		fmt.Fprintf(&in, `{"type":"sift.stderr","text":"stderr line %03d %s"}`+"\n", i, strings.Repeat("x", 80))
	}
	in.WriteString(`{"type":"sift.stderr","text":"FATAL: out of retries"}` + "\n")
	opt := Options{Agent: string(agents.Codex), Start: t0, End: at(60)}
	sum, rev, err := Analyze(strings.NewReader(in.String()), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Plaintext || sum.AgentKind != "codex" {
		t.Errorf("plaintext %v agent %q", sum.Plaintext, sum.AgentKind)
	}
	wantLines := 12 + 3 + 4 + 201
	if sum.LineCount != wantLines || sum.ByteCount != int64(in.Len()) {
		t.Errorf("lines %d bytes %d, want %d %d", sum.LineCount, sum.ByteCount, wantLines, in.Len())
	}
	// Error, PANIC, Traceback, FATAL.
	if sum.ErrorLineCount != 4 {
		t.Errorf("error lines = %d, want 4", sum.ErrorLineCount)
	}
	i64(t, "totalDurationMs", sum.TotalDurationMs, 60_000)
	if len(sum.Tail) != 10 || sum.Tail[9] != "FATAL: out of retries" ||
		!strings.HasPrefix(sum.Tail[0], "stderr line 191 ") {
		t.Errorf("tail = %q", sum.Tail)
	}
	msg := sum.FinalAssistantMessage
	if msg == nil || !strings.HasPrefix(*msg, "[stderr-tail]\n") {
		t.Fatalf("final message = %v", msg)
	}
	tail := strings.TrimPrefix(*msg, "[stderr-tail]\n")
	if len(tail) > StderrTailMax || len(tail) < StderrTailMax-200 {
		t.Errorf("stderr tail is %d bytes, want just under %d", len(tail), StderrTailMax)
	}
	if !strings.HasSuffix(tail, "FATAL: out of retries") || strings.Contains(tail, "stderr line 000") {
		t.Errorf("stderr tail keeps the wrong end: …%q", tail[len(tail)-40:])
	}
	if len(sum.Turns) != 0 || len(rev) != 0 || sum.Outcome != OutcomeUnknown {
		t.Errorf("turns %d, review %d, status %s", len(sum.Turns), len(rev), sum.Outcome)
	}
}

func TestStderrFoldedAfterFinalMessage(t *testing.T) {
	t.Parallel()
	in := `{"type":"sift.stderr","text":"YOLO mode is enabled."}
{"type":"init","timestamp":"2026-01-15T02:53:26.000Z","session_id":"s1","model":"gemini-3-flash-preview"}
{"type":"message","timestamp":"2026-01-15T02:53:27.000Z","role":"assistant","content":"All done.","delta":true}
{"type":"result","timestamp":"2026-01-15T02:53:28.000Z","status":"success","stats":{"total_tokens":10,"input_tokens":8,"output_tokens":2,"duration_ms":2000,"tool_calls":0}}
`
	sum, _, err := Analyze(strings.NewReader(in), Options{Agent: string(agents.Gemini)})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Plaintext {
		t.Error("structured stream taken for plaintext")
	}
	if m := sum.FinalAssistantMessage; m == nil || *m != "All done.\n\n[stderr-tail]\nYOLO mode is enabled." {
		t.Errorf("final = %q", *m)
	}
}
