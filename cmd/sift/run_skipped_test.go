package main

import (
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/capture"
)

// TestSummaryLineNamesSkippedLines checks that the line sift run prints at
// the end says when lines were left out of the file because the redactor
// did not get to them in time.
func TestSummaryLineNamesSkippedLines(t *testing.T) {
	t.Parallel()
	cli, err := capture.LookupCLI("claude")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res := capture.Result{Start: start, End: start.Add(time.Second), ExitCode: 143, File: "/logs/wi/work-1-abcdef.jsonl",
		SkippedLines: 3, Skipped: 120}
	got := summaryLine(cli, res, nil)
	if !strings.Contains(got, " · 3 lines not redacted in time, left out of the file · ") {
		t.Errorf("summary line %q", got)
	}
	res.SkippedLines = 0
	if got := summaryLine(cli, res, nil); strings.Contains(got, "redacted") {
		t.Errorf("summary line %q names skipped lines when there are none", got)
	}
}
