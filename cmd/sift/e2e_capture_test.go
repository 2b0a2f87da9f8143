package main

// End-to-end tests of the capture path against the real agent CLIs, pinned
// in testdata/agents and installed with `npm ci --prefix testdata/agents`.
// Each CLI is pointed at a scripted model server on 127.0.0.1
// (cmd/sift/internal/mockllm) and launched through the sift binary's `sift run`;
// the test then checks the stream file sift wrote, its summary and the
// store. With -e2e.record the captured streams and the CLIs' on-disk
// histories are copied into testdata/streams and testdata/history.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/mockllm"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/store"
)

var e2eRecord = flag.Bool("e2e.record", false,
	"copy the captured streams and on-disk histories into testdata/streams and testdata/history")

// e2eAgentsDir is where `npm ci --prefix testdata/agents` installs the CLIs.
const e2eAgentsDir = "../../testdata/agents/node_modules"

// e2eRequiredEnv, set to 1 (as CI should), fails rather than skips the
// tests when a pinned CLI is not installed, so that a missing install step
// cannot pass for a green run.
const e2eRequiredEnv = "SIFT_E2E_REQUIRED"

// e2eTimeout bounds one CLI run; the scripted conversation takes seconds.
const e2eTimeout = 3 * time.Minute

// e2ePrompt is the user prompt every CLI gets; the script ignores it.
const e2ePrompt = "Check the environment and report."

// e2eCLI is one agent CLI under test.
type e2eCLI struct {
	// kind is sift's agent kind, the --agent value and the testdata folder.
	kind string
	// bin is the command under node_modules/.bin.
	bin string
	// pkg and version are the npm package, as pinned in package.json.
	pkg, version string
	// label names the CLI in recorded file names.
	label string
	// server starts the model server for the CLI's vendor API.
	server func(mockllm.Script) *mockllm.Server
	// script is the conversation the server plays.
	script mockllm.Script
	// setup writes the CLI's configuration into the throwaway home and
	// working folder and returns the environment it needs.
	setup func(t *testing.T, home, work, url string) []string
	// args follow the stream flags sift adds.
	args []string
	// configEnv puts the environment setup returns into the sift
	// configuration (Agents.<kind>.Env) instead of sift's own environment,
	// so both ways an agent gets its settings are exercised.
	configEnv bool
	// history lists globs, relative to home, of the CLI's on-disk history.
	history []string
	// stderrLine is a line the CLI is known to write to stderr in this
	// scenario, so the file must hold it in a stderr envelope.
	stderrLine string
	// timestamps is true when the stream lines carry their own times.
	// Without them (codex --json) the summary can only project events onto
	// the invocation window by line position, which spreads a pause evenly
	// over the lines: the scripted pause cannot show as a stall.
	timestamps bool
}

