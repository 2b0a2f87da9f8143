package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/capture"
	"github.com/agentsift/sift/core/config"
	"github.com/agentsift/sift/core/layout"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/core/textsafe"
)

// runUsage is the usage line of `sift run`.
const runUsage = "run --agent KIND [--work-item ID] [--phase P] [--iteration N] [--bin PATH] [--] ARGS…   run an agent CLI, capture its stream, summarize; exit with its code"

// exitNoAgent is the exit status when the agent cannot be started, as a
// shell's for a command it cannot find.
const exitNoAgent = 127

// runRun implements `sift run`: it launches the agent CLI with its
// streaming flags, captures its output into the logs folder, records the
// invocation in the store, summarizes the stream, prints a one-line
// summary on stderr and exits with the agent's exit code.
func runRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	sf := addStoreFlags(fs)
	agent := fs.String("agent", "", "agent kind: "+strings.Join(kindNames(), ", "))
	workItem := fs.String("work-item", "", "work item id (default: a new run-<time>-<hex> id per run)")
	phase := fs.String("phase", "work", "phase: work, rework, merge, audit-llm-<auditor>")
	iteration := fs.Int("iteration", 1, "audit-loop iteration (work and merge always use 1)")
	bin := fs.String("bin", "", "agent executable (default: the configuration's Agents.<kind>.Binary, else the CLI on PATH)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printHelp(stdout, fs)
			return 0
		}
		if strings.HasPrefix(err.Error(), "flag provided but not defined") {
			err = fmt.Errorf("%w (the agent's own flags go after --)", err)
		}
		return fail(stderr, "run", err)
	}
	if *agent == "" {
		return fail(stderr, "run", fmt.Errorf("--agent is required (one of %s)", strings.Join(kindNames(), ", ")))
	}
	cli, err := capture.LookupCLI(*agent)
	if err != nil {
		return fail(stderr, "run", err)
	}
	if err := sf.Load(); err != nil {
		return fail(stderr, "run", err)
	}
	wi := *workItem
	if wi == "" {
		wi = newWorkItemID(time.Now())
	}
	for _, c := range [][2]string{{"work item", wi}, {"phase", *phase}} {
		if err := layout.CheckName(c[0], c[1]); err != nil {
			return fail(stderr, "run", err)
		}
	}
	cfg := sf.Cfg
	cfg.Path = sf.Logs
	switch {
	case cfg.Enabled && sf.LogsSet:
		if err := config.CheckDirWritable(cfg.Path); err != nil {
			return fail(stderr, "run", fmt.Errorf("--logs %w", err))
		}
	case cfg.Enabled:
		if err := cfg.CheckWritable(); err != nil {
			return fail(stderr, "run", err)
		}
	}
	warn := func(msg string) { fmt.Fprintf(stderr, "sift run: warning: %s\n", textsafe.Inert(msg)) }
	res, sum, err := app.Run(context.Background(), app.RunSpec{Env: &sf.Env, CLI: cli, WorkItem: wi, Phase: *phase,
		Iteration: capture.Iteration(*phase, *iteration), Bin: *bin, Args: fs.Args(),
		Stdin: stdin, Stdout: stdout, Stderr: stderr, Warn: warn})
	if err != nil {
		fmt.Fprintf(stderr, "sift run: %s\n", textsafe.Inert(err.Error()))
		return exitNoAgent
	}
	fmt.Fprintln(stderr, summaryLine(cli, res, sum))
	return res.ExitCode
}

// summaryLine is the one line `sift run` prints when the agent is done.
func summaryLine(cli capture.CLI, res capture.Result, s *summary.Summary) string {
	parts := []string{fmt.Sprintf("sift run: %s exit %d after %s", cli.Kind, res.ExitCode,
		res.End.Sub(res.Start).Round(100*time.Millisecond))}
	if s != nil {
		failed := 0
		for _, c := range s.ToolCalls {
			if c.Success != nil && !*c.Success {
				failed++
			}
		}
		calls := plural(s.ToolCallCount, "tool call")
		if failed > 0 {
			calls += fmt.Sprintf(" (%d failed)", failed)
		}
		parts = append(parts, calls)
		if s.InputTokens != nil || s.OutputTokens != nil {
			parts = append(parts, fmt.Sprintf("%s in / %s out tokens", tokens(s.InputTokens), tokens(s.OutputTokens)))
		}
		if s.EstimatedUSD != nil {
			parts = append(parts, fmt.Sprintf("$%.4f", *s.EstimatedUSD))
		}
		if s.StallCount > 0 {
			parts = append(parts, plural(s.StallCount, "stall"))
		}
		if len(s.Flags) > 0 {
			fl := make([]string, len(s.Flags))
			for i, f := range s.Flags {
				fl[i] = string(f)
			}
			parts = append(parts, "flags: "+strings.Join(fl, ","))
		}
	}
	if res.Dropped > 0 {
		parts = append(parts, fmt.Sprintf("file truncated by %d bytes", res.Dropped))
	}
	if res.SkippedLines > 0 {
		parts = append(parts, plural(int(res.SkippedLines), "line")+" not redacted in time, left out of the file")
	}
	if res.File != "" {
		parts = append(parts, res.File)
	} else {
		parts = append(parts, "not captured")
	}
	return strings.Join(parts, " · ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// tokens formats a token count, "?" when unknown.
func tokens(n *int64) string {
	switch {
	case n == nil:
		return "?"
	case *n >= 10_000:
		return fmt.Sprintf("%.1fk", float64(*n)/1000)
	default:
		return fmt.Sprint(*n)
	}
}

// kindNames lists the agent kinds `sift run` launches.
func kindNames() []string {
	var out []string
	for k := range capture.CLIs() {
		out = append(out, string(k))
	}
	slices.Sort(out)
	return out
}

// newWorkItemID names the work item of a run that was given none:
// run-<UTC time>-<4 hex>, so each ad-hoc run is its own work item.
func newWorkItemID(now time.Time) string {
	var b [2]byte
	rand.Read(b[:]) //nolint:errcheck // crypto/rand does not fail
	return "run-" + now.UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}
