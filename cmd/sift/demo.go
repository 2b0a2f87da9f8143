package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agentsift/sift/core/retention"

	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
	"github.com/agentsift/sift/tui"
)

// demoStreams are real recorded agent streams (copies of testdata/streams,
// see testdata/streams/SOURCES.md), laid out as a logs folder:
// streams/<workItem>/<phase>-<iteration>-<hex6>.jsonl.
//
//go:embed demo/streams
var demoStreams embed.FS

// demoRun gives a sample stream the invocation record that `sift run`
// would have written for it: the agent, a window last night (so that
// timestamp-less streams get durations and stalls), the exit code, the
// folder it ran in, and the user's arguments to the agent, its prompt and
// the model it asked for (read from them as sift run reads them).
type demoRun struct {
	workItem, file, agent string
	// ago is how long before now the run started; minutes how long it ran.
	ago     time.Duration
	minutes int
	exit    int
	// dir is the folder the agent ran in: the one its stream records or
	// works in where it names one.
	dir string
	// args are the user's arguments to the agent (sift run's after --).
	args []string
}

// demoRuns lists the sample streams' invocations. Each asks for the model
// its stream names, or, where the stream names none (codex exec --json
// prints no model, opencode's run events neither), one its CLI takes.
func demoRuns() []demoRun {
	const ws = "/home/user/workspace" // the evolve SDK's sandbox folder
	return []demoRun{
		{"ENG-412", "rework-2-a1b2c3.jsonl", "claude", 6 * time.Hour, 30, 0, "/home/dev/Claude-Orchestrator",
			[]string{"--model", "claude-haiku-4-5-20251001", "Use a subagent to find the Python files in this project"}},
		{"ENG-412", "work-1-0f3e2d.jsonl", "claude", 7 * time.Hour, 16, 0, ws,
			[]string{"--model", "claude-opus-4-5-20251101", "Take a screenshot of the page with the browser skill and describe it"}},
		{"ENG-398", "work-1-5c6d7e.jsonl", "droid", 8 * time.Hour, 2, 0, "/Users/tempuser/projects/droid-simple",
			[]string{"--model", "gpt-5-codex", "Add another sorting algorithm to sorting_algorithms.py in the same style"}},
		{"ENG-398", "rework-1-9a8b7c.jsonl", "droid", 5 * time.Hour, 1, 1, "/Users/tempuser/projects/vibe-kanban",
			[]string{"--model", "gpt-5-codex", "Create a file a.txt containing the single character a"}},
		{"ENG-398", "merge-1-3c4d5e.jsonl", "gemini", 4 * time.Hour, 1, 0, ws,
			[]string{"--model", "gemini-3-flash-preview", "Write notes.txt and remember where it is"}},
		{"ENG-401", "audit-llm-security-1-1a2b3c.jsonl", "gemini", 5 * time.Hour, 1, 0, ws,
			[]string{"--model", "gemini-3-flash-preview", "Check the files you wrote and run them"}},
		{"ENG-401", "work-1-4d5e6f.jsonl", "gemini", 6 * time.Hour, 1, 0, ws,
			[]string{"--model", "gemini-3-flash-preview", "Create a file called background-test.txt with 'Background run completed'"}},
		{"ENG-377", "merge-1-7e8f9a.jsonl", "opencode", 3 * time.Hour, 1, 0, "/work/probe",
			[]string{"--model", "anthropic/claude-sonnet-4-5", "Look for hello with the codegraph tool"}},
		{"ENG-377", "work-1-2b3c4d.jsonl", "codex", 4 * time.Hour, 3, 0, "/Users/banteg/dev/banteg/agents/takopi",
			[]string{"--model", "gpt-5.1-codex", "Explain what this project does and how the bridge works"}},
		{"ENG-420", "work-1-6a7b8c.jsonl", "codex", 2 * time.Hour, 1, 1, "/home/dev/vincent",
			[]string{"--model", "gpt-5.6-sol", "Fix the failing permission test"}},
		{"ENG-420", "work-2-c0ffee.jsonl", "claude", 90 * time.Minute, 1, 0, "/home/dev/vincent",
			[]string{"--model", "claude-haiku-4-5-20251001", "Write the fixture file for the permission test"}},
		{"ENG-433", "work-1-b16b00.jsonl", "copilot", 3 * time.Hour, 9, 0, "/home/dev/firaga-io",
			[]string{"--model", "claude-haiku-4.5", "Read prompt.md and add the output format it asks for"}},
		{"ENG-433", "work-2-d00d1e.jsonl", "qwen", 150 * time.Minute, 2, 0, ws,
			[]string{"--model", "dashscope/qwen3-coder-plus", "Run the scripts in the workspace and fix what fails"}},
		{"ENG-433", "rework-1-e1f2a3.jsonl", "codex", 100 * time.Minute, 6, 0, ws,
			[]string{"--model", "gpt-5.1-codex", "Append 1234 to helloworld.txt and build a simple DCF model in Excel"}},
	}
}

