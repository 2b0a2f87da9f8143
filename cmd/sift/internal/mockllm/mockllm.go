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

// offer is what the server reads of any vendor's request: the tools it
// offers, by name with their JSON schema, and how many tool results the
// conversation already holds, which picks the script step.
type offer struct {
	tools   map[string]json.RawMessage
	results int
	// hasShell is set when one of the tools is a shell tool: a request
	// without one is a side request (a title, a router call).
	hasShell bool
}

// vendorRequest is one vendor's request as decoded from its JSON body.
type vendorRequest interface {
	// offered returns the tools the request offers, by name.
	offered() map[string]json.RawMessage
	// toolResults counts the tool results the conversation holds.
	toolResults() int
}

// turn decodes a request body into q and plays the script step its tool
// results pick (see play); side marks a request that is off the script
// whatever tools it offers (Gemini's router). ok is false when the response
// is already written: a body that is not JSON (answered 400 and recorded as
// a side request) or a scripted failure.
func (s *Server) turn(w http.ResponseWriter, r *http.Request, body []byte, q vendorRequest, side bool,
	errBody func(Step) any) (o offer, st Step, scripted, ok bool) {
	if err := json.Unmarshal(body, q); err != nil {
		s.record(r, body, -1)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return offer{}, Step{}, false, false
	}
	o = offer{tools: q.offered(), results: q.toolResults()}
	_, _, o.hasShell = pickShell(o.tools)
	st, scripted, done := s.play(w, r, body, o.results, o.hasShell && !side, errBody)
	return o, st, scripted, !done
}

// notFound records a request the vendor's API has no answer for and
// answers 404.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request, body []byte) {
	s.record(r, body, -1)
	http.NotFound(w, r)
}

// countTokens records a token-count side request and answers it with a
// fixed JSON body.
func (s *Server) countTokens(w http.ResponseWriter, r *http.Request, body []byte, answer string) {
	s.record(r, body, -1)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, answer)
}

// writeJSON writes v as the JSON body of a response with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
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
		writeJSON(w, st.Fail, errBody(st))
		return st, true, true
	}
	return st, true, false
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
	// Any other required property (Droid's Execute asks riskLevel and
	// riskLevelReason) gets the first of its values, else the description.
	for _, r := range sc.Required {
		if _, ok := args[r]; ok {
			continue
		}
		var p struct {
			Enum []any `json:"enum"`
		}
		_ = json.Unmarshal(sc.Properties[r], &p)
		if len(p.Enum) > 0 {
			args[r] = p.Enum[0]
		} else {
			args[r] = st.ShellDescription
		}
	}
	return args
}

// shellToolNames are the shell tools of the supported CLIs, in preference
// order: Claude Code, Codex, Gemini CLI, opencode, Factory Droid.
func shellToolNames() []string {
	return []string{"Bash", "exec_command", "shell", "run_shell_command", "bash", "Execute"}
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
