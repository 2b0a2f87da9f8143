package mockllm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// NewChat starts a server speaking OpenAI chat completions
// (POST /v1/chat/completions with "stream": true), as opencode calls an
// "@ai-sdk/openai-compatible" provider whose baseURL is URL()+"/v1".
func NewChat(script Script) *Server {
	return start(script, (*Server).chat)
}

// chatRequest is the part of a chat completions request the server reads.
type chatRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role string `json:"role"`
	} `json:"messages"`
	Tools []struct {
		Type     string `json:"type"`
		Function struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

// offered implements vendorRequest.
func (q *chatRequest) offered() map[string]json.RawMessage {
	tools := map[string]json.RawMessage{}
	for _, t := range q.Tools {
		tools[t.Function.Name] = t.Function.Parameters
	}
	return tools
}

// toolResults implements vendorRequest: it counts the tool messages.
func (q *chatRequest) toolResults() int {
	n := 0
	for _, m := range q.Messages {
		if m.Role == "tool" {
			n++
		}
	}
	return n
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		s.notFound(w, r, body)
		return
	}
	var q chatRequest
	o, st, scripted, ok := s.turn(w, r, body, &q, false, openAIError)
	if !ok {
		return
	}
	n := o.results
	if !scripted {
		n = 99
	}
	id := fmt.Sprintf("chatcmpl-sift%02d", n)
	created := time.Now().Unix()
	u := st.Usage
	usage := map[string]any{
		"prompt_tokens":         u.Input,
		"completion_tokens":     u.Output,
		"total_tokens":          u.Input + u.Output,
		"prompt_tokens_details": map[string]any{"cached_tokens": u.Cached},
	}
	var call map[string]any
	finish := "stop"
	if name, args, calls := st.call(o.tools); o.hasShell && calls {
		finish = "tool_calls"
		call = map[string]any{"index": 0, "id": fmt.Sprintf("call_sift%02d", n+1), "type": "function",
			"function": map[string]any{"name": name, "arguments": mustJSON(args)}}
	}
	if !q.Stream {
		msg := map[string]any{"role": "assistant", "content": st.Text}
		if call != nil {
			delete(call, "index")
			msg["tool_calls"] = []any{call}
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "object": "chat.completion", "created": created,
			"model": q.Model, "choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage": usage})
		return
	}
	e := newSSE(w)
	chunk := func(delta map[string]any, fin any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": q.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": fin}}}
	}
	e.event("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	if st.Text != "" {
		e.event("", chunk(map[string]any{"content": st.Text}, nil))
	}
	if call != nil {
		e.event("", chunk(map[string]any{"tool_calls": []any{call}}, nil))
	}
	e.event("", chunk(map[string]any{}, finish))
	e.event("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": q.Model,
		"choices": []any{}, "usage": usage})
	e.raw("[DONE]")
}
