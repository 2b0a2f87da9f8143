package mockllm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// NewGemini starts a server speaking the Gemini API as the Gemini CLI calls
// it: POST /v1beta/models/MODEL:streamGenerateContent?alt=sse for turns, and
// non-streaming :generateContent for its JSON side questions (routing,
// next-speaker checks), which get {"next_speaker":"user"}-style verdicts.
// Point GOOGLE_GEMINI_BASE_URL at URL().
func NewGemini(script Script) *Server {
	return start(script, (*Server).gemini)
}

// geminiRequest is the part of a generateContent request the server reads.
type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			FunctionResponse json.RawMessage `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name                 string          `json:"name"`
			Parameters           json.RawMessage `json:"parameters"`
			ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
}

// offered implements vendorRequest: a declaration's schema is its
// parametersJsonSchema, or its parameters in older builds.
func (q *geminiRequest) offered() map[string]json.RawMessage {
	tools := map[string]json.RawMessage{}
	for _, t := range q.Tools {
		for _, f := range t.FunctionDeclarations {
			sc := f.ParametersJSONSchema
			if len(sc) == 0 {
				sc = f.Parameters
			}
			tools[f.Name] = sc
		}
	}
	return tools
}

// toolResults implements vendorRequest: it counts the functionResponse
// parts of the conversation.
func (q *geminiRequest) toolResults() int {
	n := 0
	for _, c := range q.Contents {
		for _, p := range c.Parts {
			if len(p.FunctionResponse) > 0 {
				n++
			}
		}
	}
	return n
}

// geminiVerdict answers the CLI's JSON side questions: it satisfies the
// next-speaker check (the user speaks next, so the turn ends) and the model
// router.
const geminiVerdict = `{"reasoning":"scripted","next_speaker":"user","model_choice":"flash"}`

func (s *Server) gemini(w http.ResponseWriter, r *http.Request, body []byte) {
	path := r.URL.Path
	_, method, _ := strings.Cut(path[strings.LastIndex(path, "/")+1:], ":")
	model := strings.TrimPrefix(path[:len(path)-len(method)-1], "/v1beta/models/")
	if r.Method != http.MethodPost {
		s.notFound(w, r, body)
		return
	}
	switch method {
	case "countTokens":
		s.countTokens(w, r, body, `{"totalTokens":100}`)
		return
	case "generateContent", "streamGenerateContent":
	default:
		s.notFound(w, r, body)
		return
	}
	var q geminiRequest
	// The non-streaming call is the router's: it gets a JSON verdict.
	router := method == "generateContent"
	o, st, _, ok := s.turn(w, r, body, &q, router, func(st Step) any {
		return map[string]any{"error": map[string]any{"code": st.Fail, "message": st.FailMessage,
			"status": "INVALID_ARGUMENT"}}
	})
	if !ok {
		return
	}
	n := o.results
	if router {
		st = Step{Text: geminiVerdict}
	}
	u := st.Usage
	usage := map[string]any{
		"promptTokenCount":     u.Input,
		"candidatesTokenCount": u.Output,
		"totalTokenCount":      u.Input + u.Output,
	}
	if u.Cached > 0 {
		usage["cachedContentTokenCount"] = u.Cached
	}
	respID := fmt.Sprintf("sift-resp-%02d", n)
	chunk := func(parts []any, finish string, withUsage bool) map[string]any {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		if finish != "" {
			cand["finishReason"] = finish
		}
		c := map[string]any{"candidates": []any{cand}, "modelVersion": model, "responseId": respID}
		if withUsage {
			c["usageMetadata"] = usage
		}
		return c
	}
	var parts []any
	if st.Text != "" {
		parts = append(parts, map[string]any{"text": st.Text})
	}
	if name, args, calls := st.call(o.tools); o.hasShell && calls && method == "streamGenerateContent" {
		parts = append(parts, map[string]any{"functionCall": map[string]any{"name": name, "args": args}})
	}
	if method == "generateContent" {
		writeJSON(w, http.StatusOK, chunk(parts, "STOP", true))
		return
	}
	e := newSSE(w)
	for i, p := range parts {
		if i == len(parts)-1 {
			e.event("", chunk([]any{p}, "STOP", true))
		} else {
			e.event("", chunk([]any{p}, "", false))
		}
	}
}
