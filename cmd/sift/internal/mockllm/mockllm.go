// Package mockllm holds small model servers for sift's end-to-end tests
// (cmd/sift's e2e tests, the only users: it is test support, internal to
// cmd/sift, and ships in no product package).
// Each one listens on 127.0.0.1, speaks one vendor's streaming API (Anthropic
// Messages, OpenAI Responses, Gemini generateContent, OpenAI chat
// completions) and plays a fixed script, so that a real agent CLI pointed at
// it runs a known conversation: text, a shell tool call that succeeds, one
// that fails, a pause, and a final answer, with known token counts.
//
// The server picks the step to play from the request itself (how many tool
// results the conversation already holds), not from a request counter, so
// the side requests the CLIs make (titles, routing, next-speaker checks) do
// not shift the script. Side requests get a short answer with zero usage.
package mockllm

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Usage is the token count a step reports. Input includes the cached share,
// as the Summary counts it; each protocol maps it onto its own fields.
type Usage struct {
	Input  int64
	Cached int64
	Output int64
}

// Step is one model response of the script.
type Step struct {
	// Text is what the model says before any tool call.
	Text string
	// Shell, when set, is a command the model asks the shell tool to run.
	Shell string
	// ShellDescription is passed where the tool wants a description.
	ShellDescription string
	// Tool and Args, when Tool is set, call that tool with Args verbatim
	// instead of the shell tool (a CLI whose shell tool reports a non-zero
	// exit as a success fails another way, e.g. reading a missing file).
	Tool string
	Args map[string]any
	// Delay is how long the server waits before it answers this step.
	Delay time.Duration
	// Usage is the token count reported for this response.
	Usage Usage
	// Fail, when set, answers the step with this HTTP status and the
	// vendor's error body carrying FailMessage instead of a response.
	// Use a status the CLIs do not retry (400).
	Fail        int
	FailMessage string
}

// Script is a scripted conversation: step i answers the request whose
// conversation already holds i tool results. The last step should have no
// Shell: it is the final answer.
type Script struct {
	Steps []Step
}

// Secrets the default script's first tool prints. They are built at run
// time by the shell from two halves so that the command line itself holds
// no complete secret: what the test can check is that the tool's output is
// redacted.
const (
	// GitHubToken is a fake classic GitHub personal access token.
	GitHubToken = "ghp_" + githubTokenRest
	// AWSKeyID is a fake AWS access key id.
	AWSKeyID = "AKIA" + awsKeyRest

	githubTokenRest = "Zq8T4mNcY2vR7wXkLp3sB9dF6hJ1gA5eU0iO"
	awsKeyRest      = "Z7Q3X9M2B5N8P4L6"
)

// SecretCommand prints GitHubToken and AWSKeyID, joined by the shell from
// their prefixes and the rest.
const SecretCommand = `A=ghp_; B=AKIA; echo "token ${A}` + githubTokenRest + ` key ${B}` + awsKeyRest + `"`

// Default script texts, so tests can assert them.
const (
	FirstText  = "Let me look at the environment first."
	SecondText = "Now let me check the missing directory."
	FinalText  = "All done: the environment is set up and the directory is missing."
	// FailingCommand exits non-zero (ls of a missing path exits 2).
	FailingCommand = "ls /nonexistent-sift-e2e-dir"
	// MissingFile is a relative path that does not exist in the CLI's
	// working folder, for scripts that fail by reading it.
	MissingFile = "missing-notes.txt"
)

// StallDelay is the pause before the default script's final answer.
const StallDelay = 2500 * time.Millisecond

// DefaultScript is the conversation every end-to-end test plays.
func DefaultScript() Script {
	return Script{Steps: []Step{
		{
			Text:             FirstText,
			Shell:            SecretCommand,
			ShellDescription: "Print the environment tokens",
			Usage:            Usage{Input: 1200, Cached: 0, Output: 40},
		},
		{
			Text:             SecondText,
			Shell:            FailingCommand,
			ShellDescription: "List a missing directory",
			Usage:            Usage{Input: 1500, Cached: 1000, Output: 30},
		},
		{
			Text:  FinalText,
			Delay: StallDelay,
			Usage: Usage{Input: 1800, Cached: 1200, Output: 50},
		},
	}}
}

// FailByReading returns the script with its failing shell step replaced by
// a call of the file-read tool readTool (argument key arg) on MissingFile.
// The Gemini CLI needs it: its shell tool reports a non-zero exit as a
// success.
func (s Script) FailByReading(readTool, arg string) Script {
	steps := append([]Step(nil), s.Steps...)
	for i, st := range steps {
		if st.Shell == FailingCommand {
			steps[i].Shell = ""
			steps[i].Tool = readTool
			steps[i].Args = map[string]any{arg: MissingFile}
		}
	}
	return Script{Steps: steps}
}

// FailAt returns the script with step i replaced by an HTTP failure with
// the given status and message; the steps after it are never reached.
func (s Script) FailAt(i, status int, msg string) Script {
	steps := append([]Step(nil), s.Steps[:i+1]...)
	steps[i] = Step{Fail: status, FailMessage: msg}
	return Script{Steps: steps}
}

// Total is the sum of the script's usage.
func (s Script) Total() Usage {
	var u Usage
	for _, st := range s.Steps {
		u.Input += st.Usage.Input
		u.Cached += st.Usage.Cached
		u.Output += st.Usage.Output
	}
	return u
}

