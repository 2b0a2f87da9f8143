package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// wideRows are sessions wide enough to need fitting: a long session key,
// many flags, every figure.
func wideRows() []review.Session {
	start := time.Date(2026, 11, 29, 7, 12, 0, 0, time.UTC)
	usd, dur, in := 0.3531, int64(62_000), int64(271_000)
	var rows []review.Session
	for i, wi := range []string{"ENG-412", "audit-llm-security-and-more"} {
		s := review.Session{Summary: summary.Summary{WorkItemID: wi, FileName: "rework-2-c3d4e5f6a7b8.jsonl", AgentKind: "claude",
			Outcome: summary.OutcomeFailed, EstimatedUSD: &usd, TotalDurationMs: &dur, InputTokens: &in, ToolCallCount: 36 + i,
			Flags: []summary.Flag{"approval_required", "tool_failed", "stall"}}}
		if i == 0 {
			s.StartedAt = &start
		} else {
			s.ActiveAt = &start
		}
		rows = append(rows, s)
	}
	return rows
}

// TestListTableFits: sift list's table fits the width it is given, cutting
// the flags and the session and leaving out the counts first, and is
// whole without one (a pipe); a session without a start shows its file's
// time, marked (issue 29, item 9).
func TestListTableFits(t *testing.T) {
	t.Parallel()
	var whole bytes.Buffer
	writeTable(&whole, wideRows(), 0)
	lines := strings.Split(strings.TrimSuffix(whole.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "APPROVALS") || !strings.Contains(lines[2], "audit-llm-security-and-more/rework-2-c3d4e5f6a7b8.jsonl") ||
		!strings.Contains(lines[1], "approval_required,tool_failed,stall") || !strings.Contains(lines[2], " ~"+wideRows()[1].ActiveAt.Local().Format("2006-01-02 15:04")+" ") {
		t.Fatalf("the whole table:\n%s", whole.String())
	}
	widest := 0
	for _, l := range lines {
		widest = max(widest, ansi.StringWidth(l))
	}
	for _, tc := range []struct {
		width   int
		header  string
		cutKeys bool
	}{
		{widest, "SESSION  AGENT  OUTCOME  STARTED  DURATION  COST  TOKENS  TOOLS  STALLS  ERRORS  APPROVALS  FLAGS  DECISION", false},
		{140, "SESSION  AGENT  OUTCOME  STARTED  DURATION  COST  TOKENS  FLAGS  DECISION", true},
		{100, "SESSION  AGENT  OUTCOME  COST  FLAGS  DECISION", true},
		{80, "SESSION  AGENT  OUTCOME  COST  FLAGS  DECISION", true},
		{40, "SESSION", true},
	} {
		var b bytes.Buffer
		writeTable(&b, wideRows(), tc.width)
		got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		for _, l := range got {
			if w := ansi.StringWidth(l); w > tc.width || strings.HasSuffix(l, " ") {
				t.Errorf("width %d: a line of %d cells, or with trailing spaces: %q", tc.width, w, l)
			}
		}
		if h := strings.Join(strings.Fields(got[0]), "  "); !strings.HasPrefix(h, tc.header) {
			t.Errorf("width %d: columns %q, want %q", tc.width, h, tc.header)
		}
		if cut := strings.Contains(got[2], "…"); cut != tc.cutKeys {
			t.Errorf("width %d: the session cut %v, want %v:\n%s", tc.width, cut, tc.cutKeys, b.String())
		}
	}
}

// TestTerminalWidth: a table written to a pipe or a buffer gets no width,
// whatever $COLUMNS says: only a terminal is fitted.
func TestTerminalWidth(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for name, out := range map[string]any{"pipe": w, "file": f, "buffer": &bytes.Buffer{}} {
		if got := terminalWidth(out.(interface{ Write([]byte) (int, error) })); got != 0 {
			t.Errorf("%s: width %d, want 0", name, got)
		}
	}
}

// TestListNoMatches: an empty list says so in words rather than printing a
// header alone (issue 29, item 8).
func TestListNoMatches(t *testing.T) {
	t.Parallel()
	flags := searchDemo(t)
	if out, _, code := siftCmd(t, append([]string{"list", "--agent", "nobody"}, flags...)...); code != 0 || out != "no matches\n" {
		t.Errorf("list --agent nobody: %d %q", code, out)
	}
	if out, _, code := siftCmd(t, append([]string{"list", "--agent", "nobody", "--json"}, flags...)...); code != 0 || out != "[]\n" {
		t.Errorf("list --json of nothing: %d %q", code, out)
	}
	dir := t.TempDir()
	empty := []string{"list", "--db", filepath.Join(dir, "sift.db"), "--config", flags[3]}
	if out, _, code := siftCmd(t, empty...); code != 0 || !strings.HasPrefix(out, "no matches (no sessions stored: sift import PATH") {
		t.Errorf("list of an empty store: %d %q", code, out)
	}
}
