package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/usage"
)

// TestUsageTotalsSaturate: two transcripts whose token counts add up past
// int64 total at math.MaxInt64, in every row and the totals, rather than
// wrap negative.
func TestUsageTotalsSaturate(t *testing.T) {
	s := newTestStore(t)
	dir := filepath.Join(t.TempDir(), "projects")
	for i, session := range []string{"5a0c2a9e-1b3d-4c5e-8f70-a1b2c3d4e5f6", "6b0c2a9e-1b3d-4c5e-8f70-a1b2c3d4e5f6"} {
		line := fmt.Sprintf(`{"parentUuid":null,"isSidechain":false,"type":"assistant","cwd":"/p","sessionId":%q,"version":"2.1.38",`+
			`"message":{"model":"claude-sonnet-4-5","id":"msg_%d","type":"message","role":"assistant","content":[{"type":"text","text":"hi"}],`+
			`"usage":{"input_tokens":5000000000000000000,"cache_creation_input_tokens":5000000000000000000,"output_tokens":5000000000000000000}},`+
			`"requestId":"req_%d","uuid":"0b5d2c3e-0000-4000-8000-00000000000%d","timestamp":"2026-03-01T10:00:0%d.000Z"}`+"\n",
			session, i, i, i, i)
		writeFile(t, filepath.Join(dir, "-p", session+".jsonl"), []byte(line))
	}
	importHistory(t, s, []ingest.HistoryRoot{{Agent: agents.ClaudeHistory, Dir: dir}})
	for _, by := range []usage.By{usage.ByDay, usage.BySession} {
		rep, err := usageOf(context.Background(), s, usage.Options{By: by, Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Totals.Calls != 2 {
			t.Fatalf("by %s: %d calls, want 2", by, rep.Totals.Calls)
		}
		all := append([]usage.Totals{rep.Totals}, func() (ts []usage.Totals) {
			for _, r := range rep.Rows {
				ts = append(ts, r.Totals)
			}
			return ts
		}()...)
		for _, u := range all {
			if u.InputTokens < 0 || u.OutputTokens < 0 || u.CacheCreationTokens < 0 || u.TotalTokens < 0 ||
				u.CostUSD == nil || *u.CostUSD < 0 || math.IsInf(*u.CostUSD, 0) {
				t.Errorf("by %s: totals wrapped: %+v", by, u)
			}
		}
		if u := rep.Totals; u.InputTokens != math.MaxInt64 || u.TotalTokens != math.MaxInt64 {
			t.Errorf("by %s: totals %+v, want input and total tokens at math.MaxInt64", by, u)
		}
	}
}

// TestUsageEntriesBeyondInt64: a stored entry whose count is past int64
// (a row written by another program) reads as math.MaxInt64, not as a
// negative count.
func TestUsageEntriesBeyondInt64(t *testing.T) {
	t.Parallel()
	b := binary.AppendVarint(nil, 1767225600000)
	b = binary.LittleEndian.AppendUint64(b, 7)
	for _, v := range []uint64{0, math.MaxUint64, 1 << 63, 3, 4} {
		b = binary.AppendUvarint(b, v)
	}
	got, err := decodeEntries(b, 1, nil)
	if err != nil || len(got) != 1 {
		t.Fatalf("decode: %+v, %v", got, err)
	}
	if e := got[0]; e.Input != math.MaxInt64 || e.Output != math.MaxInt64 || e.CacheWrite != 3 || e.CacheRead != 4 {
		t.Errorf("entry %+v, want the counts past int64 at math.MaxInt64", e)
	}
}