// step returns the step for a conversation holding n tool results, and
// false past the end of the script.
func (s Script) step(n int) (Step, bool) {
	if n < 0 || n >= len(s.Steps) {
		return Step{}, false
	}
	return s.Steps[n], true
}

// Request is one request the server received, kept for debugging.
type Request struct {
	Method string
	Path   string
	Body   json.RawMessage
	// Step is the script step answered, or -1 for a side request.
	Step int
}

// Server is a running scripted model server.
type Server struct {
	script Script
	srv    *httptest.Server

	mu   sync.Mutex
	reqs []Request
}

// handler answers one protocol's requests.
type handler func(s *Server, w http.ResponseWriter, r *http.Request, body []byte)

func start(script Script, h handler) *Server {
	s := &Server{script: script}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		h(s, w, r, body)
	}))
	return s
}

// URL is the server's base URL, http://127.0.0.1:PORT.
func (s *Server) URL() string { return s.srv.URL }

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Script returns the script the server plays.
func (s *Server) Script() Script { return s.script }

func (s *Server) record(r *http.Request, body []byte, step int) {
	raw := json.RawMessage(body)
	if !json.Valid(body) {
		raw, _ = json.Marshal(string(body))
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.RequestURI(), Body: raw, Step: step})
	s.mu.Unlock()
}

// play picks the script step for a request carrying n tool results and
// plays its preliminaries: it records the request, waits the step's delay,
// and answers a scripted failure with errBody. A request off the script
// (onScript false: no shell tool offered, a title or router call; or past
// the last step) is recorded as such and gets a filler text step, with
// scripted false. done reports that the response is already written.
func (s *Server) play(w http.ResponseWriter, r *http.Request, body []byte, n int, onScript bool,
	errBody func(Step) any) (st Step, scripted, done bool) {
	st, ok := s.script.step(n)
	if !onScript || !ok {
		s.record(r, body, -1)
		return Step{Text: "sift e2e"}, false, false
	}
	s.record(r, body, n)
	sleep(r, st.Delay)
	if st.Fail != 0 {
		fail(w, st, errBody(st))
		return st, true, true
	}
	return st, true, false
}

// fail writes a vendor error body with the step's status.
func fail(w http.ResponseWriter, st Step, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(st.Fail)
	_ = json.NewEncoder(w).Encode(body)
}

// openAIError is the error body of the OpenAI APIs.
func openAIError(st Step) any {
	return map[string]any{"error": map[string]any{"message": st.FailMessage, "type": "invalid_request_error",
		"param": nil, "code": nil}}
}

// sse writes server-sent events and flushes after each.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return &sse{w: w, f: f}
}

// event writes one event; name may be empty for data-only streams.
func (e *sse) event(name string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("mockllm: marshal event: %v", err))
	}
	if name != "" {
		fmt.Fprintf(e.w, "event: %s\n", name)
	}
	fmt.Fprintf(e.w, "data: %s\n\n", b)
	if e.f != nil {
		e.f.Flush()
	}
}

// raw writes one data line verbatim.
func (e *sse) raw(data string) {
	fmt.Fprintf(e.w, "data: %s\n\n", data)
	if e.f != nil {
		e.f.Flush()
	}
}

// sleep waits d unless the client goes away first.
func sleep(r *http.Request, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.Context().Done():
	}
}

// toolSchema is the part of a tool's JSON schema the server looks at.
type toolSchema struct {
	Properties map[string]json.RawMessage `json:"properties"`
	Required   []string                   `json:"required"`
}

// shellArgs builds the arguments of a shell tool call from the tool's
// schema: the command goes into "command" or "cmd" (as an array when the
// schema says so), a required description gets the step's description.
func shellArgs(schema json.RawMessage, st Step) map[string]any {
	var sc toolSchema
	_ = json.Unmarshal(schema, &sc)
	args := map[string]any{}
	key := "command"
	if _, ok := sc.Properties["command"]; !ok {
		if _, ok := sc.Properties["cmd"]; ok {
			key = "cmd"
		}
	}
	var prop struct {
		Type any `json:"type"`
	}
	_ = json.Unmarshal(sc.Properties[key], &prop)
	if prop.Type == "array" {
		args[key] = []string{"bash", "-lc", st.Shell}
	} else {
		args[key] = st.Shell
	}
	if _, ok := sc.Properties["description"]; ok {
		args["description"] = st.ShellDescription
	}
	return args
}

// shellToolNames are the shell tools of the supported CLIs, in preference
// order: Claude Code, Codex, Gemini CLI, opencode.
func shellToolNames() []string {
	return []string{"Bash", "exec_command", "shell", "run_shell_command", "bash"}
}

// call returns the tool call the step makes given the tools offered, and
// false when the step calls no tool or the tool is not offered.
func (st Step) call(tools map[string]json.RawMessage) (string, map[string]any, bool) {
	if st.Tool != "" {
		if _, ok := tools[st.Tool]; !ok {
			return "", nil, false
		}
		return st.Tool, st.Args, true
	}
	if st.Shell == "" {
		return "", nil, false
	}
	name, schema, ok := pickShell(tools)
	if !ok {
		return "", nil, false
	}
	return name, shellArgs(schema, st), true
}

// pickShell returns the name and schema of the first shell tool offered.
func pickShell(tools map[string]json.RawMessage) (string, json.RawMessage, bool) {
	for _, n := range shellToolNames() {
		if sc, ok := tools[n]; ok {
			return n, sc, true
		}
	}
	return "", nil, false
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("mockllm: marshal: %v", err))
	}
	return string(b)
}
