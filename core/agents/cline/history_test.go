package cline

import (
	"strconv"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// TestRooRequestTokens: one request as Roo Code records it before and
// after 3.29.5, the release from which tokensIn is the whole input (cache
// included) for every provider. The request is the user-cancelled one of
// the recorded Roo task ac8aa7b4 (testdata/histories/roo): tokensIn 10,
// cacheReads 72186, cacheWrites 720 on 2025-09-13; the same request as
// Roo 3.29.5 would write it has tokensIn 10+720+72186 (Roo's
// calculateApiCostAnthropic). Each reading must give a prompt of 72916.
// Cline, which still records the uncached input, keeps adding the cache.
func TestRooRequestTokens(t *testing.T) {
	t.Parallel()
	const reads, writes = 72186, 720
	req := func(kind agents.Kind, ts int64, in int64) *int64 {
		t.Helper()
		text := `{\"apiProtocol\":\"anthropic\",\"tokensIn\":` + strconv.FormatInt(in, 10) +
			`,\"tokensOut\":2,\"cacheWrites\":720,\"cacheReads\":72186,\"cost\":0.0244158,\"cancelReason\":\"user_cancelled\"}`
		lines := `{"task":{"id":"ac8aa7b4","cwd":""}}` + "\n" +
			`{"ui":{"ts":` + strconv.FormatInt(ts, 10) + `,"type":"say","say":"api_req_started","text":"` + text + `"}}` + "\n"
		evs, _ := agentstest.ParseBytes(t, []byte(lines), agents.Options{Agent: kind})
		for _, ev := range evs {
			if ev.Update.SessionUpdate == event.Usage {
				return ev.Update.PromptTokens
			}
		}
		t.Fatalf("%s: no usage event", kind)
		return nil
	}
	const before, after = 1757743955000, 1765000000000 // 2025-09-13, 2025-12-06
	whole := int64(10 + reads + writes)
	for _, c := range []struct {
		name string
		kind agents.Kind
		ts   int64
		in   int64
		want int64
	}{
		{"roo before 3.29.5: uncached input", agents.RooHistory, before, 10, whole},
		{"roo 3.29.5 on: whole input", agents.RooHistory, after, whole, whole},
		{"old roo still in use after the release: below its cache", agents.RooHistory, after, 10, whole},
		{"kilo 4.119 on: whole input", agents.KiloHistory, after, whole, whole},
		{"cline: uncached input, always", agents.ClineHistory, after, whole, whole + reads + writes},
	} {
		if got := req(c.kind, c.ts, c.in); *got != c.want {
			t.Errorf("%s: prompt %d, want %d", c.name, *got, c.want)
		}
	}
}