func e2eCLIs() []e2eCLI {
	return []e2eCLI{
		{
			kind: "claude", bin: "claude", pkg: "@anthropic-ai/claude-code", version: "2.1.332", label: "claude-code",
			server: mockllm.NewAnthropic, script: mockllm.DefaultScript(),
			setup: func(t *testing.T, home, work, url string) []string {
				return []string{
					"ANTHROPIC_BASE_URL=" + url,
					"ANTHROPIC_API_KEY=sift-e2e",
					"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
				}
			},
			// As root --dangerously-skip-permissions is refused; the prompt
			// goes after -- or it is read as a tool name.
			args:       []string{"--allowedTools", "Bash", "--", e2ePrompt},
			configEnv:  true,
			history:    []string{".claude/projects/*/*.jsonl"},
			timestamps: true,
		},
		{
			kind: "codex", bin: "codex", pkg: "@openai/codex", version: "0.171.0", label: "codex",
			server: mockllm.NewResponses, script: mockllm.DefaultScript(),
			setup: func(t *testing.T, home, work, url string) []string {
				codexHome := filepath.Join(home, ".codex")
				// A known model name: an unknown one adds an error item.
				e2eWrite(t, filepath.Join(codexHome, "config.toml"), fmt.Sprintf(`model = "gpt-5.5"
model_provider = "mock"

[model_providers.mock]
name = "mock"
base_url = "%s/v1"
wire_api = "responses"
env_key = "SIFT_E2E_KEY"
request_max_retries = 0
stream_max_retries = 0
`, url))
				return []string{"CODEX_HOME=" + codexHome, "SIFT_E2E_KEY=sift-e2e"}
			},
			args:       []string{"--skip-git-repo-check", "--sandbox", "danger-full-access", e2ePrompt},
			history:    []string{".codex/sessions/*/*/*/rollout-*.jsonl"},
			stderrLine: "Reading additional input from stdin...",
		},
		{
			kind: "gemini", bin: "gemini", pkg: "@google/gemini-cli", version: "0.61.0", label: "gemini-cli",
			server: mockllm.NewGemini,
			// Its shell tool reports a non-zero exit as a success, so the
			// failing call reads a missing file instead.
			script: mockllm.DefaultScript().FailByReading("read_file", "file_path"),
			setup: func(t *testing.T, home, work, url string) []string {
				e2eWrite(t, filepath.Join(home, ".gemini", "settings.json"),
					`{"security":{"auth":{"selectedType":"gemini-api-key"},"folderTrust":{"enabled":false}}}`)
				return []string{"GOOGLE_GEMINI_BASE_URL=" + url, "GEMINI_API_KEY=sift-e2e"}
			},
			// A named model: the default "auto" asks a router model first.
			args:       []string{"-m", "gemini-2.5-pro", "--yolo", "-p", e2ePrompt},
			configEnv:  true,
			history:    []string{".gemini/tmp/*/chats/session-*.jsonl"},
			stderrLine: "YOLO mode is enabled. All tool calls will be automatically approved.",
			timestamps: true,
		},
		{
			kind: "opencode", bin: "opencode", pkg: "opencode-ai", version: "1.18.33", label: "opencode",
			server: mockllm.NewChat, script: mockllm.DefaultScript(),
			setup: func(t *testing.T, home, work, url string) []string {
				// On first use opencode installs the provider package from
				// the npm registry into the home.
				e2eWrite(t, filepath.Join(work, "opencode.json"), fmt.Sprintf(`{
  "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "mock",
    "options": {"baseURL": "%s/v1", "apiKey": "sift-e2e"},
    "models": {"mock-model": {"name": "mock-model"}}}},
  "model": "mock/mock-model",
  "permission": {"bash": "allow", "edit": "allow"}
}
`, url))
				return nil
			},
			args:       []string{"-m", "mock/mock-model", e2ePrompt},
			timestamps: true,
		},
	}
}

// e2eScenario is one way a run goes, played by some of the CLIs.
type e2eScenario struct {
	name string
	// skip lists the kinds left out, with the reason in the scenario's doc.
	skip []string
	run  func(t *testing.T, sift string, c e2eCLI)
}

// TestE2ECapture runs the pinned agent CLIs through `sift run` against
// their scripted model servers and checks what sift captured, in three
// scenarios: the whole script (e2eRunCLI), SIGTERM while the model is
// awaited (e2eInterrupt) and a model error (e2eModelFailure). The sift
// binary is built once; the runs go in parallel.
func TestE2ECapture(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: skipped in -short mode")
	}
	if runtime.GOOS != "linux" {
		t.Skip("end-to-end: the pinned CLIs are installed for linux")
	}
	clis := e2eCLIs()
	var sift string
	for _, c := range clis {
		if _, err := os.Stat(c.binPath()); err == nil {
			sift = e2eBuildSift(t)
			break
		}
	}
	scenarios := []e2eScenario{
		{name: "scripted", run: e2eRunCLI},
		// The two CLIs that start fastest are enough for the signal path.
		{name: "interrupt", skip: []string{"gemini", "opencode"}, run: e2eInterrupt},
		// After a 400 from its provider, opencode 1.18.33 `run` sends the
		// conversation again and again and never exits.
		{name: "model-error", skip: []string{"opencode"}, run: e2eModelFailure},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			for _, c := range clis {
				if slices.Contains(sc.skip, c.kind) {
					continue
				}
				t.Run(c.kind, func(t *testing.T) {
					e2eNeed(t, c)
					t.Parallel()
					sc.run(t, sift, c)
				})
			}
		})
	}
}

