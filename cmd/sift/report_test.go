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

	"github.com/agentsift/sift/cmd/sift/internal/app"
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
	if err := app.WriteReport(context.Background(), st, demoNow, demoNow.Add(-24*time.Hour), format, &out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestReportGolden: the report of the demo store with its decisions, in
// each format (go test ./cmd/sift -run TestReportGolden -update rewrites
// them; review the diff).
func TestReportGolden(t *testing.T) {
	st := reportStore(t)
	for _, format := range []string{"md", "html", "json"} {
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

// TestReportHTMLIsAPage: the HTML report is not the Markdown in tags:
// each run left to review is an article coloured by its outcome (failed
// and died red, interrupted amber) with an anchor per run, ids of hex
// digits only and each once, and the stalls table links its run to that
// anchor.
func TestReportHTMLIsAPage(t *testing.T) {
	page := string(report(t, reportStore(t), "html"))
	ids := regexp.MustCompile(`id="([^"]*)"`).FindAllStringSubmatch(page, -1)
	seen := map[string]bool{}
	runs := 0
	for _, m := range ids {
		if seen[m[1]] {
			t.Errorf("id %q twice", m[1])
		}
		seen[m[1]] = true
		if strings.HasPrefix(m[1], "run-") {
			runs++
			if !regexp.MustCompile(`^run-[0-9a-f]{12}$`).MatchString(m[1]) {
				t.Errorf("anchor %q is not run- and 12 hex digits", m[1])
			}
		}
	}
	if runs != 4 {
		t.Errorf("%d run anchors, want one for each of the 4 runs left to review", runs)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`<article class="o-failed">\n<p><span class="badge">failed</span>`),
		regexp.MustCompile(`<article class="o-interrupted">\n<p><span class="badge">interrupted</span>`),
		regexp.MustCompile(`<td><a href="#(run-[0-9a-f]{12})">ENG-398 · work-1</a></td><td>droid</td><td class="n">33s</td>`),
		regexp.MustCompile(`\.o-failed \.badge[^{]*\{color:var\(--red\)`),
	} {
		m := want.FindStringSubmatch(page)
		if m == nil {
			t.Errorf("the page has no %s", want)
		} else if len(m) > 1 && !seen[m[1]] {
			t.Errorf("the stall links to %s, which is not on the page", m[1])
		}
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
	// The report before the decision lists the session to review with its
	// failed call; after it, its follow-up and the decision.
	reports := func() map[string]string {
		out := map[string]string{}
		for _, format := range []string{"html", "md", "json"} {
			var b bytes.Buffer
			if err := app.WriteReport(ctx, st, time.Now(), time.Now().Add(-24*time.Hour), format, &b); err != nil {
				t.Fatal(err)
			}
			if format == "json" && !json.Valid(b.Bytes()) {
				t.Error("json: not valid JSON")
			}
			out[format] = b.String()
		}
		return out
	}
	before := reports()
	if err := st.Decide(ctx, review.Decision{Session: key, Kind: review.NeedsFollowup, Reviewer: "<i>eve</i>", Note: "\x1b]0;pwned\x07 <script>alert(4)</script>"}); err != nil {
		t.Fatal(err)
	}
	after := reports()
	for format, page := range before {
		if !strings.Contains(page, "work-1-abc123") || !strings.Contains(page, "onerror") || !strings.Contains(after[format], "pwned") {
			t.Fatalf("%s: the hostile session, its call or its follow-up is missing:\n%s\n%s", format, page, after[format])
		}
		page += after[format]
		if format == "md" {
			// Markdown shows stream text with markup in code spans,
			// which no renderer reads as markup.
			page = withoutCodeSpans(page)
		}
		for _, bad := range []string{"<script", "<img", "<i>", "<b>", "\x1b", "\x07", "ghp_abcdefghij"} {
			// JSON is data for scripts: markup in its strings is text.
			markup := strings.HasPrefix(bad, "<")
			if strings.Contains(page, bad) && !(markup && format == "json") {
				t.Errorf("%s: %q reached the report", format, bad)
			}
		}
	}
}

// demoDB is the demo store (seedDemo at demoNow) as a database file, for
// running commands on it.
func demoDB(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config")) // no user configuration
	db := filepath.Join(dir, "demo.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := seedDemo(context.Background(), st, dir, demoNow); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestReportFailOn: `sift report --fail-on QUERY` writes the report and
// exits 1 when a run of the window matches the search query, naming each
// on stderr; 0 when none does, the query matching runs outside the window
// only, or no --fail-on.
func TestReportFailOn(t *testing.T) {
	db := demoDB(t)
	since := demoNow.Add(-24 * time.Hour).Format("2006-01-02")
	out, errOut, code := siftCmd(t, "report", "--db", db, "--since", since, "--fail-on", "outcome:failed")
	if code != 1 || !strings.HasPrefix(out, "# sift report") {
		t.Fatalf("--fail-on outcome:failed: exit %d, want 1 after the report:\n%s\n%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(lines) != 2 || lines[0] != "sift report: --fail-on outcome:failed matched 1 run:" ||
		strings.Fields(lines[1])[0] != "ENG-398/rework-1-9a8b7c.jsonl" || strings.Fields(lines[1])[1] != "failed" {
		t.Errorf("stderr does not name the failed run, one line each:\n%s", errOut)
	}
	_, errOut, code = siftCmd(t, "report", "--db", db, "--since", since, "--fail-on", "agent:droid flag:approval")
	if names := strings.Count(errOut, "\n  "); code != 1 || names != 1 || !strings.Contains(errOut, "matched 1 run:") {
		t.Errorf("--fail-on agent:droid flag:approval: exit %d, %d names:\n%s", code, names, errOut)
	}
	for _, tc := range []struct{ name, since, query string }{
		{"nothing matches", since, "agent:qwen outcome:failed"},
		{"a match outside the window", demoNow.Add(48 * time.Hour).Format("2006-01-02"), "outcome:failed"},
		{"no --fail-on", since, ""},
	} {
		args := []string{"report", "--db", db, "--since", tc.since}
		if tc.query != "" {
			args = append(args, "--fail-on", tc.query)
		}
		out, errOut, code := siftCmd(t, args...)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "# sift report") {
			t.Errorf("%s: exit %d, want 0 with the report and nothing on stderr:\n%s", tc.name, code, errOut)
		}
	}
}

// withoutCodeSpans is Markdown text with its inline code spans (a run of
// backticks, up to the next run as long) left out.
func withoutCodeSpans(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			return b.String() + s
		}
		b.WriteString(s[:i])
		n := len(s[i:]) - len(strings.TrimLeft(s[i:], "`"))
		fence, rest := s[i:i+n], s[i+n:]
		end := -1
		for j := 0; j < len(rest); {
			k := strings.Index(rest[j:], fence)
			if k < 0 {
				break
			}
			k += j
			m := len(rest[k:]) - len(strings.TrimLeft(rest[k:], "`"))
			if m == n {
				end = k
				break
			}
			j = k + m
		}
		if end < 0 {
			return b.String() + s[i:]
		}
		s = rest[end+n:]
	}
}
