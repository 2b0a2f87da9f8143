package mockllm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// NewResponses starts a server speaking the OpenAI Responses API
// (POST /v1/responses, answered as SSE), as Codex calls it through a custom
// model provider whose base_url is URL()+"/v1".
func NewResponses(script Script) *Server {
	return start(script, (*Server).responses)
}

// responsesRequest is the part of a Responses request the server reads.
type responsesRequest struct {
	Model string `json:"model"`
	Input []struct {
		Type string `json:"type"`
	} `json:"input"`
	Tools []struct {
		Type       string          `json:"type"`
		Name       string          `json:"name"`
		Parameters json.RawMessage `json:"parameters"`
	} `json:"tools"`
}

// offered implements vendorRequest: the function tools (Codex also offers
// built-in ones, which the script never calls).
func (q *responsesRequest) offered() map[string]json.RawMessage {
	tools := map[string]json.RawMessage{}
	for _, t := range q.Tools {
		if t.Type == "function" {
			tools[t.Name] = t.Parameters
		}
	}
	return tools
}

// toolResults implements vendorRequest: it counts the call outputs of the
// input.
func (q *responsesRequest) toolResults() int {
	n := 0
	for _, it := range q.Input {
		if it.Type == "function_call_output" || it.Type == "custom_tool_call_output" {
			n++
		}
	}
	return n
}

func (s *Server) responses(w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		s.notFound(w, r, body)
		return
	}
	var q responsesRequest
	o, st, scripted, ok := s.turn(w, r, body, &q, false, openAIError)
	if !ok {
		return
	}
	n := o.results
	if !scripted {
		n = 99
	}
	respID := fmt.Sprintf("resp_sift%02d", n)
	e := newSSE(w)
	e.event("response.created", map[string]any{"type": "response.created",
		"response": map[string]any{"id": respID, "object": "response", "status": "in_progress", "model": q.Model}})
	idx := 0
	if st.Text != "" {
		itemID := fmt.Sprintf("msg_sift%02d", n)
		e.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": idx,
			"item": map[string]any{"type": "message", "id": itemID, "role": "assistant", "status": "in_progress", "content": []any{}}})
		e.event("response.output_text.delta", map[string]any{"type": "response.output_text.delta",
			"item_id": itemID, "output_index": idx, "content_index": 0, "delta": st.Text})
		e.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": idx,
			"item": map[string]any{"type": "message", "id": itemID, "role": "assistant", "status": "completed",
				"content": []any{map[string]any{"type": "output_text", "text": st.Text, "annotations": []any{}}}}})
		idx++
	}
	if name, args, calls := st.call(o.tools); o.hasShell && calls {
		item := map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_sift%02d", n+1),
			"call_id": fmt.Sprintf("call_sift%02d", n+1), "name": name, "arguments": "", "status": "in_progress"}
		e.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": idx, "item": item})
		done := map[string]any{}
		for k, v := range item {
			done[k] = v
		}
		done["arguments"] = mustJSON(args)
		done["status"] = "completed"
		e.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": idx, "item": done})
	}
	u := st.Usage
	e.event("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": respID, "object": "response", "status": "completed", "model": q.Model,
		"usage": map[string]any{
			"input_tokens":          u.Input,
			"input_tokens_details":  map[string]any{"cached_tokens": u.Cached},
			"output_tokens":         u.Output,
			"output_tokens_details": map[string]any{"reasoning_tokens": 0},
			"total_tokens":          u.Input + u.Output,
		}}})
}
