package mockllm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// post sends body to url and returns the decoded JSON of every SSE data
// line (or the single JSON body of a non-streaming answer).
func post(t *testing.T, url, body string) []map[string]any {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST %s: %s: %s", url, resp.Status, b)
	}
	var out []map[string]any
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		var m map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			t.Fatal(err)
		}
		return append(out, m)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatalf("data line %q: %v", data, err)
		}
		out = append(out, m)
	}
	return out
}

// find returns the string at a dotted path of v ("a.0.b").
func find(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i := 0
			for _, c := range k {
				i = i*10 + int(c-'0')
			}
			if i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func testScript() Script {
	s := DefaultScript()
	s.Steps[2].Delay = 300 * time.Millisecond
	return s
}

func TestAnthropicPlaysScriptByToolResults(t *testing.T) {
	t.Parallel()
	s := NewAnthropic(testScript())
	defer s.Close()
	tools := `"tools":[{"name":"Read","input_schema":{}},{"name":"Bash","input_schema":{"properties":{"command":{"type":"string"},"description":{"type":"string"}}}}]`
	ev := post(t, s.URL()+"/v1/messages?beta=true", `{"model":"m","stream":true,`+tools+`,"messages":[{"role":"user","content":"go"}]}`)
	if got := find(ev[0], "message.usage.input_tokens"); got != 1200.0 {
		t.Errorf("step 0 input_tokens = %v, want 1200", got)
	}
	var sawTool bool
	for _, e := range ev {
		if find(e, "content_block.type") == "tool_use" {
			sawTool = find(e, "content_block.name") == "Bash"
		}
		if find(e, "delta.type") == "input_json_delta" {
			var args map[string]any
			_ = json.Unmarshal([]byte(find(e, "delta.partial_json").(string)), &args)
			if !strings.Contains(args["command"].(string), "A=ghp_") || args["description"] == "" {
				t.Errorf("step 0 tool args = %v", args)
			}
		}
	}
	if !sawTool {
		t.Errorf("step 0: no Bash tool_use block in %v", ev)
	}
	// Two tool results: the final step, after its delay.
	start := time.Now()
	ev = post(t, s.URL()+"/v1/messages", `{"model":"m","stream":true,`+tools+`,"messages":[{"role":"user","content":[{"type":"tool_result"}]},{"role":"user","content":[{"type":"tool_result"}]}]}`)
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("final step answered after %v, want the 300ms delay", d)
	}
	last := ev[len(ev)-2]
	if find(last, "delta.stop_reason") != "end_turn" || find(last, "usage.output_tokens") != 50.0 {
		t.Errorf("final message_delta = %v", last)
	}
	if find(ev[0], "message.usage.cache_read_input_tokens") != 1200.0 || find(ev[0], "message.usage.input_tokens") != 600.0 {
		t.Errorf("final usage = %v, want input 600 + cache read 1200", find(ev[0], "message.usage"))
	}
	// A request without the shell tool is a side request.
	ev = post(t, s.URL()+"/v1/messages", `{"model":"m","stream":false,"messages":[{"role":"user","content":"title?"}]}`)
	if find(ev[0], "content.0.text") != "sift e2e" {
		t.Errorf("side answer = %v", ev[0])
	}
	reqs := s.Requests()
	if len(reqs) != 3 || reqs[0].Step != 0 || reqs[1].Step != 2 || reqs[2].Step != -1 {
		t.Errorf("requests = %+v", reqs)
	}
}

func TestResponsesFunctionCallAndUsage(t *testing.T) {
	t.Parallel()
	s := NewResponses(testScript())
	defer s.Close()
	tools := `"tools":[{"type":"function","name":"exec_command","parameters":{"properties":{"cmd":{"type":"string"}}}}]`
	ev := post(t, s.URL()+"/v1/responses", `{"model":"m",`+tools+`,"input":[{"type":"message"},{"type":"function_call"},{"type":"function_call_output"}]}`)
	var call map[string]any
	for _, e := range ev {
		if e["type"] == "response.output_item.done" && find(e, "item.type") == "function_call" {
			call = e["item"].(map[string]any)
		}
	}
	if call == nil || call["name"] != "exec_command" || call["call_id"] != "call_sift02" {
		t.Fatalf("step 1 function call = %v", call)
	}
	var args map[string]any
	_ = json.Unmarshal([]byte(call["arguments"].(string)), &args)
	if args["cmd"] != FailingCommand {
		t.Errorf("step 1 args = %v, want cmd %q", args, FailingCommand)
	}
	done := ev[len(ev)-1]
	if done["type"] != "response.completed" || find(done, "response.usage.input_tokens") != 1500.0 ||
		find(done, "response.usage.input_tokens_details.cached_tokens") != 1000.0 {
		t.Errorf("completed = %v", done)
	}
}

func TestGeminiStreamAndVerdict(t *testing.T) {
	t.Parallel()
	s := NewGemini(testScript().FailByReading("read_file", "file_path"))
	defer s.Close()
	tools := `"tools":[{"functionDeclarations":[{"name":"run_shell_command","parametersJsonSchema":{"properties":{"command":{"type":"string"}}}},{"name":"read_file","parametersJsonSchema":{}}]}]`
	ev := post(t, s.URL()+"/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
		`{`+tools+`,"contents":[{"role":"user","parts":[{"text":"go"}]},{"role":"model","parts":[{"functionCall":{}}]},{"role":"user","parts":[{"functionResponse":{"name":"x"}}]}]}`)
	if len(ev) != 2 {
		t.Fatalf("got %d chunks, want text then call: %v", len(ev), ev)
	}
	fc := find(ev[1], "candidates.0.content.parts.0.functionCall")
	if find(fc, "name") != "read_file" || find(fc, "args.file_path") != MissingFile {
		t.Errorf("step 1 call = %v", fc)
	}
	if find(ev[1], "usageMetadata.promptTokenCount") != 1500.0 || find(ev[1], "usageMetadata.cachedContentTokenCount") != 1000.0 {
		t.Errorf("usage = %v", find(ev[1], "usageMetadata"))
	}
	ev = post(t, s.URL()+"/v1beta/models/gemini-2.5-flash:generateContent", `{"contents":[]}`)
	var verdict map[string]any
	if err := json.Unmarshal([]byte(find(ev[0], "candidates.0.content.parts.0.text").(string)), &verdict); err != nil || verdict["next_speaker"] != "user" {
		t.Errorf("verdict = %v (%v)", verdict, err)
	}
}

