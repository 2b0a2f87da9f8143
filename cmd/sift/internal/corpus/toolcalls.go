package corpus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
)

// ToolCallSpec says what ToolCallStream writes.
type ToolCallSpec struct {
	// Calls is how many tool calls the stream holds.
	Calls int
	// Seed makes the stream reproducible.
	Seed uint64
	// BigOutputEvery and FailEvery make every Nth call return a few KB
	// of output, or fail with a long error text; 0 means 100 and 80.
	BigOutputEvery, FailEvery int
}

// ToolCallStream writes a `claude -p --output-format stream-json` stream of
// one long session with many tool calls: the init line; assistant
// messages of one to three tool_use lines (Bash, Read, Edit, Grep, Glob,
// Write or TodoWrite, with inputs of the size real calls have; now and
// then a command is one long line, or a script of many lines), every
// third with a line of text first, each followed by a user line per call
// with its tool_result; and the result line. Most results are a line;
// every BigOutputEvery-th is a few KB, and every FailEvery-th fails with
// a long, multi-line error. The lines have the keys and sizes claude
// prints, about 1.1 KB a call: 300,000 calls make about 340 MB (issue #12
// measured a more compact 140 MB stream of as many calls; what grows with
// calls, not bytes, is what this measures).
func ToolCallStream(w io.Writer, s ToolCallSpec) (Result, error) {
	big, fail := s.BigOutputEvery, s.FailEvery
	if big <= 0 {
		big = 100
	}
	if fail <= 0 {
		fail = 80
	}
	cw := &countWriter{w: w}
	bw := bufio.NewWriterSize(cw, 256<<10)
	g := &callGen{rng: rand.New(rand.NewPCG(s.Seed, s.Seed^0x7001)), bw: bw}
	g.session = randUUID(g.rng)
	fmt.Fprintf(bw, `{"type":"system","subtype":"init","cwd":"/home/user/project","session_id":"%s","tools":["Task","Bash","Glob","Grep","Read","Edit","Write","TodoWrite","WebFetch"],"mcp_servers":[],"model":"claude-sonnet-4-5-20250929","permissionMode":"bypassPermissions","apiKeySource":"ANTHROPIC_API_KEY","claude_code_version":"2.1.7","output_style":"default","uuid":"%s"}`+"\n", g.session, randUUID(g.rng))
	// Messages of one to three parallel calls (1.6 on average), every
	// third opening with a line of text; the results follow the calls.
	msgs := 0
	var ids []string
	for i := 0; i < s.Calls; msgs++ {
		msg := "msg_01" + randString(g.rng, alnum, 22)
		if msgs%3 == 0 {
			g.assistant(msg, `{"type":"text","text":"Next I will check `+g.file(i)+` and run the tests for the package it belongs to."}`)
		}
		ids = ids[:0]
		for range min([5]int{1, 1, 1, 2, 3}[g.rng.IntN(5)], s.Calls-i) {
			id := "toolu_01" + randString(g.rng, alnum, 22)
			name, input := g.input(i + len(ids))
			g.assistant(msg, `{"type":"tool_use","id":"`+id+`","name":"`+name+`","input":`+input+`}`)
			ids = append(ids, id)
		}
		for _, id := range ids {
			switch {
			case (i+1)%fail == 0:
				g.result(id, g.errorText(i), true)
			case (i+1)%big == 0:
				g.result(id, g.output(i, 2048+g.rng.IntN(4096)), false)
			default:
				g.result(id, g.output(i, 20+g.rng.IntN(80)), false)
			}
			i++
		}
	}
	fmt.Fprintf(bw, `{"type":"result","subtype":"success","is_error":false,"duration_ms":%d,"duration_api_ms":%d,"num_turns":%d,"result":"Done: the changes are in and the tests pass.","session_id":"%s","total_cost_usd":%.4f,"usage":{"input_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":%d,"output_tokens":%d},"uuid":"%s"}`+"\n",
		s.Calls*900, s.Calls*700, msgs, g.session, float64(s.Calls)*0.0031, s.Calls*3, s.Calls*20000, s.Calls*60, randUUID(g.rng))
	if err := bw.Flush(); err != nil {
		return Result{}, err
	}
	return Result{Files: 1, Bytes: cw.n}, nil
}

// callGen writes the lines of ToolCallStream.
type callGen struct {
	rng     *rand.Rand
	bw      *bufio.Writer
	session string
	buf     strings.Builder
}

