package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/summary"
)

// recordedFailures lists, for every recorded stream in testdata with a
// failed tool call, the sentence of each: the failure's own words, the
// line of its output or error that explains it (The why, item 1). A
// stream recorded later with a failed call is added here.
var recordedFailures = map[string][]string{
	"claude/e2e-claude-code-2.1.332-scripted.jsonl": {
		"Bash exited 2: ls: cannot access '/nonexistent-sift-e2e-dir': No such file or directory"},
	"codex/e2e-codex-0.171.0-scripted.jsonl": {
		"command_execution exited 2: ls: cannot access '/nonexistent-sift-e2e-dir': No such file or directory"},
	"gemini/e2e-gemini-cli-0.61.0-scripted.jsonl": {
		"read_file failed: File not found: /tmp/TestE2ECapturegemini1002749861/001/work/missing-notes.txt"},
	"opencode/e2e-opencode-1.18.33-scripted.jsonl": {
		"bash exited 2: ls: cannot access '/nonexistent-sift-e2e-dir': No such file or directory"},
}

// TestRecordedFailuresExplained reads every recorded stream and checks the
// sentence of each failed tool call against recordedFailures.
func TestRecordedFailuresExplained(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../testdata/streams/*/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("recorded streams: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sum, _, err := Analyze(fh, summary.Options{})
		fh.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got []string
		for _, n := range sum.FlagNotes {
			if n.Flag == summary.FlagToolFailed {
				got = append(got, n.Sentence)
			}
		}
		if want := recordedFailures[name]; !slices.Equal(got, want) {
			t.Errorf("%s: failed calls' sentences\n got %q\nwant %q", name, got, want)
		}
		for _, s := range got {
			if strings.Contains(s, "Exit code") {
				t.Errorf("%s: a harness's prefix is the reason: %q", name, s)
			}
		}
	}
}

// TestRecordedFailedRunsHeadlineTheirFatalError reads every recorded
// stream whose harness reported a fatal error: a failed or died run's
// outcome and its harness_error note both quote that error, never a
// warning (Codex's "Model metadata … not found") or a retry before it.
func TestRecordedFailedRunsHeadlineTheirFatalError(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../testdata/streams/*/*.jsonl")
	checked := 0
	for _, f := range files {
		name := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var fatal string
		if _, err := agents.Default().Parse(bytes.NewReader(b), agents.Options{}, func(ev *event.Event) {
			if u := ev.Update; u.SessionUpdate == event.Error && u.Fatal && fatal == "" {
				fatal = u.Message
			}
		}); err != nil {
			t.Fatal(err)
		}
		sum, _, err := Analyze(bytes.NewReader(b), summary.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if fatal == "" || !sum.Outcome.IsFailure() {
			continue
		}
		checked++
		head := fatal[:min(len(fatal), 40)]
		if !strings.Contains(sum.OutcomeEvidence.Sentence, head) {
			t.Errorf("%s: outcome %q, want its fatal error %q", name, sum.OutcomeEvidence.Sentence, head)
		}
		for _, n := range sum.FlagNotes {
			if n.Flag == summary.FlagHarnessError && !strings.Contains(n.Sentence, head) {
				t.Errorf("%s: harness error headline %q, want its fatal error %q", name, n.Sentence, head)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("only %d recorded failed runs with a fatal error", checked)
	}
}

// TestWarningFlagsNothing puts the warning Codex prints on many runs
// (recorded in vincent-turn-failed-model-400.jsonl) into a recorded run
// that succeeded: the run stays completed and unflagged.
func TestWarningFlagsNothing(t *testing.T) {
	t.Parallel()
	failed, err := os.ReadFile("../../testdata/streams/codex/vincent-turn-failed-model-400.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ok, err := os.ReadFile("../../testdata/streams/codex/vincent-0.147.0-reasoning.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	warning := strings.SplitAfter(string(failed), "\n")[1]
	if !strings.Contains(warning, "Model metadata for") {
		t.Fatalf("line 2 of the failed run is not the warning: %s", warning)
	}
	lines := strings.SplitAfter(string(ok), "\n")
	stream := lines[0] + warning + strings.Join(lines[1:], "")
	sum, _, err := Analyze(strings.NewReader(stream), summary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Outcome != summary.OutcomeCompleted || len(sum.FlagNotes) != 0 || len(sum.Flags) != 0 {
		t.Fatalf("a run with a warning: outcome %s, flags %v, notes %+v", sum.Outcome, sum.Flags, sum.FlagNotes)
	}
}

// TestSubagentUsageIsNoMismatch: in the recorded Claude run that starts
// subagents, the calls add up to more than the result line by exactly the
// subagents' usage, which the result line leaves out: a normal difference,
// said in the reconciliation, never the usage_mismatch flag.
func TestSubagentUsageIsNoMismatch(t *testing.T) {
	t.Parallel()
	f, err := os.Open("../../testdata/streams/claude/claude-orchestrator-task-subagent-reserialized.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum, _, err := Analyze(f, summary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(sum.Flags, summary.FlagUsageMismatch) || sum.Reconciliation == nil ||
		!strings.Contains(sum.Reconciliation.Note, "subagents' usage") {
		t.Fatalf("flags %v, reconciliation %+v", sum.Flags, sum.Reconciliation)
	}
}
