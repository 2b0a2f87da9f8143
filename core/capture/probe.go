package capture

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentsift/sift/core/agents"
)

// Prober decides at run time whether an agent CLI whose streaming flag
// depends on the installed version has it.
type Prober struct {
	// Env is the environment of the probe runs (nil: sift's own).
	Env []string
	// CacheDir holds the cache of agy probe results; empty means
	// <user cache dir>/sift.
	CacheDir string
	// Timeout bounds one probe run; 0 means 20 s for --help and --version
	// and 90 s for agy's trivial run.
	Timeout time.Duration
}

// probeWaitDelay bounds how long a probe waits for its output pipe once
// the CLI has exited: a process the CLI left running (a daemon) may hold
// it open for good.
const probeWaitDelay = 2 * time.Second

// agyProbePrompt is the trivial prompt of agy's functional probe.
const agyProbePrompt = "Reply with the single word OK."

// Mode returns how to capture cli run as bin: always structured for CLIs
// whose flags are known, plaintext for copilot, and the probe's verdict for
// gemini and agy. Anything ambiguous is plaintext.
func (p Prober) Mode(ctx context.Context, cli CLI, bin string) Mode {
	switch cli.Probe {
	case agents.NoProbe:
		return Structured
	case agents.ProbeHelp:
		if p.helpAdvertises(ctx, bin, "--output-format", "stream-json") {
			return Structured
		}
	case agents.ProbeHelpAndRun:
		if p.antigravity(ctx, bin) {
			return Structured
		}
	}
	return Plaintext
}

// helpAdvertises reports whether `bin --help` exits and mentions every
// word (on stdout or stderr).
func (p Prober) helpAdvertises(ctx context.Context, bin string, words ...string) bool {
	out, err := p.output(ctx, p.timeout(20*time.Second), bin, "--help")
	if err != nil && len(out) == 0 {
		return false
	}
	for _, w := range words {
		if !bytes.Contains(out, []byte(w)) {
			return false
		}
	}
	return true
}

// antigravity runs agy's two-step probe, cached per `agy --version`: the
// help must mention --output-format, then a trivial `--print
// --output-format stream-json` run must exit 0 and print only JSON lines
// (at least one). A version that cannot be read is not cached.
func (p Prober) antigravity(ctx context.Context, bin string) bool {
	out, err := p.output(ctx, p.timeout(20*time.Second), bin, "--version")
	version := strings.TrimSpace(firstLine(out))
	if err != nil || version == "" {
		return false
	}
	cache := p.cacheFile()
	if ok, found := readProbeCache(cache, version); found {
		return ok
	}
	ok := p.helpAdvertises(ctx, bin, "--output-format") && p.agyRuns(ctx, bin)
	writeProbeCache(cache, version, ok)
	return ok
}

// agyRuns is the functional step of the agy probe.
func (p Prober) agyRuns(ctx context.Context, bin string) bool {
	ctx, cancel := context.WithTimeout(ctx, p.timeout(90*time.Second))
	defer cancel()
	out, err := retryBusy(func() ([]byte, error) {
		cmd := exec.CommandContext(ctx, bin, "--print", "--output-format", "stream-json", agyProbePrompt)
		cmd.Env = p.Env
		cmd.WaitDelay = probeWaitDelay
		return cmd.Output()
	})
	// ErrWaitDelay: it exited 0 but left its pipe held (see
	// probeWaitDelay); what it printed until then is the verdict.
	if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		return false
	}
	lines := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		l := bytes.TrimSpace(sc.Bytes())
		if len(l) == 0 {
			continue
		}
		var v map[string]any
		if json.Unmarshal(l, &v) != nil {
			return false
		}
		lines++
	}
	return sc.Err() == nil && lines > 0
}

// output runs bin with args and returns stdout and stderr together. The
// probes' arguments are constants of sift's: never stream text.
func (p Prober) output(ctx context.Context, d time.Duration, bin string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return retryBusy(func() ([]byte, error) {
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = p.Env
		cmd.WaitDelay = probeWaitDelay
		return cmd.CombinedOutput()
	})
}

// retryBusy runs a probe again while its executable is busy (see start).
func retryBusy(run func() ([]byte, error)) ([]byte, error) {
	for attempt := 1; ; attempt++ {
		out, err := run()
		if err == nil || !errors.Is(err, errBusy) || attempt == 5 {
			return out, err
		}
		time.Sleep(time.Duration(attempt) * 20 * time.Millisecond)
	}
}

func (p Prober) timeout(def time.Duration) time.Duration {
	if p.Timeout > 0 {
		return p.Timeout
	}
	return def
}

// cacheFile is where agy probe results are kept.
func (p Prober) cacheFile() string {
	dir := p.CacheDir
	if dir == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(d, "sift")
	}
	return filepath.Join(dir, "agy-probe.json")
}

// readProbeCache returns the cached verdict for a version.
func readProbeCache(file, version string) (ok, found bool) {
	if file == "" {
		return false, false
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return false, false
	}
	var m map[string]bool
	if json.Unmarshal(data, &m) != nil {
		return false, false
	}
	ok, found = m[version]
	return ok, found
}

// writeProbeCache records a verdict; a cache that cannot be written only
// costs a probe next time.
func writeProbeCache(file, version string, ok bool) {
	if file == "" {
		return
	}
	m := map[string]bool{}
	if data, err := os.ReadFile(file); err == nil {
		json.Unmarshal(data, &m) //nolint:errcheck // a bad cache is rebuilt
	}
	m[version] = ok
	data, _ := json.MarshalIndent(m, "", "  ")
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return
	}
	// CreateTemp makes a new 0600 file; a fixed temporary name could be
	// an older, wider file whose mode WriteFile would keep.
	tmp, err := os.CreateTemp(dir, ".agy-probe-*.tmp")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), file) != nil {
		os.Remove(tmp.Name())
	}
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}