// assistant writes an assistant line with one content block.
func (g *callGen) assistant(msg, block string) {
	fmt.Fprintf(g.bw, `{"type":"assistant","message":{"model":"claude-sonnet-4-5-20250929","id":"%s","type":"message","role":"assistant","content":[%s],"stop_reason":null,"usage":{"input_tokens":3,"cache_read_input_tokens":%d,"output_tokens":%d}},"parent_tool_use_id":null,"session_id":"%s"}`+"\n",
		msg, block, 20000+g.rng.IntN(60000), 20+g.rng.IntN(400), g.session)
}

// result writes a user line with a tool result.
func (g *callGen) result(id, content string, isError bool) {
	fmt.Fprintf(g.bw, `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"%s","type":"tool_result","content":%s,"is_error":%t}]},"parent_tool_use_id":null,"session_id":"%s"}`+"\n",
		id, quote(content), isError, g.session)
}

var (
	pkgs  = []string{"internal/store", "internal/api", "cmd/server", "pkg/auth", "pkg/billing", "internal/queue", "web/src/components", "web/src/lib"}
	verbs = []string{"handler", "service", "repository", "client", "worker", "middleware", "config", "router"}
)

// file names a source file of the project for call i.
func (g *callGen) file(i int) string {
	return "/home/user/project/" + pkgs[i%len(pkgs)] + "/" + verbs[(i/7)%len(verbs)] + "_" + strconv.Itoa(i%97) + ".go"
}

// input returns a tool name and its JSON input.
func (g *callGen) input(i int) (string, string) {
	f := quote(g.file(i))
	switch i % 9 {
	case 0, 1, 2:
		cmd := "cd /home/user/project && go test ./" + pkgs[i%len(pkgs)] + "/... -run Test" + verbs[i%len(verbs)] + " -count=1 2>&1 | tail -40"
		switch i % 99 {
		case 0:
			// A script written by a heredoc: a command of many lines.
			cmd = "cat > /tmp/check.sh <<'EOF'\n" + g.output(i, 1500) + "EOF\nsh /tmp/check.sh"
		case 1:
			// One long line: a generated query.
			cmd = "psql -c \"SELECT " + strings.Repeat("id, name, created_at, updated_at, owner_id, ", 20) + "status FROM accounts\""
		}
		return "Bash", `{"command":` + quote(cmd) + `,"description":"Run the ` + verbs[i%len(verbs)] + ` tests"}`
	case 3, 4:
		return "Read", `{"file_path":` + f + `}`
	case 5:
		old := "\treturn nil, fmt.Errorf(\"load " + verbs[i%len(verbs)] + ": %w\", err)\n\t}\n\tdefer rows.Close()"
		return "Edit", `{"file_path":` + f + `,"old_string":` + quote(old) + `,"new_string":` + quote(old+"\n\tcount := 0") + `}`
	case 6:
		return "Grep", `{"pattern":"func \\(s \\*` + verbs[i%len(verbs)] + `\\)","path":"/home/user/project/` + pkgs[i%len(pkgs)] + `","output_mode":"content","-n":true}`
	case 7:
		if i%18 == 7 {
			return "Glob", `{"pattern":"**/*_test.go","path":"/home/user/project/` + pkgs[i%len(pkgs)] + `"}`
		}
		return "TodoWrite", `{"todos":[{"content":"Fix the ` + verbs[i%len(verbs)] + ` error path","status":"in_progress","activeForm":"Fixing the error path"},{"content":"Run the tests","status":"pending","activeForm":"Running the tests"}]}`
	default:
		return "Write", `{"file_path":` + f + `,"content":` + quote(g.output(i, 200)) + `}`
	}
}

// output returns about n bytes of tool output: numbered source lines.
func (g *callGen) output(i, n int) string {
	g.buf.Reset()
	for l := 1; g.buf.Len() < n; l++ {
		fmt.Fprintf(&g.buf, "%6d\tfunc (s *%s) step%d(ctx context.Context) error { return s.next(ctx, %d) }\n", l, verbs[(i+l)%len(verbs)], l, g.rng.IntN(1000))
	}
	return g.buf.String()
}

// errorText returns a failing command's long output: a build error and a
// stack of a few KB.
func (g *callGen) errorText(i int) string {
	g.buf.Reset()
	fmt.Fprintf(&g.buf, "Exit code 1\n# github.com/acme/project/%s\n", pkgs[i%len(pkgs)])
	for l := range 24 + g.rng.IntN(40) {
		fmt.Fprintf(&g.buf, "%s:%d:%d: undefined: %s%d (type error, see the declaration in %s)\n", g.file(i+l), 10+l, 2+l%30, verbs[l%len(verbs)], l, pkgs[l%len(pkgs)])
	}
	g.buf.WriteString("FAIL\tgithub.com/acme/project [build failed]\n")
	return g.buf.String()
}

// quote returns s as a JSON string, written as claude writes it (no HTML
// escapes).
func quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
