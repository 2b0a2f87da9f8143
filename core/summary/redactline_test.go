package summary

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/event"
)

// TestSecretAtTheCutIsRedactedInTurnText puts a token across the byte where a
// summary cuts a line (maxLine): the turn's text, its review event and a
// tool call's input summary must show none of it. Cut first and redacted
// after, the part before the cut is shorter than the token's shape and
// passed.
func TestSecretAtTheCutIsRedactedInTurnText(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("aB3dE5fG7h", 4)[:36]
	tok := "ghp_" + body
	for lead := maxLine - 30; lead <= maxLine-5; lead++ {
		msg := strings.Repeat("x", lead) + " " + tok + " done"
		cmd, _ := json.Marshal(map[string]string{"command": "echo " + msg})
		var s stream
		s.add(time.Time{}, event.Update{SessionUpdate: event.SessionStart})
		for i := 0; i < len(msg); i += 9 {
			s.add(time.Time{}, text(msg[i:min(i+9, len(msg))]))
		}
		s.add(time.Time{}, call("toolu_1", "Bash", string(cmd)))
		s.add(time.Time{}, done("toolu_1", "ok"))
		sum, rev := s.summarize(t, Options{})
		shown := []string{sum.Turns[0].Text, sum.ToolCalls[0].InputSummary}
		for _, r := range rev {
			shown = append(shown, r.Summary)
		}
		for _, v := range shown {
			if strings.Contains(v, body[:10]) {
				t.Fatalf("lead %d: part of the token shown: %q", lead, v)
			}
		}
	}
}

func TestRedactLineKeepsFirstLine(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("y", maxLine+10)
	for _, tc := range []struct{ in, want string }{
		{"  hello\nworld", "hello …"},
		{"hello\n\n  ", "hello"},
		{long, long[:maxLine] + "…"},
		{"password=hunter2 and more\nnext", "password=[REDACTED:password] and more …"},
	} {
		if got := redactLine(tc.in); got != tc.want {
			t.Errorf("redactLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// redactLine returns the first non-empty line of s, redacted before it is
// cut at maxLine bytes (see clipLine), as a turn's text and a response's
// review event summary are.
func redactLine(s string) string { return clipLine(s, maxLine) }
