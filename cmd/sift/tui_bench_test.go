package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/retention"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
	"github.com/agentsift/sift/tui"
)

// bigSessionCalls is the size of the session the open benchmark opens.
const bigSessionCalls = 2000

// bigStream is a Claude Code stream of n tool calls, four to a turn, one
// in seven failing, each with a few lines of output.
func bigStream(n int) string {
	var b strings.Builder
	sid := "0b7e1f2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b"
	at := time.Date(2026, 11, 29, 2, 0, 0, 0, time.UTC)
	ts := func() string { at = at.Add(700 * time.Millisecond); return at.Format(time.RFC3339Nano) }
	fmt.Fprintf(&b, `{"type":"system","subtype":"init","cwd":"/w","session_id":%q,"model":"claude-x","tools":["Bash"],"timestamp":%q}`+"\n", sid, ts())
	for i := 0; i < n; i += 4 {
		var uses []string
		for j := i; j < min(i+4, n); j++ {
			uses = append(uses, fmt.Sprintf(`{"type":"tool_use","id":"toolu_%06d","name":"Bash","input":{"command":"go test ./pkg%d/... -run Test%d"}}`, j, j, j))
		}
		fmt.Fprintf(&b, `{"type":"assistant","timestamp":%q,"message":{"id":"msg_%06d","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":"Running batch %d."},%s],"usage":{"input_tokens":%d,"output_tokens":40}},"session_id":%q}`+"\n",
			ts(), i, i/4, strings.Join(uses, ","), 1000+i, sid)
		for j := i; j < min(i+4, n); j++ {
			isErr := j%7 == 3
			out := fmt.Sprintf("ok  \tpkg%d\t0.%03ds\n--- PASS: Test%d (0.00s)\nPASS", j, j%1000, j)
			if isErr {
				out = fmt.Sprintf("--- FAIL: Test%d (0.01s)\n    x_test.go:12: got 1, want 2\nFAIL\tpkg%d", j, j)
			}
			content, _ := json.Marshal(out)
			fmt.Fprintf(&b, `{"type":"user","timestamp":%q,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%06d","content":%s,"is_error":%v}]},"session_id":%q}`+"\n",
				ts(), j, content, isErr, sid)
		}
	}
	fmt.Fprintf(&b, `{"type":"result","subtype":"success","is_error":false,"duration_ms":%d,"num_turns":%d,"result":"Done.","session_id":%q,"timestamp":%q}`+"\n",
		n*700, n/4, sid, ts())
	return b.String()
}

// bigSessionStore is a store holding one session of bigSessionCalls
// calls, and that session's key.
func bigSessionStore(b *testing.B) (*store.Store, review.SessionKey) {
	b.Helper()
	dir := b.TempDir()
	logs := filepath.Join(dir, "logs", "WI-BIG")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(logs, "work-1-b16b16.jsonl"), []byte(bigStream(bigSessionCalls)), 0o644); err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "sift.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	if _, err := ingest.Import(context.Background(), st, []string{filepath.Join(dir, "logs")}, ingest.Options{KeepEvents: retention.Policy{}.KeepsEvents}, nil); err != nil {
		b.Fatal(err)
	}
	k := review.SessionKey{WorkItemID: "WI-BIG", FileName: "work-1-b16b16.jsonl"}
	s, err := st.GetSession(context.Background(), k)
	if err != nil || len(s.ToolCalls) != bigSessionCalls {
		b.Fatalf("the big session: %d calls, %v", len(s.ToolCalls), err)
	}
	return st, k
}

