package claude

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/agents/agentstest"
)

// TestQuietHistoryLines checks the byte-level recognition of bookkeeping
// transcript lines against their decoded type on every real transcript:
// a line skipped without decoding is always one historyLine reads quietly,
// and every progress and attachment line is recognised.
func TestQuietHistoryLines(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(agentstest.HistoryDir, "claude", "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	quiet := map[string]bool{"file-history-snapshot": true, "progress": true, "attachment": true, "api-request": true,
		"api-request-shape": true, "api-request-blob": true, "tools-used": true, "last-prompt": true,
		"atis-latch": true, "cost-state": true, "queue-operation": true, "custom-title": true, "tag": true}
	skipped := 0
	for _, f := range files {
		for i, line := range bytes.Split(agentstest.MustRead(t, f), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var l struct {
				Type string `json:"type"`
			}
			if err := json.Unmarshal(line, &l); err != nil {
				t.Fatalf("%s:%d: %v", f, i+1, err)
			}
			got := quietHistoryLine(line)
			if got && !quiet[l.Type] {
				t.Errorf("%s:%d: a %q line would be skipped", filepath.Base(f), i+1, l.Type)
			}
			if !got && (l.Type == "progress" || l.Type == "attachment") {
				t.Errorf("%s:%d: a %s line is decoded", filepath.Base(f), i+1, l.Type)
			}
			if got {
				skipped++
			}
		}
	}
	if skipped == 0 {
		t.Fatal("no line recognised")
	}
	for _, l := range []string{
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"{\"type\":\"progress\",\"data\":{}}"}]}}`,
		`{"parentUuid":"x","message":{"model":"m","id":"msg_1","type":"message","content":[{"type":"tool_use","input":{"type":"progress","data":{}}}]},"type":"assistant"}`,
		`{"type":"tagged"}`,
	} {
		if quietHistoryLine([]byte(l)) {
			t.Errorf("skipped: %s", l)
		}
	}
}
