package app

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/capture"
	"github.com/agentsift/sift/core/config"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/proc"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/store"
)

// RunSpec is one `sift run`: the agent CLI, how it is started, the work
// item, phase and iteration its stream is filed under, and where its
// output and sift's warnings go.
type RunSpec struct {
	// Env is where the run is recorded; its configuration is loaded and
	// its Cfg.Path is the logs folder the stream is written to.
	Env       *Env
	CLI       capture.CLI
	WorkItem  string
	Phase     string
	Iteration int
	// Bin is the agent's executable ("": the configuration's, else the
	// CLI on PATH); Args its arguments.
	Bin  string
	Args []string
	// Stdin, Stdout and Stderr are the agent's; sift passes its output
	// through as it comes.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Warn hears each warning of sift's own; the run goes on.
	Warn func(msg string)
}

// Run runs the agent and records it: it opens the store (without one the
// agent still runs, unrecorded), sweeps the logs folder while the agent
// works, records the invocation with the agent's working directory, model
// and git HEAD, keeps the session's row live while the stream grows, and
// once the agent has exited records its end and summarizes its stream. It
// returns the capture's result and the run's summary (nil when there is
// none); an error means the agent did not start.
func Run(ctx context.Context, spec RunSpec) (capture.Result, *summary.Summary, error) {
	cfg := spec.Env.Cfg
	cfg.Path = spec.Env.Logs
	r := &invocationRun{env: spec.Env, cfg: cfg, cli: spec.CLI, stderr: spec.Stderr, workItem: spec.WorkItem,
		phase: spec.Phase, iteration: spec.Iteration, warnf: spec.Warn}
	return r.run(ctx, spec.Args, spec.Bin, spec.Stdin, spec.Stdout)
}

// invocationRun is one `sift run`: the agent, the store it is recorded in
// and where its warnings go.
type invocationRun struct {
	// args are the agent's arguments as sift run passed them, redacted
	// and bounded (runArgs): recorded with the invocation, they are the
	// session's prompt when its stream does not carry it.
	args      []string
	env       *Env
	cfg       config.Config
	cli       capture.CLI
	stderr    io.Writer
	warnf     func(string)
	workItem  string
	phase     string
	iteration int

	st    *store.Store
	invID int64
	rec   bool
	// model is the model the invocation asks for, read at its start.
	model agents.Model
	// live follows the stream file while the agent runs (live.go).
	live *liveRun
	// headBefore is the git HEAD of the agent's working directory, read
	// before the agent starts; "" when it is not in a work tree.
	headBefore string
}

// invocationModel reads the model the agent is asked to use, from the
// user's arguments, the agent's environment and its CLI's configuration
// files; a file that cannot be read is a warning and no model.
func (r *invocationRun) invocationModel(args []string, spec capture.Spec) agents.Model {
	dir := spec.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	m, err := agents.InvocationModel(r.cli.Kind, agents.Launch{
		Args: args, Env: append(os.Environ(), spec.Env...), Dir: dir})
	if err != nil {
		r.warn("model: %v", err)
	}
	return m
}

func (r *invocationRun) run(ctx context.Context, args []string, bin string, stdin io.Reader, stdout io.Writer) (capture.Result, *summary.Summary, error) {
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
	r.args = runArgs(args)
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
		return res, nil, err
	}
	if r.headBefore != "" {
		r.recordGitHeads(ctx, "", gitHead(ctx, agentDir(spec.Dir)))
	}
	sum := r.summarize(ctx, res)
	<-sweepDone
	return res, sum, nil
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

// warn hands one warning to the run's Warn; the run goes on.
func (r *invocationRun) warn(format string, args ...any) {
	if r.warnf != nil {
		r.warnf(fmt.Sprintf(format, args...))
	}
}

// openStore opens the store; without one the agent still runs, unrecorded.
func (r *invocationRun) openStore() {
	st, err := r.env.Open()
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
		res, err := Sweep(ctx, r.st, r.env, "sift run")
		if err != nil {
			r.warn("retention sweep: %v", err)
		}
		if w := res.Warning(); w != "" {
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
		Model: redact.String(r.model.Name), ModelSource: r.model.Source, Args: r.args,
		// This process's identity: should it die before recording the
		// end, the next sift to open the store ends the run.
		Owner: proc.Current(),
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
		s, err := finishRun(ctx, r.st, r.invID, r.workItem, res, r.env.ImportOptions())
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
	opt := r.env.ImportOptions().Summary
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

// envList turns the configuration's Env into KEY=VALUE entries, sorted.
func envList(env map[string]string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, k+"="+env[k])
	}
	return out
}

// Bounds of the arguments recorded with an invocation.
const (
	maxRunArg  = 4 << 10
	maxRunArgs = 64
)

// runArgs are an agent's arguments as an invocation records them:
// redacted, each cut to maxRunArg bytes (redacted first), at most
// maxRunArgs of them.
func runArgs(args []string) []string {
	out := make([]string, 0, min(len(args), maxRunArgs))
	for _, a := range args[:min(len(args), maxRunArgs)] {
		a = redact.String(a)
		if len(a) > maxRunArg {
			a = strings.ToValidUTF8(a[:maxRunArg], "") + "…"
		}
		out = append(out, a)
	}
	return out
}
