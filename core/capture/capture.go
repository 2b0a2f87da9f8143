// Package capture runs an agent CLI with its streaming flags and records
// what it prints: stdout line by line as it arrives, each line redacted
// (JSON lines stay JSON), into <Path>/<workItem>/<phase>-<iteration>-<hex6>.jsonl,
// up to a size cap; stderr teed into the same file (verbatim for plaintext
// agents, as sift.stderr envelopes for structured ones). The agent's own
// output still reaches sift's stdout and stderr. Capture is best effort: a
// disk error is one warning and the run goes on. The file is closed on
// every path, signals included (forwarded to the agent's process group).
package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
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
	// KillDelay is how long after a cancelled ctx the agent's process
	// group gets SIGKILL; 0 means 10 s.
	KillDelay time.Duration

	// create opens the stream file; nil means CreateFile (tests swap in
	// failing writers).
	create func() (io.WriteCloser, string, error)
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
	newCmd := func() *exec.Cmd {
		cmd := exec.Command(path, argv...)
		cmd.Env = env
		cmd.Dir = s.Dir
		cmd.Stdin = s.Stdin
		// A tool the agent left running may hold the pipes open; stop
		// waiting for them a while after the agent itself exits.
		cmd.WaitDelay = 5 * time.Second
		setGroup(cmd, tty)
		if rec != nil {
			cmd.Stdout, cmd.Stderr = rec.stdout, rec.stderr
		} else {
			cmd.Stdout, cmd.Stderr = s.Stdout, s.Stderr
		}
		return cmd
	}
	res.Start = time.Now()
	cmd, err := start(newCmd)
	if err != nil {
		restoreForeground(tty)
		if rec != nil {
			rec.abandon()
		}
		return Result{}, fmt.Errorf("%w %s: %v", ErrStart, bin, unwrapExec(err))
	}
	stop := forward(ctx, s, cmd.Process.Pid)
	if s.OnStart != nil {
		s.OnStart(res.File, res.Start)
	}
	werr := cmd.Wait()
	res.End = time.Now()
	restoreForeground(tty)
	stop()
	res.ExitCode = exitCode(cmd.ProcessState)
	if werr != nil && !isExit(werr) {
		warn(s.Stderr, "waiting for %s: %v", bin, werr)
	}
	if rec != nil {
		res.Written, res.Dropped, res.FileErr = rec.close()
	}
	return res, nil
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

// forward passes signals to the agent's process group until stop is
// called (the third interrupt as SIGKILL), and turns a cancelled ctx into
// SIGTERM, then SIGKILL.
func forward(ctx context.Context, s Spec, pid int) (stop func()) {
	sigs := s.Signals
	var ch chan os.Signal
	if sigs == nil {
		ch = make(chan os.Signal, 4)
		signal.Notify(ch, forwarded()...)
		sigs = ch
	}
	kill := s.KillDelay
	if kill <= 0 {
		kill = 10 * time.Second
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var killC <-chan time.Time
		cancelled := ctx.Done()
		interrupts := 0
		for {
			select {
			case <-done:
				return
			case sig := <-sigs:
				// An agent that ignores interrupts is killed on the third.
				if sig == os.Interrupt {
					interrupts++
				}
				if interrupts >= 3 {
					sig = os.Kill
				}
				signalGroup(pid, sig) //nolint:errcheck // the group may be gone
			case <-cancelled:
				cancelled = nil
				signalGroup(pid, terminate()) //nolint:errcheck
				killC = time.After(kill)
			case <-killC:
				signalGroup(pid, os.Kill) //nolint:errcheck
			}
		}
	}()
	return func() {
		if ch != nil {
			signal.Stop(ch)
		}
		close(done)
		<-finished
	}
}

// recorder is the capture side of one run: the file, its sink and the two
// line splitters.
type recorder struct {
	file           string
	sink           *Sink
	stdout, stderr *lineSplitter
	deltas         *deltaLines // structured stdout lines, deltas held (deltas.go)
	warned         bool
	err            error
}

// newRecorder creates the file and the writers the agent's stdout and
// stderr are copied to. When the file cannot be created it warns and the
// writers only pass output through.
func newRecorder(s Spec, mode Mode) *recorder {
	r := &recorder{}
	create := s.create
	if create == nil {
		create = func() (io.WriteCloser, string, error) {
			f, err := CreateFile(s.Root, s.WorkItem, s.Phase, Iteration(s.Phase, s.Iteration))
			if err != nil {
				return nil, "", err
			}
			return f, f.Name(), nil
		}
	}
	f, name, err := create()
	var w io.Writer = io.Discard
	if err != nil {
		r.err = err
		r.warned = true
		warn(s.Stderr, "capture: %v; running the agent without a stream file", err)
	} else {
		r.file = name
		w = f
	}
	r.sink = NewSink(w, s.MaxFileBytes, func(err error) {
		r.err = err
		if !r.warned {
			r.warned = true
			warn(s.Stderr, "capture %s: %v; the agent keeps running, the file is incomplete", r.file, err)
		}
	})
	maxLine := int(s.MaxFileBytes)
	if maxLine <= 0 {
		maxLine = 1 << 30
	}
	r.stdout = &lineSplitter{pass: s.Stdout, max: maxLine, line: r.stdoutLine(mode), flush: r.sink.Flush, flushSoon: r.sink.FlushSoon}
	r.stderr = &lineSplitter{pass: s.Stderr, max: MaxStderrLine, line: r.stderrLine(mode), flush: r.sink.Flush, flushSoon: r.sink.FlushSoon}
	return r
}

// stdoutLine redacts and writes one stdout line.
func (r *recorder) stdoutLine(mode Mode) func([]byte, int64) {
	if mode == Structured {
		r.deltas = newDeltaLines(r.sink.WriteLine)
		return func(b []byte, cut int64) {
			if cut > 0 || r.sink.Room() == 0 {
				r.deltas.Close()
				r.sink.Drop(int64(len(b)) + cut + 1)
				return
			}
			r.deltas.Line(b)
		}
	}
	var kb keyBlock
	return func(b []byte, cut int64) {
		red := kb.line(b) // keep the key-block state even past the cap
		if cut > 0 || r.sink.Room() == 0 {
			r.sink.Drop(int64(len(b)) + cut + 1)
			return
		}
		r.sink.WriteLine(red)
	}
}

// stderrLine redacts and writes one stderr line: verbatim for plaintext
// agents, in an envelope for structured ones; a cut line is stamped.
func (r *recorder) stderrLine(mode Mode) func([]byte, int64) {
	var kb keyBlock
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

// close flushes the splitters' last lines and closes the file.
func (r *recorder) close() (written, dropped int64, err error) {
	r.stdout.Close()
	r.deltas.Close()
	r.stderr.Close()
	r.sink.Close() //nolint:errcheck // reported through warn and r.err
	written, dropped = r.sink.Stats()
	return written, dropped, r.err
}

// abandon closes and removes the file of a run that never started.
func (r *recorder) abandon() {
	r.sink.Close() //nolint:errcheck
	if r.file != "" {
		os.Remove(r.file)
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