// runDemo implements `sift demo [--db PATH]`: the inbox on a store filled
// from the embedded sample streams, temporary unless --db names one.
func runDemo(args []string, _ io.Reader, _, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "keep the demo store in this file (default: a temporary one)")
	inf := addInboxFlags(fs)
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "demo", err)
	}
	if err := inf.check(); err != nil {
		return fail(stderr, "demo", err)
	}
	// A closed terminal (SIGHUP) or a kill stops the demo as q does, so
	// that its temporary folder goes; from here on, before the inbox
	// shows too.
	ctx, cancel := stopContext()
	defer cancel()
	st, cleanup, err := openDemo(ctx, *db)
	if err != nil {
		return fail(stderr, "demo", err)
	}
	defer cleanup()
	opts := inf.options(app.Store{Store: st}, "")
	opts.Title = "sift demo"
	app, err := tui.NewApp(opts)
	if err != nil {
		return fail(stderr, "demo", err)
	}
	if _, err := newProgram(app, ctx).Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return fail(stderr, "demo", err)
	}
	return 0
}

// openDemo opens the demo store: at dbPath (its streams in a folder next
// to it) or in a temporary folder removed by cleanup. A store that already
// holds sessions is opened as it is, decisions and all.
func openDemo(ctx context.Context, dbPath string) (*store.Store, func(), error) {
	cleanup := func() {}
	var dir string
	if dbPath == "" {
		tmp, err := os.MkdirTemp("", "sift-demo-*")
		if err != nil {
			return nil, cleanup, err
		}
		dir, dbPath = tmp, filepath.Join(tmp, "demo.db")
		cleanup = func() { os.RemoveAll(tmp) }
	} else {
		abs, err := filepath.Abs(dbPath)
		if err != nil {
			return nil, cleanup, err
		}
		dbPath = abs
		dir = strings.TrimSuffix(abs, filepath.Ext(abs)) + "-streams"
	}
	st, err := store.Open(dbPath)
	if err != nil {
		cleanup()
		return nil, func() {}, err
	}
	done := func() { st.Close(); cleanup() }
	n, err := st.CountSessions(ctx, review.Query{})
	if err == nil && n == 0 {
		err = seedDemo(ctx, st, dir, time.Now())
	}
	if err != nil {
		done()
		return nil, func() {}, fmt.Errorf("fill the demo store: %w", err)
	}
	return st, done, nil
}

// seedDemo writes the sample streams under dir/logs, records their
// invocations and summarizes them.
func seedDemo(ctx context.Context, st *store.Store, dir string, now time.Time) error {
	logs := filepath.Join(dir, "logs")
	sub, err := fs.Sub(demoStreams, "demo/streams")
	if err != nil {
		return err
	}
	if err := os.CopyFS(logs, sub); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("write sample streams: %w", err)
	}
	var items []string
	for _, r := range demoRuns() {
		phase, iter := splitDemoName(r.file)
		start := now.Add(-r.ago)
		exit := r.exit
		// The model as sift run reads it at the start, from the
		// arguments alone here (no environment, no configuration file):
		// none for a CLI whose model sift does not read (droid,
		// copilot, qwen), whose stream names it.
		model, err := agents.InvocationModel(agents.Kind(r.agent), agents.Launch{Args: r.args})
		if err != nil {
			return err
		}
		_, err = st.RecordInvocation(ctx, store.Invocation{
			WorkItemID: r.workItem, Phase: phase, Iteration: iter, AgentKind: r.agent,
			File: filepath.Join(logs, r.workItem, r.file), Start: start,
			End: start.Add(time.Duration(r.minutes) * time.Minute), ExitCode: &exit,
			Cwd: r.dir, Model: model.Name, ModelSource: model.Source, Args: r.args,
		})
		if err != nil {
			return err
		}
		if len(items) == 0 || items[len(items)-1] != r.workItem {
			items = append(items, r.workItem)
		}
	}
	for _, wi := range items {
		res, err := ingest.CompleteWorkItem(ctx, st, wi, []string{logs}, ingest.Options{KeepEvents: retention.Policy{}.KeepsEvents})
		if err != nil {
			return err
		}
		if err := res.Err(); err != nil {
			return err
		}
	}
	return nil
}

// splitDemoName reads `<phase>-<iteration>-<hex6>.jsonl`.
func splitDemoName(name string) (string, int) {
	stem := strings.TrimSuffix(name, ".jsonl")
	i := strings.LastIndexByte(stem, '-')
	j := strings.LastIndexByte(stem[:i], '-')
	n, _ := strconv.Atoi(stem[j+1 : i])
	return stem[:j], n
}
