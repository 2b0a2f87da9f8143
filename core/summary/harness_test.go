package summary

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// harnessLines returns the JSON objects of a fixture, sandbox prefixes
// stripped, for reading the harness's own totals independently of the
// parsers.
func harnessLines(t *testing.T, path string) []map[string]json.RawMessage {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]json.RawMessage
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		b := bytes.TrimLeft(sc.Bytes(), "\x00\x01\x02\x03 \t\ufeff")
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

func str(m map[string]json.RawMessage, k string) string {
	var s string
	_ = json.Unmarshal(m[k], &s)
	return s
}

// nums decodes an object of numbers; absent keys are missing from the map.
func nums(t *testing.T, raw json.RawMessage) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	for k, v := range m {
		var f float64
		if json.Unmarshal(v, &f) == nil {
			out[k] = f
		}
	}
	return out
}

// agree checks that a summary counter equals the harness's figure, or is
// null when the harness printed none.
func agree(t *testing.T, name string, got *int64, h map[string]float64, keys ...string) {
	t.Helper()
	var want int64
	found := false
	for _, k := range keys {
		if v, ok := h[k]; ok {
			want += int64(v)
			found = true
		}
	}
	if !found {
		null(t, name, got)
		return
	}
	i64(t, name, got, want)
}

// TestAgreesWithHarnessTotals checks, for every fixture whose harness
// prints its own totals, that the summary reports exactly those figures:
// claude's result (usage, total_cost_usd, num_turns, duration_ms), qwen's
// and cursor's result usage, gemini's result.stats, codex's last
// turn.completed usage, and opencode's per-step costs.
func TestAgreesWithHarnessTotals(t *testing.T) {
	t.Parallel()
	checked := map[string]int{}
	for _, path := range fixtures(t) {
		agent := filepath.Base(filepath.Dir(path))
		lines := harnessLines(t, path)
		t.Run(goldenName(path), func(t *testing.T) {
			s, _, err := AnalyzeFile(path, Options{Agent: string(folderAgent(path))})
			if err != nil {
				t.Fatal(err)
			}
			switch agent {
			case "claude", "qwen", "cursor":
				if checkClaudeResult(t, agent, lines, s) {
					checked[agent]++
				}
			case "gemini":
				if checkGeminiStats(t, lines, s) {
					checked[agent]++
				}
			case "codex":
				if checkCodexTurn(t, lines, s) {
					checked[agent]++
				}
			case "opencode":
				if checkOpencodeSteps(t, lines, s) {
					checked[agent]++
				}
			}
		})
	}
	// Every fixture with a result line was checked.
	want := map[string]int{"claude": 10, "qwen": 2, "cursor": 1, "gemini": 7, "codex": 5, "opencode": 3}
	for k, n := range want {
		if checked[k] != n {
			t.Errorf("%s: %d fixtures checked against harness totals, want %d", k, checked[k], n)
		}
	}
}

