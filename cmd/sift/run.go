package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/capture"
	"github.com/agentsift/sift/core/config"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/core/textsafe"
	"github.com/agentsift/sift/store"
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
			fmt.Fprintln(stdout, "usage: sift "+runUsage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
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
		if err := capture.CheckName(c[0], c[1]); err != nil {
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
	r := &invocationRun{sf: sf, cfg: cfg, cli: cli, stderr: stderr, workItem: wi, phase: *phase,
		iteration: capture.Iteration(*phase, *iteration)}
	return r.run(fs.Args(), *bin, stdin, stdout)
}

// invocationRun is one `sift run`: the agent, the store it is recorded in
// and the warnings it printed.
type invocationRun struct {
	sf        *storeFlags
	cfg       config.Config
	cli       capture.CLI
	stderr    io.Writer
	workItem  string
	phase     string
	iteration int

	st    *store.Store
	invID int64
	rec   bool
	// model is the model the invocation asks for, read at its start.
	model capture.Model
	// live follows the stream file while the agent runs (live.go).
	live *liveRun
	// headBefore is the git HEAD of the agent's working directory, read
	// before the agent starts; "" when it is not in a work tree.
	headBefore string
}

// invocationModel reads the model the agent is asked to use, from the
// user's arguments, the agent's environment and its CLI's configuration
// files; a file that cannot be read is a warning and no model.
func (r *invocationRun) invocationModel(args []string, spec capture.Spec) capture.Model {
	dir := spec.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	m, err := capture.InvocationModel(r.cli.Kind, capture.Launch{
		Args: args, Env: append(os.Environ(), spec.Env...), Dir: dir})
	if err != nil {
		r.warn("model: %v", err)
	}
	return m
}

func (r *invocationRun) run(args []string, bin string, stdin io.Reader, stdout io.Writer) int {
	ctx := context.Background()
	r.openStore()
	if r.st != nil {
		defer r.st.Close()
	}
	sweepDone := r.sweep(ctx)
	override := r.agentConfig()
	if bin == "" {
		bin = override.Binary
	}
	spec := capture.Spec{
		CLI: r.cli, Binary: bin, Args: args, Env: envList(override.Env),
		Enabled: r.cfg.Enabled, Root: r.cfg.Path, WorkItem: r.workItem, Phase: r.phase, Iteration: r.iteration,
		MaxFileBytes: r.cfg.MaxFileBytes(), Stdin: stdin, Stdout: stdout, Stderr: r.stderr,
	}
	// The model is read now, as the agent starts: its arguments, its
	// environment and its CLI's configuration at this moment.
	r.model = r.invocationModel(args, spec)
	spec.OnStart = func(file string, start time.Time) {
		r.record(file, start, spec.Dir)
		r.startLive(file, start)
	}
	if r.st != nil {
		r.headBefore = gitHead(ctx, agentDir(spec.Dir))
	}
	res, err := capture.Run(ctx, spec)
	r.stopLive()
	if err != nil {
		<-sweepDone
		fmt.Fprintf(r.stderr, "sift run: %s\n", textsafe.Inert(err.Error()))
		return exitNoAgent
	}
	if r.headBefore != "" {
		r.recordGitHeads(ctx, "", gitHead(ctx, agentDir(spec.Dir)))
	}
	sum := r.summarize(ctx, res)
	<-sweepDone
	fmt.Fprintln(r.stderr, summaryLine(r.cli, res, sum))
	return res.ExitCode
}

// summarize is finish, except that a fault met on the way (stream content
// is untrusted) is one warning line: once the agent has run, sift run
// exits with the agent's status whatever its stream held.
func (r *invocationRun) summarize(ctx context.Context, res capture.Result) (sum *summary.Summary) {
	defer func() {
		if p := recover(); p != nil {
			r.warn("summarize: internal error: %s", strings.Join(strings.Fields(fmt.Sprint(p)), " "))
			sum = nil
		}
	}()
	return r.finish(ctx, res)
}

// warn prints one warning line; the run goes on.
func (r *invocationRun) warn(format string, args ...any) {
	fmt.Fprintf(r.stderr, "sift run: warning: %s\n", textsafe.Inert(fmt.Sprintf(format, args...)))
}

// openStore opens the store; without one the agent still runs, unrecorded.
func (r *invocationRun) openStore() {
	st, err := r.sf.Open()
	if err != nil {
		r.warn("store: %v; the run is not recorded", err)
		return
	}
	r.st = st
}

// sweep runs the retention pass in the background while the agent works.
func (r *invocationRun) sweep(ctx context.Context) <-chan struct{} {
	done := make(chan struct{})
	if r.st == nil {
		close(done)
		return done
	}
	go func() {
		defer close(done)
		res, err := app.Sweep(ctx, r.st, &r.sf.Env, "sift run")
		if err != nil {
			r.warn("retention sweep: %v", err)
		}
		if w := sweepWarning(res); w != "" {
			r.warn("%s", w)
		}
	}()
	return done
}

// agentConfig is the configuration's override for the agent, by kind or by
// binary name (cursor-agent, agy).
func (r *invocationRun) agentConfig() config.Agent {
	if a, ok := r.cfg.Agents[string(r.cli.Kind)]; ok {
		return a
	}
	return r.cfg.Agents[r.cli.Binary]
}

// record writes the invocation's start into the store, with the agent's
// working directory: dir (the agent's Spec.Dir) when set, else sift's own.
// The inbox resolves the paths the stream names against it.
func (r *invocationRun) record(file string, start time.Time, dir string) {
	if r.st == nil {
		return
	}
	dir = agentDir(dir)
	id, err := r.st.RecordInvocation(context.Background(), store.Invocation{
		WorkItemID: r.workItem, Phase: r.phase, Iteration: r.iteration,
		AgentKind: string(r.cli.Kind), File: file, Start: start, Cwd: dir,
		Model: r.model.Name, ModelSource: r.model.Source,
		// This process's identity: should it die before recording the
		// end, the next sift to open the store ends the run.
		Owner: store.CurrentOwner(),
	})
	if err != nil {
		r.warn("%v", err)
		return
	}
	r.invID, r.rec = id, true
	r.recordGitHeads(context.Background(), r.headBefore, "")
}

// finish records the end of the invocation and returns the run's summary
// (nil when there is no file or it could not be summarized): the store's,
// which finishRun made, else one made here for a run the store did not
// take.
func (r *invocationRun) finish(ctx context.Context, res capture.Result) *summary.Summary {
	if r.rec {
		s, err := finishRun(ctx, r.st, r.invID, r.workItem, res, r.sf.ImportOptions())
		if err != nil {
			r.warn("%v", err)
		}
		if s != nil {
			return s
		}
	}
	if res.File == "" {
		return nil
	}
	return r.analyze(res)
}

// runStore is what finishing a run needs of the store (*store.Store).
type runStore interface {
	ingest.Completer
	FinishInvocation(ctx context.Context, id int64, end time.Time, exitCode int) (bool, error)
	GetSession(ctx context.Context, k review.SessionKey) (review.Session, error)
}

// finishRun records the end of invocation id, which wrote res.File. When
// it was its work item's last running one, the work item's stream files
// are read, once, with opts (the configured thresholds), and the run's
// summary is the one stored for its file; nil when the work item still
// runs or the file was not stored.
func finishRun(ctx context.Context, st runStore, id int64, workItem string, res capture.Result,
	opts ingest.Options,
) (*summary.Summary, error) {
	last, err := st.FinishInvocation(ctx, id, res.End, res.ExitCode)
	if err != nil || !last {
		return nil, err
	}
	done, err := ingest.CompleteWorkItem(ctx, st, workItem, nil, opts)
	if err == nil {
		err = done.Err()
	}
	if res.File == "" {
		return nil, err
	}
	s, serr := st.GetSession(ctx, review.SessionKey{WorkItemID: workItem, FileName: filepath.Base(res.File)})
	if serr != nil {
		return nil, err
	}
	return &s.Summary, err
}

// analyze summarizes the file directly, for a run the store did not take.
func (r *invocationRun) analyze(res capture.Result) *summary.Summary {
	f, err := os.Open(res.File)
	if err != nil {
		r.warn("summarize: %v", err)
		return nil
	}
	defer f.Close()
	opt := r.sf.ImportOptions().Summary
	opt.Agent, opt.Start, opt.End, opt.ExitCode = string(r.cli.Kind), res.Start, res.End, &res.ExitCode
	opt.Model, opt.ModelSource = r.model.Name, r.model.Source
	opt.NoReviewEvents = true // the summary line needs no review events
	s, _, err := ingest.Analyze(f, opt)
	if err != nil {
		r.warn("summarize %s: %v", res.File, err)
		return nil
	}
	return s
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

// envList turns the configuration's Env into KEY=VALUE entries, sorted.
func envList(env map[string]string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, k+"="+env[k])
	}
	return out
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
