// Package capture runs an agent CLI with its streaming flags and records
// what it prints: stdout line by line as it arrives, each line redacted
// (JSON lines stay JSON), into <Path>/<workItem>/<phase>-<iteration>-<hex12>.jsonl,
// up to a size cap; stderr teed into the same file (verbatim for plaintext
// agents, as sift.stderr envelopes for structured ones). The agent's own
// output still reaches sift's stdout and stderr at once: the readers of
// its pipes only pass bytes on and queue lines, and one redactor goroutine
// redacts and writes them in order, so a slow line never blocks the agent.
// Lines that would leave the redactor more than 8 MiB behind, or that it
// has not reached when the run ends, are replaced by a marker, never
// written unredacted. Capture is best effort: a disk error is one warning
// and the run goes on. The file is closed on every path, signals included
// (forwarded to the agent's process group), and that group ends when sift
// dies.
package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// Spec describes one agent run.
type Spec struct {
	// CLI is the agent CLI (see LookupCLI).
	CLI CLI
	// Binary overrides the executable (a name on PATH or a path).
	Binary string
	// Args are the user's arguments, after the stream flags.
	Args []string
	// Env is added to sift's environment, which the agent inherits.
	Env []string
	// Dir is the agent's working directory; empty: sift's.
	Dir string

	// Enabled turns capture on. Off, the agent runs with its subcommand
	// (codex exec, opencode run) but no stream flag, and no file is made.
	Enabled bool
	// Root is the capture root (config Path).
	Root string
	// WorkItem, Phase and Iteration name the file.
	WorkItem  string
	Phase     string
	Iteration int
	// MaxFileBytes caps the file; 0 means no cap.
	MaxFileBytes int64

	// Stdin, Stdout and Stderr are sift's own streams: the agent reads
	// Stdin and its output is passed on to Stdout and Stderr. Warnings go
	// to Stderr too.
	Stdin          io.Reader
	Stdout, Stderr io.Writer

	// Prober decides the mode of gemini and agy.
	Prober Prober
	// Signals, when set, are forwarded to the agent's process group
	// instead of the signals sift receives (for tests).
	Signals <-chan os.Signal
	// OnStart, when set, is called once the agent is running, with the
	// stream file ("" when none) and the start time: the moment to record
	// the invocation. The agent's output is captured meanwhile.
	OnStart func(file string, start time.Time)
	// KillDelay is how long after a cancelled ctx, or a forwarded
	// SIGTERM or SIGHUP, the agent's process group gets SIGKILL; 0 means
	// 10 s.
	KillDelay time.Duration

	// create opens the stream file; nil means CreateFile (tests swap in
	// failing writers).
	create func() (io.WriteCloser, string, error)
	// redactDelay, when set, is called by the redactor before each line
	// it redacts (tests: a slow redactor).
	redactDelay func(line []byte)
	// drainWait, when set, replaces drainWait and drainGrace (tests).
	drainWait time.Duration
}

// Result describes a finished run.
type Result struct {
	// Argv is the command as launched, binary first.
	Argv []string
	// Mode is how stdout was captured.
	Mode Mode
	// File is the stream file, or "" when there is none (capture
	// disabled, or the file could not be created).
	File string
	// Start and End bracket the agent process.
	Start, End time.Time
	// ExitCode is the agent's exit status (128+N for signal N).
	ExitCode int
	// Written and Dropped count the bytes of lines written to the file
	// and dropped past the cap.
	Written, Dropped int64
	// SkippedLines and Skipped count the lines, and their bytes, that
	// were not written because the redactor did not get to them in time
	// (it was more than 8 MiB behind, or the run ended first); markers in
	// the file stand for them.
	SkippedLines, Skipped int64
	// FileErr is the capture error a warning reported, if any.
	FileErr error
}

// ErrStart wraps a failure to start the agent (binary not found, not
// executable); sift then has no agent exit code to return.
var ErrStart = errors.New("cannot start the agent")