// e2eNeed skips the test when the CLI is not installed, or fails it when
// SIFT_E2E_REQUIRED=1.
func e2eNeed(t *testing.T, c e2eCLI) {
	t.Helper()
	if _, err := os.Stat(c.binPath()); err == nil {
		return
	}
	if os.Getenv(e2eRequiredEnv) == "1" {
		t.Fatalf("%s@%s is not installed (%s) and %s=1; install with: npm ci --prefix testdata/agents",
			c.pkg, c.version, c.binPath(), e2eRequiredEnv)
	}
	t.Skipf("%s@%s is not installed (%s); install with: npm ci --prefix testdata/agents", c.pkg, c.version, c.binPath())
}

func (c e2eCLI) binPath() string {
	p, err := filepath.Abs(filepath.Join(e2eAgentsDir, ".bin", c.bin))
	if err != nil {
		return filepath.Join(e2eAgentsDir, ".bin", c.bin)
	}
	return p
}

// e2eBuildSift builds the sift binary into the test's temporary folder.
func e2eBuildSift(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sift")
	goBuild(t, bin)
	return bin
}

// buildEnv is the environment the test binary started with, for the go
// command's own folders: a test that points HOME and the XDG folders at
// a temporary folder (isolate) must not send `go build` to an empty
// module cache (it would download every module, or hang offline) and an
// empty build cache.
var buildEnv = []string{"HOME=" + os.Getenv("HOME"), "XDG_CONFIG_HOME=" + os.Getenv("XDG_CONFIG_HOME"),
	"XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME")}

// goBuild builds sift into bin with the caches of buildEnv.
func goBuild(t *testing.T, bin string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), buildEnv...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build sift: %v\n%s", err, out)
	}
}

// e2eRun is what one CLI run through sift left behind.
type e2eRun struct {
	dir, home, work, logs, db, config string
	workItem                          string
	start, end                        time.Time
	stderr                            string
	file                              string
	data                              []byte
}

func e2eRunCLI(t *testing.T, sift string, c e2eCLI) {
	srv := c.server(c.script)
	t.Cleanup(srv.Close)
	r, p := e2eStart(t, sift, c, srv)
	if err := p.wait(t, r, srv); err != nil {
		t.Fatalf("sift run --agent %s: %v (the agent should exit 0)", c.kind, err)
	}
	r.file = e2eStreamFile(t, r.logs, r.workItem)
	e2eCheckSummaryLine(t, c, r, 0)
	r.data = e2eRead(t, r.file)
	if *e2eRecord {
		e2eRecordFiles(t, c, r, "scripted", true)
	}

	t.Run("redaction", func(t *testing.T) { e2eCheckRedaction(t, r) })
	t.Run("lines", func(t *testing.T) { e2eCheckLines(t, c, r) })
	t.Run("summary", func(t *testing.T) { e2eCheckSummary(t, sift, c, r) })
	t.Run("store", func(t *testing.T) { e2eCheckStore(t, sift, c, r) })
	t.Run("invocation", func(t *testing.T) { e2eCheckInvocation(t, c, r) })
	t.Run("model", func(t *testing.T) { e2eCheckModel(t, sift, c, r) })
	t.Run("server", func(t *testing.T) { e2eCheckServer(t, srv) })
}

// e2eProc is a running `sift run`.
type e2eProc struct {
	cmd            *exec.Cmd
	cancel         context.CancelFunc
	stdout, stderr bytes.Buffer
}

