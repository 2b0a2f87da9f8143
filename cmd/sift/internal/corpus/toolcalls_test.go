package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// The flags of TestWriteToolCallStream, which writes a stream for
// measuring sift's binaries:
//
//	go test ./cmd/sift/internal/corpus -run TestWriteToolCallStream \
//		-toolcalls.out /tmp/calls.jsonl -toolcalls.n 300000
var (
	toolCallsOut = flag.String("toolcalls.out", "", "write a ToolCallStream to this file")
	toolCallsN   = flag.Int("toolcalls.n", 300_000, "tool calls of the stream -toolcalls.out writes")
)

func TestWriteToolCallStream(t *testing.T) {
	if *toolCallsOut == "" {
		t.Skip("no -toolcalls.out")
	}
	f, err := os.Create(*toolCallsOut)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ToolCallStream(f, ToolCallSpec{Calls: *toolCallsN, Seed: 1})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d tool calls, %d bytes", *toolCallsOut, *toolCallsN, res.Bytes)
}

// TestToolCallStreamParses checks that the generated stream is claude
// stream-json that sift's parser reads whole: every line JSON, every call
// with its result, the failures and big outputs where the spec puts them.
func TestToolCallStreamParses(t *testing.T) {
	t.Parallel()
	const calls = 800
	var buf bytes.Buffer
	res, err := ToolCallStream(&buf, ToolCallSpec{Calls: calls, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if res.Bytes != int64(buf.Len()) {
		t.Fatalf("Result.Bytes = %d, wrote %d", res.Bytes, buf.Len())
	}
	sc := bufio.NewScanner(bytes.NewReader(buf.Bytes()))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if !json.Valid(sc.Bytes()) {
			t.Fatalf("line %d is not JSON: %.200s", n, sc.Bytes())
		}
	}
	var started, failed, big int
	ids := map[string]bool{}
	st, err := agents.Default().Parse(bytes.NewReader(buf.Bytes()), agents.Options{}, func(ev *event.Event) {
		u := &ev.Update
		switch {
		case u.SessionUpdate == event.ToolCall:
			started++
			ids[u.ToolCallID] = true
		case u.SessionUpdate == event.ToolCallUpdate && u.Status == event.StatusFailed:
			failed++
		case u.SessionUpdate == event.ToolCallUpdate && u.Content != nil && len(u.Content.Text) >= 2048:
			big++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if agents.Kind(st.Agent) != agents.Claude {
		t.Errorf("sniffed %q, want claude", st.Agent)
	}
	if started != calls || len(ids) != calls {
		t.Errorf("%d tool calls with %d distinct ids, want %d", started, len(ids), calls)
	}
	// Every 400th call would be big but fails (400 = lcm(80, 100)).
	if failed != calls/80 || big != calls/100-calls/400 {
		t.Errorf("%d failed and %d big results, want %d and %d", failed, big, calls/80, calls/100-calls/400)
	}
	if per := res.Bytes / calls; per < 800 || per > 1300 {
		t.Errorf("%d bytes a call, want about 1 KB", per)
	}
}
