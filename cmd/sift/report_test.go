package main

import (
	"bytes"
	"context"
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