// e2eStart lays out the throwaway home, working folder, configuration and
// store of one CLI run and starts `sift run` on it against srv.
func e2eStart(t *testing.T, sift string, c e2eCLI, srv *mockllm.Server) (*e2eRun, *e2eProc) {
	t.Helper()
	r := &e2eRun{dir: t.TempDir(), workItem: "wi-e2e-" + c.kind}
	r.home = filepath.Join(r.dir, "home")
	r.work = filepath.Join(r.dir, "work")
	r.logs = filepath.Join(r.dir, "logs")
	r.db = filepath.Join(r.dir, "sift.db")
	r.config = filepath.Join(r.dir, "sift.yaml")
	for _, d := range []string{r.home, r.work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A minimal environment: no vendor key or setting of the developer's
	// reaches the CLI.
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + r.home,
		"LANG=C.UTF-8",
		"TMPDIR=" + r.dir,
	}
	agentEnv := c.setup(t, r.home, r.work, srv.URL())
	if !c.configEnv {
		env = append(env, agentEnv...)
		agentEnv = nil
	}
	e2eWrite(t, r.config, e2eConfig(r.logs, c, agentEnv))

	args := []string{"run", "--config", r.config, "--db", r.db, "--agent", c.kind,
		"--work-item", r.workItem, "--phase", "work", "--"}
	args = append(args, c.args...)
	ctx, cancel := context.WithTimeout(context.Background(), e2eTimeout)
	p := &e2eProc{cancel: cancel}
	p.cmd = exec.CommandContext(ctx, sift, args...)
	p.cmd.Dir = r.work
	p.cmd.Env = env
	// On timeout sift gets SIGTERM, which it forwards to the agent's
	// process group; a kill would leave the agent running.
	p.cmd.Cancel = func() error { return p.cmd.Process.Signal(syscall.SIGTERM) }
	p.cmd.WaitDelay = e2eStopWithin
	// sift run passes the agent's stdout through; the file is checked.
	p.cmd.Stdout = &p.stdout
	p.cmd.Stderr = &p.stderr
	r.start = time.Now()
	if err := p.cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	return r, p
}

// wait waits for sift run to exit, logs what it printed and the requests
// the server got, and finds the stream file. It returns sift's exit error.
func (p *e2eProc) wait(t *testing.T, r *e2eRun, srv *mockllm.Server) error {
	t.Helper()
	defer p.cancel()
	err := p.cmd.Wait()
	r.end = time.Now()
	r.stderr = p.stderr.String()
	t.Logf("sift run: %v in %v, %d bytes on stdout; stderr:\n%s",
		err, r.end.Sub(r.start).Round(time.Millisecond), p.stdout.Len(), r.stderr)
	for _, q := range srv.Requests() {
		t.Logf("server: %s step %d", q.Path, q.Step)
	}
	if r.end.Sub(r.start) >= e2eTimeout {
		t.Fatalf("sift run did not finish within %v", e2eTimeout)
	}
	return err
}

// e2eConfig is the sift configuration of one run: files under logs, a
// stall threshold below the script's pause, and the CLI's binary and
// extra environment (KEY=VALUE entries).
func e2eConfig(logs string, c e2eCLI, env []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `Enabled: true
Path: %q
MaxFileSizeMb: 32
RetainedDays: 14
MaxTotalSizeMb: 2048
StallThresholdSeconds: 1
Agents:
  %s:
    Binary: %q
`, logs, c.kind, c.binPath())
	if len(env) > 0 {
		b.WriteString("    Env:\n")
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			fmt.Fprintf(&b, "      %s: %q\n", k, v)
		}
	}
	return b.String()
}

// e2eFileName is <phase>-<iteration>-<hex12>.jsonl for a work phase.
var e2eFileName = regexp.MustCompile(`^work-1-[0-9a-f]{12}\.jsonl$`)

// e2eStreamFile checks that exactly one stream file landed under
// <logs>/<workItem>/ with the right name, and returns it.
func e2eStreamFile(t *testing.T, logs, workItem string) string {
	t.Helper()
	dir := filepath.Join(logs, workItem)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("no stream folder for the work item: %v", err)
	}
	var files []string
	for _, e := range ents {
		files = append(files, e.Name())
	}
	if len(files) != 1 || !e2eFileName.MatchString(files[0]) {
		t.Fatalf("%s holds %q, want one work-1-<hex12>.jsonl", dir, files)
	}
	return filepath.Join(dir, files[0])
}

// e2eCheckSummaryLine: sift run's last stderr line is its one-line summary
// naming the agent, its exit code and the file.
func e2eCheckSummaryLine(t *testing.T, c e2eCLI, r *e2eRun, exit int) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, fmt.Sprintf("sift run: %s exit %d", c.kind, exit)) || !strings.Contains(last, r.file) {
		t.Errorf("last stderr line %q, want the one-line summary of %s naming %s", last, c.kind, r.file)
	}
}

