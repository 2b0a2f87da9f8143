package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

// reportStore is the demo store with decisions recorded at fixed times:
// one reviewed, one follow-up on a session, one on a tool call, and an
// older one before the window.
func reportStore(t *testing.T) *store.Store {
	t.Helper()
	st := demoStore(t)
	ctx := context.Background()
	page, err := st.ListSessions(ctx, review.Query{Sort: review.SortKey("started"), Full: true})
	if err != nil {
		t.Fatal(err)
	}
	var withCall *review.Session
	for i := range page.Sessions {
		if len(page.Sessions[i].ToolCalls) > 0 && page.Sessions[i].AgentKind == "claude" {
			withCall = &page.Sessions[i]
		}
	}
	ds := []review.Decision{
		{Session: page.Sessions[0].Key(), Kind: review.Reviewed, Reviewer: "ana", Note: "fine", CreatedAt: demoNow.Add(-2 * time.Hour)},
		{Session: page.Sessions[1].Key(), Kind: review.NeedsFollowup, Reviewer: "bo", Note: "rerun the tests", CreatedAt: demoNow.Add(-90 * time.Minute)},
		{Session: withCall.Key(), ToolCallID: withCall.ToolCalls[0].ID, Kind: review.NeedsFollowup, Reviewer: "ana", Note: "why this call?", CreatedAt: demoNow.Add(-time.Hour)},
		{Session: page.Sessions[2].Key(), Kind: review.Ignored, Reviewer: "cy", CreatedAt: demoNow.Add(-72 * time.Hour)},
	}
	for _, d := range ds {
		if err := st.Decide(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// report writes the demo's report in a format, the window the 24 hours
// before demoNow.
func report(t *testing.T, st *store.Store, format string) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := writeReport(context.Background(), st, demoNow, demoNow.Add(-24*time.Hour), format, &out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func TestReportGolden(t *testing.T) {
	st := reportStore(t)
	for _, format := range []string{"md", "json"} {
		t.Run(format, func(t *testing.T) {
			golden.RequireEqual(t, report(t, st, format))
		})
	}
}

// externalRef finds every place an HTML page could load or link to
// something: src and href attributes and CSS url().
var externalRef = regexp.MustCompile(`(?i)(?:src|href)\s*=\s*["']?([^"'\s>]*)|url\(\s*["']?([^"')\s]*)`)

func TestReportHTMLLoadsNothing(t *testing.T) {
	page := report(t, reportStore(t), "html")
	if !bytes.HasPrefix(page, []byte("<!DOCTYPE html>")) {
		t.Fatalf("not an HTML page: %.80s", page)
	}
	refs := externalRef.FindAllSubmatch(page, -1)
	if len(refs) == 0 {
		t.Fatal("the scan found no reference at all; is it scanning?")
	}
	for _, m := range refs {
		ref := string(m[1]) + string(m[2])
		if !strings.HasPrefix(ref, "#") && !strings.HasPrefix(ref, "data:") {
			t.Errorf("the page refers to %q", ref)
		}
	}
	for _, tag := range []string{"<script", "<link", "<img", "<iframe", "@import"} {
		if bytes.Contains(bytes.ToLower(page), []byte(tag)) {
			t.Errorf("the page has %s", tag)
		}
	}
	if len(page) > 64<<10 {
		t.Errorf("the page is %d bytes", len(page))
	}
}

func TestReportEscapesAHostileStream(t *testing.T) {
	dir := t.TempDir()
	hostile := `{"type":"system","subtype":"init","session_id":"s-<b>1</b>","model":"m","cwd":"/w","tools":["Bash"]}
{"type":"assistant","session_id":"s-<b>1</b>","message":{"id":"msg_1","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"echo <script>alert(1)</script> \u001b]52;c;aGk=\u0007 \u001b[2J ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}]}}
{"type":"user","session_id":"s-<b>1</b>","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":true,"content":"<img src=x onerror=alert(2)> \u001b[31mred"}]}}
{"type":"result","subtype":"success","is_error":false,"session_id":"s-<b>1</b>","result":"</style><script>alert(3)</script>"}
`
	stream := filepath.Join(dir, "hostile.jsonl")
	if err := os.WriteFile(stream, []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	st, key, _ := importedStore(t, stream)
	ctx := context.Background()
	if err := st.Decide(ctx, review.Decision{Session: key, Kind: review.NeedsFollowup, Reviewer: "<i>eve</i>", Note: "\x1b]0;pwned\x07 <script>alert(4)</script>"}); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"html", "md", "json"} {
		var out bytes.Buffer
		if err := writeReport(ctx, st, time.Now(), time.Now().Add(-24*time.Hour), format, &out); err != nil {
			t.Fatal(err)
		}
		page := out.String()
		if !strings.Contains(page, "work-1-abc123") || !strings.Contains(page, "pwned") || !strings.Contains(page, "onerror") {
			t.Fatalf("%s: the hostile session, its call or its follow-up is missing:\n%s", format, page)
		}
		for _, bad := range []string{"<script", "<img", "<i>", "<b>", "\x1b", "\x07", "ghp_abcdefghij"} {
			// JSON is data for scripts: markup in its strings is text.
			markup := strings.HasPrefix(bad, "<")
			if strings.Contains(page, bad) && !(markup && format == "json") {
				t.Errorf("%s: %q reached the report", format, bad)
			}
		}
		if format == "json" && !json.Valid(out.Bytes()) {
			t.Error("json: not valid JSON")
		}
	}
}