// BenchmarkOpenLargeSession measures enter on a 2,000-call session in the
// inbox, from the key to the session's drawn frame (the store's read of
// the whole summary and its decisions, the screen's rows and its first
// frame); "call" then opens its first failed call, the stream re-parsed.
func BenchmarkOpenLargeSession(b *testing.B) {
	st, _ := bigSessionStore(b)
	newApp := func() *tui.App {
		m, err := tui.NewApp(tui.Options{Store: st, Theme: "dark", NoAnimation: true, Resume: resumeOf})
		if err != nil {
			b.Fatal(err)
		}
		sendAll(b, m, tea.WindowSizeMsg{Width: 120, Height: 36})
		runCmd(b, m, m.Init())
		return m
	}
	enter := keyPress("enter")
	b.Run("session", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			m := newApp()
			b.StartTimer()
			sendAll(b, m, enter)
			if v := ansi.Strip(m.View().Content); !strings.Contains(v, "call") {
				b.Fatalf("no session drawn:\n%s", v)
			}
		}
	})
	b.Run("call", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			m := newApp()
			sendAll(b, m, enter)
			b.StartTimer()
			sendAll(b, m, enter, enter)
			if v := ansi.Strip(m.View().Content); !strings.Contains(v, "call 4/2000") {
				b.Fatalf("no call drawn:\n%s", v)
			}
		}
	})
}

// keyToFrame presses a key and runs what it starts, and returns the time
// from the key to the frame that shows its result: the frame drawn after
// the last message it waited for. The messages that fill in around that
// frame later (the title's counts, the preview pane's session) are
// delivered after it, and returned as later; their commands still run
// (they cannot be told apart before), so the time errs long.
func keyToFrame(b *testing.B, m *tui.App, key tea.KeyPressMsg) (frame time.Duration, later []tea.Msg) {
	b.Helper()
	start := time.Now()
	drawn := func() {
		_ = m.View()
		frame = time.Since(start)
	}
	_, cmd := m.Update(key)
	drawn()
	later = drain(b, m, cmd, func(msg tea.Msg) bool {
		t := fmt.Sprintf("%T", msg)
		return t == "tui.countsLoadedMsg" || t == "tui.previewLoadedMsg"
	}, drawn)
	return frame, later
}

// BenchmarkKeypressRedraw measures keypresses on the 100,000-session store
// at 120×36 (the preview pane on), each from the key to the frame that
// shows its result, with the commands that frame waits for run (a page
// read; a new order's or filter's search for the selected session; the
// next undecided session's search), and reports the median and the 99th
// percentile. The title's counts and the preview pane's session fill in
// after that frame; "settled" times them too. Each key has its
// sub-benchmark.
func BenchmarkKeypressRedraw(b *testing.B) {
	st := benchStore(b)
	defer st.Close()
	km := tui.DefaultKeyMap()
	k := func(bd interface{ Keys() []string }) string { return bd.Keys()[0] }
	for _, tc := range []struct {
		name string
		key  string
	}{
		{"down", k(km.Down)},
		{"page-down", k(km.PageDown)},
		{"sort", k(km.Sort)},
		{"flagged", k(km.Flagged)},
		{"next-undecided", k(km.NextTodo)},
		{"preview", k(km.Preview)},
		{"mark", k(km.Mark)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m, err := tui.NewApp(tui.Options{Store: st, Theme: "dark", NoAnimation: true, Resume: resumeOf})
			if err != nil {
				b.Fatal(err)
			}
			sendAll(b, m, tea.WindowSizeMsg{Width: 120, Height: 36})
			runCmd(b, m, m.Init())
			frame := make([]time.Duration, 0, b.N)
			settled := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				f, later := keyToFrame(b, m, keyPress(tc.key))
				frame = append(frame, f)
				sendAll(b, m, later...)
				settled = append(settled, time.Since(start))
			}
			b.StopTimer()
			pct := func(ts []time.Duration, p int) float64 {
				slices.Sort(ts)
				return float64(ts[(len(ts)-1)*p/100].Microseconds()) / 1000
			}
			b.ReportMetric(pct(frame, 50), "p50-ms")
			b.ReportMetric(pct(frame, 99), "p99-ms")
			b.ReportMetric(pct(settled, 99), "settled-p99-ms")
		})
	}
}