// e2eCheckRedaction: the secrets the scripted tool printed never reach the
// file, and the line that carried them is still there, redacted.
func e2eCheckRedaction(t *testing.T, r *e2eRun) {
	for _, s := range []string{mockllm.GitHubToken, mockllm.AWSKeyID} {
		if bytes.Contains(r.data, []byte(s)) {
			t.Errorf("the stream file holds the secret %s…", s[:6])
		}
	}
	if !bytes.Contains(r.data, []byte(redact.Prefix)) {
		t.Errorf("no %q marker in the file: the tool output with the secrets is missing", redact.Prefix)
	}
}

// e2eCheckLines: every line of a structured agent's file is valid JSON, and
// every stderr envelope is {"type":"sift.stderr","text":"…"}.
func e2eCheckLines(t *testing.T, c e2eCLI, r *e2eRun) {
	envelopes, sawLine := 0, false
	sc := bufio.NewScanner(bytes.NewReader(r.data))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Errorf("line %d is not valid JSON: %v: %.200s", n, err, line)
			continue
		}
		if m["type"] != "sift.stderr" {
			continue
		}
		envelopes++
		text, ok := m["text"].(string)
		if !ok {
			t.Errorf("line %d: stderr envelope without a text string: %s", n, line)
		}
		sawLine = sawLine || (c.stderrLine != "" && text == c.stderrLine)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if c.stderrLine != "" && !sawLine {
		t.Errorf("no sift.stderr envelope holds %q, which %s writes to stderr", c.stderrLine, c.bin)
	}
	t.Logf("%d stderr envelope(s)", envelopes)
}

// e2eSummary is the part of the Summary JSON the test checks.
type e2eSummary struct {
	WorkItemID        string   `json:"workItemId"`
	FileName          string   `json:"fileName"`
	AgentKind         string   `json:"agentKind"`
	Phase             string   `json:"phase"`
	Iteration         *int     `json:"iteration"`
	InputTokens       *int64   `json:"inputTokens"`
	OutputTokens      *int64   `json:"outputTokens"`
	CachedInputTokens *int64   `json:"cachedInputTokens"`
	Model             string   `json:"model"`
	ModelSource       string   `json:"modelSource"`
	EstimatedUSD      *float64 `json:"estimatedUsd"`
	CostSource        string   `json:"costSource"`
	CostBasis         string   `json:"costBasis"`
	Turns             []struct {
		EstimatedUSD *float64 `json:"estimatedUsd"`
		ToolCallIDs  []string `json:"toolCallIds"`
	} `json:"turns"`
	ToolCalls []struct {
		ID           string `json:"id"`
		Name         string `json:"name"`
		InputSummary string `json:"inputSummary"`
		Success      *bool  `json:"success"`
	} `json:"toolCalls"`
	Stalls []struct {
		GapMs int64  `json:"gapMs"`
		Kind  string `json:"kind"`
	} `json:"stalls"`
	FinalAssistantMessage *string  `json:"finalAssistantMessage"`
	ToolCallCount         int      `json:"toolCallCount"`
	Outcome               string   `json:"outcome"`
	Flags                 []string `json:"flags"`
}

// e2eCheckSummary summarizes the file with `sift summary --json` and compares
// it with the script.
func e2eCheckSummary(t *testing.T, sift string, c e2eCLI, r *e2eRun) {
	out := e2eSift(t, sift, r.work, "summary", "--json", "--agent", c.kind, "--stall", "1s", r.file)
	s := e2eDecodeSummary(t, out)
	e2eCheckScripted(t, c, s, c.timestamps)
	if !c.timestamps {
		t.Logf("%s lines carry no time: the %v pause is not checked as a stall", c.bin, mockllm.StallDelay)
	}
}

// e2eCheckStore finds the run in the store that `sift run` filled and
// compares it with the script.
func e2eCheckStore(t *testing.T, sift string, c e2eCLI, r *e2eRun) {
	s := e2eStored(t, sift, c, r)
	if s.Outcome != "completed" {
		t.Errorf("stored outcome %q, want completed", s.Outcome)
	}
	e2eCheckScripted(t, c, s, c.timestamps)
}