func checkClaudeResult(t *testing.T, agent string, lines []map[string]json.RawMessage, s *Summary) bool {
	t.Helper()
	var res map[string]json.RawMessage
	for _, m := range lines {
		if str(m, "type") == "result" {
			res = m
		}
	}
	if res == nil {
		return false
	}
	h := nums(t, json.RawMessage(mustJSON(t, res)))
	agree(t, "totalDurationMs", s.TotalDurationMs, h, "duration_ms")
	if n, ok := h["num_turns"]; ok {
		if s.NumTurns == nil || *s.NumTurns != int(n) {
			t.Errorf("numTurns = %v, want %v", s.NumTurns, n)
		}
	}
	if c, ok := h["total_cost_usd"]; ok {
		if s.CostSource != CostHarness || s.EstimatedUSD == nil || *s.EstimatedUSD != c {
			t.Errorf("cost = %v (%s), want %v (harness)", s.EstimatedUSD, s.CostSource, c)
		}
	} else if s.CostSource == CostHarness {
		t.Errorf("cost source harness without total_cost_usd")
	}
	u := nums(t, res["usage"])
	switch agent {
	case "claude":
		// Anthropic's input_tokens excludes both cache shares.
		agree(t, "inputTokens", s.InputTokens, u, "input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
		agree(t, "cachedInputTokens", s.CachedInputTokens, u, "cache_read_input_tokens")
		agree(t, "cacheWriteTokens", s.CacheWriteTokens, u, "cache_creation_input_tokens")
		agree(t, "outputTokens", s.OutputTokens, u, "output_tokens")
	case "qwen":
		agree(t, "inputTokens", s.InputTokens, u, "input_tokens")
		agree(t, "cachedInputTokens", s.CachedInputTokens, u, "cache_read_input_tokens")
		agree(t, "outputTokens", s.OutputTokens, u, "output_tokens")
	case "cursor":
		agree(t, "inputTokens", s.InputTokens, u, "inputTokens")
		agree(t, "cachedInputTokens", s.CachedInputTokens, u, "cacheReadTokens")
		agree(t, "cacheWriteTokens", s.CacheWriteTokens, u, "cacheWriteTokens")
		agree(t, "outputTokens", s.OutputTokens, u, "outputTokens")
	}
	return true
}

func checkGeminiStats(t *testing.T, lines []map[string]json.RawMessage, s *Summary) bool {
	t.Helper()
	var stats json.RawMessage
	for _, m := range lines {
		if str(m, "type") == "result" {
			stats = m["stats"]
		}
	}
	if stats == nil {
		return false
	}
	h := nums(t, stats)
	agree(t, "inputTokens", s.InputTokens, h, "input_tokens")
	agree(t, "outputTokens", s.OutputTokens, h, "output_tokens")
	agree(t, "cachedInputTokens", s.CachedInputTokens, h, "cached")
	agree(t, "totalDurationMs", s.TotalDurationMs, h, "duration_ms")
	if n, ok := h["tool_calls"]; ok && s.ToolCallCount != int(n) {
		t.Errorf("toolCallCount = %d, want %v", s.ToolCallCount, n)
	}
	return true
}

func checkCodexTurn(t *testing.T, lines []map[string]json.RawMessage, s *Summary) bool {
	t.Helper()
	var usage json.RawMessage
	for _, m := range lines {
		if str(m, "type") == "turn.completed" {
			usage = m["usage"] // thread-cumulative: the last one is the total
		}
	}
	if usage == nil {
		return false
	}
	h := nums(t, usage)
	agree(t, "inputTokens", s.InputTokens, h, "input_tokens")
	agree(t, "cachedInputTokens", s.CachedInputTokens, h, "cached_input_tokens")
	agree(t, "outputTokens", s.OutputTokens, h, "output_tokens")
	return true
}

func checkOpencodeSteps(t *testing.T, lines []map[string]json.RawMessage, s *Summary) bool {
	t.Helper()
	var cost float64
	var out int64
	steps, zero := 0, false
	for _, m := range lines {
		if str(m, "type") != "step_finish" {
			continue
		}
		var part struct {
			Cost   float64 `json:"cost"`
			Tokens struct {
				Output int64 `json:"output"`
			} `json:"tokens"`
		}
		if err := json.Unmarshal(m["part"], &part); err != nil {
			t.Fatal(err)
		}
		cost += part.Cost
		out += part.Tokens.Output
		steps++
		if part.Cost == 0 && part.Tokens.Output > 0 {
			zero = true
		}
	}
	if steps == 0 {
		return false
	}
	switch {
	case zero:
		// A step priced at exactly 0 for tokens spent is opencode's
		// answer for a model its price list lacks, not a price: with no
		// model to price the stream, its cost is unknown, never $0.
		if s.CostSource != CostUnknown || s.EstimatedUSD != nil {
			t.Errorf("cost = %v (%s), want unknown: a step reported $0 for its tokens and the stream names no model",
				s.EstimatedUSD, s.CostSource)
		}
	case s.CostSource != CostHarness || s.EstimatedUSD == nil || *s.EstimatedUSD != cost:
		t.Errorf("cost = %v (%s), want %v summed over %d steps (harness)", s.EstimatedUSD, s.CostSource, cost, steps)
	}
	i64(t, "outputTokens", s.OutputTokens, out)
	return true
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