func TestChatToolCallsThenDone(t *testing.T) {
	t.Parallel()
	s := NewChat(testScript())
	defer s.Close()
	resp, err := http.Post(s.URL()+"/v1/chat/completions", "application/json", bytes.NewReader([]byte(
		`{"model":"mock-model","stream":true,"tools":[{"type":"function","function":{"name":"bash","parameters":{"properties":{"command":{"type":"string"},"description":{"type":"string"}}}}}],"messages":[{"role":"user","content":"go"}]}`)))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.HasSuffix(body, []byte("data: [DONE]\n\n")) {
		t.Errorf("stream does not end with [DONE]: %q", body[max(0, len(body)-40):])
	}
	ev := post(t, s.URL()+"/v1/chat/completions", `{"model":"mock-model","stream":true,"tools":[{"type":"function","function":{"name":"bash","parameters":{}}}],"messages":[{"role":"user","content":"go"}]}`)
	var name string
	var usage any
	for _, e := range ev {
		if n, ok := find(e, "choices.0.delta.tool_calls.0.function.name").(string); ok {
			name = n
		}
		if u := find(e, "usage.prompt_tokens"); u != nil {
			usage = u
		}
	}
	if name != "bash" || usage != 1200.0 {
		t.Errorf("tool %q usage %v, want bash and 1200", name, usage)
	}
}

func TestFailAtAnswersWithVendorError(t *testing.T) {
	t.Parallel()
	s := NewResponses(DefaultScript().FailAt(1, http.StatusBadRequest, "scripted failure"))
	defer s.Close()
	tools := `"tools":[{"type":"function","name":"exec_command","parameters":{}}]`
	resp, err := http.Post(s.URL()+"/v1/responses", "application/json",
		strings.NewReader(`{"model":"m",`+tools+`,"input":[{"type":"function_call_output"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Error struct{ Message string } `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusBadRequest || body.Error.Message != "scripted failure" {
		t.Errorf("got %s %+v, want 400 with the message", resp.Status, body)
	}
	if n := len(s.Script().Steps); n != 2 {
		t.Errorf("script has %d steps, want 2 (the failure ends it)", n)
	}
}

func TestSecretCommandHoldsNoWholeSecret(t *testing.T) {
	t.Parallel()
	for _, secret := range []string{GitHubToken, AWSKeyID} {
		if strings.Contains(SecretCommand, secret) {
			t.Errorf("the command line holds %s…: only the tool's output should", secret[:6])
		}
	}
	if !strings.Contains(SecretCommand, GitHubToken[4:]) || !strings.Contains(SecretCommand, AWSKeyID[4:]) {
		t.Errorf("SecretCommand %q does not print both secrets", SecretCommand)
	}
}

// TestEveryVendorDecodesTheSameWay sends each server a body that is not
// JSON, a request to a path its API does not have, and a scripted request,
// and checks that all four answer and record them alike: 400 and 404 as
// side requests, and the scripted one as the step its tool results pick.
func TestEveryVendorDecodesTheSameWay(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, path, body string
		start            func(Script) *Server
	}{
		{"anthropic", "/v1/messages", `{"messages":[{"role":"user","content":[{"type":"tool_result"}]}],` +
			`"tools":[{"name":"Bash","input_schema":{"properties":{"command":{}}}}]}`, NewAnthropic},
		{"responses", "/v1/responses", `{"input":[{"type":"function_call_output"}],` +
			`"tools":[{"type":"function","name":"shell","parameters":{"properties":{"command":{}}}}]}`, NewResponses},
		{"gemini", "/v1beta/models/m:streamGenerateContent", `{"contents":[{"parts":[{"functionResponse":{}}]}],` +
			`"tools":[{"functionDeclarations":[{"name":"run_shell_command","parameters":{"properties":{"command":{}}}}]}]}`, NewGemini},
		{"chat", "/v1/chat/completions", `{"messages":[{"role":"tool"}],` +
			`"tools":[{"type":"function","function":{"name":"bash","parameters":{"properties":{"command":{}}}}}]}`, NewChat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := tc.start(testScript())
			defer s.Close()
			for _, c := range []struct {
				path, body string
				status     int
			}{
				{tc.path, "not json", http.StatusBadRequest},
				{"/nowhere", "{}", http.StatusNotFound},
				{tc.path, tc.body, http.StatusOK},
			} {
				resp, err := http.Post(s.URL()+c.path, "application/json", strings.NewReader(c.body))
				if err != nil {
					t.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != c.status {
					t.Errorf("POST %s %q: %s, want %d", c.path, c.body, resp.Status, c.status)
				}
			}
			reqs := s.Requests()
			if len(reqs) != 3 || reqs[0].Step != -1 || reqs[1].Step != -1 || reqs[2].Step != 1 {
				t.Fatalf("requests %+v, want two side requests and step 1", reqs)
			}
			if !json.Valid(reqs[0].Body) || string(reqs[0].Body) != `"not json"` {
				t.Errorf("a body that is not JSON is kept as %s", reqs[0].Body)
			}
		})
	}
}