// e2eStored returns the run's summary as `sift list --json --full` prints
// it from the store (with its tool calls and stalls), after checking its
// agent, phase and iteration.
func e2eStored(t *testing.T, sift string, c e2eCLI, r *e2eRun) *e2eSummary {
	t.Helper()
	out := e2eSift(t, sift, r.work, "list", "--json", "--full", "--db", r.db)
	var all []e2eSummary
	if err := json.Unmarshal(out, &all); err != nil {
		t.Fatalf("sift list --json: %v\n%s", err, out)
	}
	for _, s := range all {
		if s.WorkItemID == r.workItem && s.FileName == filepath.Base(r.file) {
			if s.AgentKind != c.kind || s.Phase != "work" || s.Iteration == nil || *s.Iteration != 1 {
				t.Errorf("stored agent %q phase %q iteration %v, want %s work 1", s.AgentKind, s.Phase, s.Iteration, c.kind)
			}
			return &s
		}
	}
	t.Fatalf("sift list --json has no session %s/%s: %s", r.workItem, filepath.Base(r.file), out)
	return nil
}

// e2eCheckInvocation reads the invocation record `sift run` wrote into
// work_item_costs: one row with the run's window, exit code, file and the
// tokens the server reported.
func e2eCheckInvocation(t *testing.T, c e2eCLI, r *e2eRun) {
	k := e2eInvocation(t, c, r, 0)
	total := c.script.Total()
	e2eCheckTokens(t, "invocation input tokens", k.InputTokens, total.Input)
	e2eCheckTokens(t, "invocation output tokens", k.OutputTokens, total.Output)
	e2eCheckTokens(t, "invocation cached tokens", k.CachedTokens, total.Cached)
}

// e2eInvocation checks that the store holds one invocation row for the
// run, with its phase, iteration, agent, file, exit code, a window within
// the sift run subprocess and sift_run as its source, and returns it.
func e2eInvocation(t *testing.T, c e2eCLI, r *e2eRun, exit int) store.Cost {
	t.Helper()
	st, err := store.Open(r.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	costs, err := st.Costs(context.Background(), r.workItem)
	if err != nil {
		t.Fatal(err)
	}
	if len(costs) != 1 {
		t.Fatalf("%d invocation rows for %s, want 1: %+v", len(costs), r.workItem, costs)
	}
	k := costs[0]
	if k.Phase != "work" || k.Iteration == nil || *k.Iteration != 1 || k.AgentKind != c.kind ||
		k.FileName != filepath.Base(r.file) || k.ExitCode == nil || *k.ExitCode != exit {
		t.Errorf("invocation %+v, want work 1 %s %s exit %d", k, c.kind, filepath.Base(r.file), exit)
	}
	// At ms precision the window lies within the sift run subprocess.
	lo, hi := r.start.UnixMilli(), r.end.UnixMilli()
	if k.Start == nil || k.End == nil || *k.Start < lo || *k.End > hi || *k.End < *k.Start {
		t.Errorf("invocation window %s..%s, want within the run %d..%d", e2eInt(k.Start), e2eInt(k.End), lo, hi)
	}
	var meta struct {
		Source string `json:"source"`
	}
	if err := json.Unmarshal([]byte(k.RawMetadataJSON), &meta); err != nil || meta.Source != store.SourceSiftRun {
		t.Errorf("raw_metadata_json %s, want source %q", k.RawMetadataJSON, store.SourceSiftRun)
	}
	return k
}

func e2eDecodeSummary(t *testing.T, out []byte) *e2eSummary {
	t.Helper()
	out = bytes.TrimSpace(out)
	var s e2eSummary
	if len(out) > 0 && out[0] == '[' {
		var all []e2eSummary
		if err := json.Unmarshal(out, &all); err != nil || len(all) != 1 {
			t.Fatalf("sift summary --json: want one summary, got %v: %s", err, out)
		}
		return &all[0]
	}
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("sift summary --json: %v: %s", err, out)
	}
	return &s
}