// Run runs the agent to completion and captures its output. It returns an
// error wrapping ErrStart only when the agent could not be started;
// capture problems are warnings on Stderr and in Result.FileErr.
func Run(ctx context.Context, s Spec) (Result, error) {
	bin := s.Binary
	if bin == "" {
		bin = s.CLI.Binary
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return Result{}, fmt.Errorf("%w %s: %v", ErrStart, bin, unwrapExec(err))
	}
	env := mergedEnv(s.Env)
	defer holdPipe()()
	res := Result{Mode: Plaintext}
	if s.Enabled {
		res.Mode = Prober{Env: env, CacheDir: s.Prober.CacheDir, Timeout: s.Prober.Timeout}.Mode(ctx, s.CLI, path)
	}
	argv := s.CLI.Argv(res.Mode, s.Args)
	if !s.Enabled {
		argv = s.CLI.Argv(Plaintext, s.Args)
	}
	res.Argv = append([]string{bin}, argv...)

	tty := foregroundTTY(s.Stdin)
	var rec *recorder
	if s.Enabled {
		rec = newRecorder(s, res.Mode)
		res.File = rec.file
	}
	// The agent's argv is the CLI's fixed stream flags and the user's own
	// arguments; its binary and environment come from the flags and the
	// user's configuration. Nothing read from a stream or the store (a
	// summary, a path, a resume hint) may ever become an argument here.
	grp, err := newGroup()
	if err != nil {
		warn(s.Stderr, "%v; the agent's tools may outlive a killed sift", err)
	}
	defer grp.release()
	newCmd := func() *exec.Cmd {
		cmd := exec.Command(path, argv...)
		cmd.Env = env
		cmd.Dir = s.Dir
		cmd.Stdin = s.Stdin
		// Stop waiting for the copy of a Stdin that is not a file a
		// while after the agent exits.
		cmd.WaitDelay = 5 * time.Second
		setGroup(cmd, tty, grp.id())
		if rec != nil {
			rec.attach(cmd)
		} else {
			cmd.Stdout, cmd.Stderr = s.Stdout, s.Stderr
		}
		return cmd
	}
	res.Start = time.Now()
	agent, err := startAgent(newCmd)
	if rec != nil {
		rec.started()
	}
	if err != nil {
		restoreForeground(tty)
		if rec != nil {
			rec.abandon()
		}
		return Result{}, fmt.Errorf("%w %s: %v", ErrStart, bin, unwrapExec(err))
	}
	fw := forward(ctx, s, grp.leader(agent.cmd.Process.Pid))
	defer fw.stop()
	if s.OnStart != nil {
		s.OnStart(res.File, res.Start)
	}
	werr := <-agent.waited
	res.End = time.Now()
	restoreForeground(tty)
	res.ExitCode = exitCode(agent.cmd.ProcessState)
	if werr != nil && !isExit(werr) {
		warn(s.Stderr, "waiting for %s: %v", bin, werr)
	}
	if rec != nil {
		// Once the agent has exited, sift waits only a while for its
		// pipes and the redactor, and less after a signal; a new signal
		// ends the wait.
		wait := s.drainTime(fw.count() > 0 || killed(agent.cmd.ProcessState))
		rec.close(wait, fw.next())
		res.Written, res.Dropped = rec.sink.Stats()
		res.SkippedLines, res.Skipped = rec.sink.Skipped()
		res.FileErr = rec.err
	}
	return res, nil
}

// The waits of a run whose agent has exited, for its pipes to close (a
// tool it left running may hold them) and then for the redactor to catch
// up: drainWait after a normal exit, drainGrace after a signal.
const (
	drainWait  = 10 * time.Second
	drainGrace = 2 * time.Second
)

// drainTime is how long a run waits for each of the agent's pipes and the
// redactor once the agent has exited.
func (s Spec) drainTime(signaled bool) time.Duration {
	switch {
	case s.drainWait > 0:
		return s.drainWait
	case signaled:
		return drainGrace
	default:
		return drainWait
	}
}

// agentProc is the running agent. It is started and waited for on one
// locked OS thread: Linux sends the death signal (Pdeathsig) when the
// thread that started the child exits, which must not happen before the
// agent does.
type agentProc struct {
	cmd    *exec.Cmd
	waited chan error
}

// startAgent starts the agent (see start) and waits for it on its own
// goroutine; waited gets Wait's error.
func startAgent(newCmd func() *exec.Cmd) (*agentProc, error) {
	a := &agentProc{waited: make(chan error, 1)}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cmd, err := start(newCmd)
		a.cmd = cmd
		started <- err
		if err == nil {
			a.waited <- cmd.Wait()
		}
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return a, nil
}

// start starts a command, retrying while the executable is busy (ETXTBSY:
// it was just written, and a process forked meanwhile still holds it open
// for writing until that process execs).
func start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	for attempt := 1; ; attempt++ {
		cmd := newCmd()
		err := cmd.Start()
		if err == nil || !errors.Is(err, errBusy) || attempt == 5 {
			return cmd, err
		}
		time.Sleep(time.Duration(attempt) * 20 * time.Millisecond)
	}
}

// stdoutLine redacts and writes one stdout line.
func (r *recorder) stdoutLine(mode Mode) func([]byte, int64) {
	if mode == Structured {
		r.deltas = newDeltaLines(r.sink.WriteLine, &r.keys[outStream])
		return func(b []byte, cut int64) {
			if cut > 0 || r.sink.Room() == 0 {
				r.deltas.Close()
				r.sink.Drop(int64(len(b)) + cut + 1)
				return
			}
			r.deltas.Line(b)
		}
	}
	kb := &r.keys[outStream]
	return func(b []byte, cut int64) {
		if cut > 0 || r.sink.Room() == 0 {
			kb.skip(b) // keep the key-block state even past the cap
			r.sink.Drop(int64(len(b)) + cut + 1)
			return
		}
		r.sink.WriteLine(kb.line(b))
	}
}

// stderrLine redacts and writes one stderr line: verbatim for plaintext
// agents, in an envelope for structured ones; a cut line is stamped.
func (r *recorder) stderrLine(mode Mode) func([]byte, int64) {
	kb := &r.keys[errStream]
	return func(b []byte, cut int64) {
		if cut > 0 {
			b = cutText(b)
		}
		red := kb.line(b)
		if mode == Structured {
			red = Envelope(red)
		}
		r.sink.WriteLine(red)
	}
}

// warn prints one warning line.
func warn(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, "sift run: warning: "+format+"\n", args...)
	}
}

// mergedEnv is sift's environment plus extra (later entries win); nil
// when there is nothing to add, so the agent inherits it as is.
func mergedEnv(extra []string) []string {
	if len(extra) == 0 {
		return nil
	}
	return append(os.Environ(), extra...)
}

func isExit(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee)
}

// unwrapExec drops exec's repetition of the binary name.
func unwrapExec(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		err = ee.Err
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err
}
