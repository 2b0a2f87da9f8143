package mockllm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// NewAnthropic starts a server speaking the Anthropic Messages API
// (POST /v1/messages with "stream": true, answered as SSE), as Claude Code
// calls it. Point ANTHROPIC_BASE_URL at URL().
func NewAnthropic(script Script) *Server {
	return start(script, (*Server).anthropic)
}

// anthropicRequest is the part of a Messages request the server reads.
type anthropicRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"input_schema"`
	} `json:"tools"`
}

// offered implements vendorRequest.
func (q *anthropicRequest) offered() map[string]json.RawMessage {
	tools := map[string]json.RawMessage{}
	for _, t := range q.Tools {
		tools[t.Name] = t.InputSchema
	}
	return tools
}

// toolResults implements vendorRequest: it counts the tool_result blocks
// of the conversation.
func (q *anthropicRequest) toolResults() int {
	n := 0
	for _, m := range q.Messages {
		var blocks []struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				n++
			}
		}
	}
	return n
}

func (s *Server) anthropic(w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1/messages") {
		s.notFound(w, r, body)
		return
	}
	if strings.HasSuffix(r.URL.Path, "/count_tokens") {
		s.countTokens(w, r, body, `{"input_tokens":100}`)
		return
	}
	var q anthropicRequest
	o, st, _, ok := s.turn(w, r, body, &q, false, func(st Step) any {
		return map[string]any{"type": "error",
			"error": map[string]any{"type": "invalid_request_error", "message": st.FailMessage}}
	})
	if !ok {
		return
	}
	n := o.results
	msgID := fmt.Sprintf("msg_sift%02d", n)
	if !o.hasShell {
		msgID = "msg_siftside"
	}
	u := st.Usage
	usage := map[string]any{
		"input_tokens":                u.Input - u.Cached,
		"cache_creation_input_tokens": 0,
		"cache_read_input_tokens":     u.Cached,
		"output_tokens":               1,
	}
	var blocks []any
	if st.Text != "" {
		blocks = append(blocks, map[string]any{"type": "text", "text": st.Text})
	}
	stop := "end_turn"
	name, args, calls := st.call(o.tools)
	if o.hasShell && calls {
		stop = "tool_use"
		blocks = append(blocks, map[string]any{
			"type": "tool_use", "id": fmt.Sprintf("toolu_sift%02d", n+1), "name": name, "input": args,
		})
	}
	if !q.Stream {
		final := usage
		final["output_tokens"] = u.Output
		writeJSON(w, http.StatusOK, map[string]any{
			"id": msgID, "type": "message", "role": "assistant", "model": q.Model,
			"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": final,
		})
		return
	}
	e := newSSE(w)
	e.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": q.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage,
	}})
	for i, b := range blocks {
		blk := b.(map[string]any)
		switch blk["type"] {
		case "text":
			e.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": blk["text"]}})
		case "tool_use":
			e.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": blk["id"], "name": blk["name"], "input": map[string]any{}}})
			e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": mustJSON(args)}})
		}
		e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	e.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": u.Output}})
	e.event("message_stop", map[string]any{"type": "message_stop"})
}