// e2eCheckScripted compares a summary with what the server scripted: the two
// tool calls (the first succeeds, the second fails), the tokens reported,
// the pause as a stall, and the final answer.
func e2eCheckScripted(t *testing.T, c e2eCLI, s *e2eSummary, wantStall bool) {
	t.Helper()
	if len(s.ToolCalls) != 2 {
		t.Errorf("%d tool calls, want the 2 scripted: %+v", len(s.ToolCalls), s.ToolCalls)
	} else {
		ok, bad := s.ToolCalls[0], s.ToolCalls[1]
		if ok.Success == nil || !*ok.Success {
			t.Errorf("tool call 1 (%s %q): success %v, want true", ok.Name, ok.InputSummary, e2eBool(ok.Success))
		}
		if bad.Success == nil || *bad.Success {
			t.Errorf("tool call 2 (%s %q): success %v, want false", bad.Name, bad.InputSummary, e2eBool(bad.Success))
		}
		if !strings.Contains(bad.InputSummary, "nonexistent-sift-e2e-dir") &&
			!strings.Contains(bad.InputSummary, mockllm.MissingFile) {
			t.Errorf("tool call 2 input %q does not name the failing command or file", bad.InputSummary)
		}
	}
	total := c.script.Total()
	e2eCheckTokens(t, "inputTokens", s.InputTokens, total.Input)
	e2eCheckTokens(t, "outputTokens", s.OutputTokens, total.Output)
	e2eCheckTokens(t, "cachedInputTokens", s.CachedInputTokens, total.Cached)
	if wantStall {
		var long bool
		for _, st := range s.Stalls {
			// The server paused before answering a tool result: the model
			// was outstanding.
			long = long || (st.GapMs >= (mockllm.StallDelay-500*time.Millisecond).Milliseconds() && st.Kind == "llm")
		}
		if !long {
			t.Errorf("stalls %+v, want an llm stall of about %v (the server's pause)", s.Stalls, mockllm.StallDelay)
		}
	}
	if s.FinalAssistantMessage == nil || !strings.Contains(*s.FinalAssistantMessage, mockllm.FinalText) {
		t.Errorf("final message %v, want %q", e2eString(s.FinalAssistantMessage), mockllm.FinalText)
	}
}

func e2eCheckTokens(t *testing.T, name string, got *int64, want int64) {
	t.Helper()
	if got == nil || *got != want {
		t.Errorf("%s = %s, want %d (reported by the server)", name, e2eInt(got), want)
	}
}

// e2eCheckServer: the CLI played the whole script.
func e2eCheckServer(t *testing.T, srv *mockllm.Server) {
	seen := map[int]bool{}
	for _, q := range srv.Requests() {
		seen[q.Step] = true
	}
	for i := range srv.Script().Steps {
		if !seen[i] {
			t.Errorf("the CLI never asked for script step %d", i)
		}
	}
}

// runSift runs the sift binary and returns its stdout; a non-zero exit
// fails the test.
func e2eSift(t *testing.T, sift, dir string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(sift, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sift %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// e2eRecordFiles copies the captured stream and the CLI's on-disk history into
// testdata, the history redacted line by line as sift would capture it.
// The files are named e2e-<cli>-<version>-<scenario>.jsonl.
func e2eRecordFiles(t *testing.T, c e2eCLI, r *e2eRun, scenario string, history bool) {
	t.Helper()
	name := fmt.Sprintf("e2e-%s-%s-%s.jsonl", c.label, c.version, scenario)
	e2eWrite(t, filepath.Join("../../testdata/streams", c.kind, name), string(r.data))
	if !history {
		return
	}
	var hist []string
	for _, g := range c.history {
		m, err := filepath.Glob(filepath.Join(r.home, g))
		if err != nil {
			t.Fatal(err)
		}
		hist = append(hist, m...)
	}
	if len(c.history) > 0 && len(hist) != 1 {
		t.Errorf("want one on-disk history file for %s, found %q", c.bin, hist)
		return
	}
	for _, h := range hist {
		data, err := os.ReadFile(h)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		for line := range bytes.Lines(data) {
			body, nl := bytes.CutSuffix(line, []byte("\n"))
			out.Write(redact.JSONLine(body))
			if nl {
				out.WriteByte('\n')
			}
		}
		e2eWrite(t, filepath.Join("../../testdata/history", c.kind, name), out.String())
	}
}

func e2eRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func e2eWrite(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func e2eBool(b *bool) string {
	if b == nil {
		return "null"
	}
	return fmt.Sprint(*b)
}

func e2eInt(n *int64) string {
	if n == nil {
		return "null"
	}
	return fmt.Sprint(*n)
}

func e2eString(s *string) string {
	if s == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *s)
}
