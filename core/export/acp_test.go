package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// acpSchemaPath is the stable ACP v1 schema the pinned SDK ships
// (testdata/acp/package.json, @agentclientprotocol/sdk 2.4.0).
var acpSchemaPath = filepath.Join("..", "..", "testdata", "acp", "node_modules", "@agentclientprotocol", "sdk", "schema", "v1", "schema.json")

// acpSchemas returns the ACP v1 schema as shipped, compiled whole, and
// a strict copy of its SessionNotification that admits no field ACP does
// not define outside _meta.
func acpSchemas(t *testing.T) (whole, strict *jsonschema.Schema) {
	t.Helper()
	raw, err := os.ReadFile(acpSchemaPath)
	if err != nil {
		t.Skipf("ACP schema not installed (%v): run npm ci --prefix testdata/acp", err)
	}
	whole = compileSchema(t, acpSchemaPath, "")
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	closeSchema(doc)
	strictPath := filepath.Join(t.TempDir(), "strict.json")
	data, _ := json.Marshal(doc)
	if err := os.WriteFile(strictPath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return whole, compileSchema(t, strictPath, "/$defs/SessionNotification")
}

// closeSchema makes a schema strict: every object schema that declares
// properties gets unevaluatedProperties false, except those another
// schema with properties of its own composes by allOf (their properties
// are evaluated by the composing schema, which is closed instead).
func closeSchema(doc map[string]any) {
	defs := doc["$defs"].(map[string]any)
	composed := map[string]bool{}
	var find func(v any)
	find = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if _, ok := x["properties"]; ok {
				if all, ok := x["allOf"].([]any); ok {
					for _, a := range all {
						if ref, ok := a.(map[string]any)["$ref"].(string); ok {
							composed[strings.TrimPrefix(ref, "#/$defs/")] = true
						}
					}
				}
			}
			for _, e := range x {
				find(e)
			}
		case []any:
			for _, e := range x {
				find(e)
			}
		}
	}
	find(doc)
	var close func(v any, top bool)
	close = func(v any, skip bool) {
		switch x := v.(type) {
		case map[string]any:
			if props, ok := x["properties"].(map[string]any); ok && !skip {
				x["unevaluatedProperties"] = false
				for k, p := range props {
					if k == "_meta" {
						continue
					}
					close(p, false)
				}
				for k, e := range x {
					if k != "properties" {
						close(e, false)
					}
				}
				return
			}
			for k, e := range x {
				if k == "_meta" {
					continue
				}
				close(e, false)
			}
		case []any:
			for _, e := range x {
				close(e, false)
			}
		}
	}
	for name, d := range defs {
		close(d, composed[name])
	}
}

// checkACP validates every line of an export.
func checkACP(t *testing.T, whole, strict *jsonschema.Schema, out []byte) int {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if err := validate(t, whole, line); err != nil {
			t.Fatalf("line %d is not a valid ACP v1 message: %v\n%s", n, err, line)
		}
		var msg struct {
			JSONRPC string          `json:"jsonrpc"`
			Method  string          `json:"method"`
			Params  json.RawMessage `json:"params"`
			ID      any             `json:"id"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			t.Fatal(err)
		}
		if msg.JSONRPC != "2.0" || msg.Method != "session/update" || msg.ID != nil {
			t.Fatalf("line %d is no session/update notification: %s", n, line)
		}
		if err := validate(t, strict, msg.Params); err != nil {
			t.Fatalf("line %d has a field ACP does not define outside _meta: %v\n%s", n, err, line)
		}
	}
	return n
}

func TestACPEveryStreamValidates(t *testing.T) {
	whole, strict := acpSchemas(t)
	for _, path := range streamFiles(t) {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var out bytes.Buffer
			if err := StreamACP(f, "", &out, "fallback-session"); err != nil {
				t.Fatal(err)
			}
			if n := checkACP(t, whole, strict, out.Bytes()); n == 0 {
				t.Fatal("no lines")
			}
		})
	}
}

func TestACPSiftKindsTravelInMeta(t *testing.T) {
	whole, strict := acpSchemas(t)
	stream := `{"type":"system","subtype":"init","session_id":"s1","model":"m","cwd":"/w","tools":["Bash"],"claude_code_version":"2.1.0"}
{"type":"sift.stderr","text":"warning: token ghp_abcdefghijklmnopqrstuvwxyz0123456789"}
not json at all
{"type":"result","subtype":"success","is_error":false,"duration_ms":1200,"num_turns":1,"result":"done","session_id":"s1","total_cost_usd":0.01,"usage":{"input_tokens":10,"output_tokens":2}}
`
	var out bytes.Buffer
	if err := StreamACP(strings.NewReader(stream), "claude", &out, "s0"); err != nil {
		t.Fatal(err)
	}
	checkACP(t, whole, strict, out.Bytes())
	if bytes.Contains(out.Bytes(), []byte("ghp_abcdefghij")) {
		t.Fatal("a secret reached the export")
	}
	kinds := map[string]bool{}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var m struct {
			Params struct {
				Update map[string]any `json:"update"`
				Meta   struct {
					Sift map[string]any `json:"sift"`
				} `json:"_meta"`
			} `json:"params"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		if k, ok := m.Params.Meta.Sift["kind"].(string); ok {
			if m.Params.Update["sessionUpdate"] != "session_info_update" || len(m.Params.Update) != 1 {
				t.Fatalf("sift's %s travels as %v", k, m.Params.Update)
			}
			kinds[k] = true
		}
	}
	for _, k := range []string{"session_start", "stderr", "raw", "result"} {
		if !kinds[k] {
			t.Errorf("no %s line in _meta (saw %v)", k, kinds)
		}
	}
}

func TestACPStrictSchemaRejectsUnknownFields(t *testing.T) {
	whole, strict := acpSchemas(t)
	ok := `{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"t"},"_meta":{"sift":{"anything":1}}}`
	bad := `{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"t","toolName":"Bash"}}`
	if err := validate(t, strict, []byte(ok)); err != nil {
		t.Fatalf("strict schema rejects a valid notification: %v", err)
	}
	if err := validate(t, strict, []byte(bad)); err == nil {
		t.Fatal("strict schema accepts a field ACP does not define")
	}
	line := `{"jsonrpc":"2.0","method":"session/update","params":` + bad + `}`
	if err := validate(t, whole, []byte(line)); err != nil {
		t.Fatalf("the shipped schema is open, yet rejected %s: %v", line, err)
	}
}

// TestACPToolUpdatesCarryRawOutput exports every recorded stream and
// checks that each tool_call_update with a text result carries the tool's
// raw result beside its content, as claude-code-acp sends it: the
// harness's structured result where the stream records one, else the
// result's text. Codex and Gemini record no structured result for most
// calls; before, their updates had content only.
func TestACPToolUpdatesCarryRawOutput(t *testing.T) {
	whole, strict := acpSchemas(t)
	updates, fromText := 0, 0
	for _, path := range streamFiles(t) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		err = StreamACP(f, "", &out, "fallback-session")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		checkACP(t, whole, strict, out.Bytes())
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var m struct {
				Params struct {
					Update json.RawMessage `json:"update"`
				} `json:"params"`
			}
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(m.Params.Update, []byte(`"sessionUpdate":"tool_call_update"`)) {
				continue
			}
			var u struct {
				RawOutput json.RawMessage `json:"rawOutput"`
				Content   []struct {
					Content struct {
						Type string `json:"type"`
						Text string `json:"text"`
					} `json:"content"`
				} `json:"content"`
			}
			if err := json.Unmarshal(m.Params.Update, &u); err != nil {
				t.Fatal(err)
			}
			if len(u.Content) == 0 || u.Content[0].Content.Type != "text" || u.Content[0].Content.Text == "" {
				continue
			}
			updates++
			if len(u.RawOutput) == 0 {
				t.Errorf("%s: a tool_call_update with content %.60q has no rawOutput", filepath.Base(path), u.Content[0].Content.Text)
				continue
			}
			var s string
			if json.Unmarshal(u.RawOutput, &s) == nil && s == u.Content[0].Content.Text {
				fromText++
			}
		}
	}
	if updates == 0 || fromText == 0 {
		t.Fatalf("%d tool results, %d with their text as raw output: the streams hold both kinds", updates, fromText)
	}
	t.Logf("%d tool results with text, %d of them raw as their text", updates, fromText)
}
