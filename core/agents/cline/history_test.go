package cline

import (
	"slices"
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

// TestKiloHistoryDirs pins where Kilo Code's sessions are looked for: the
// extension's task folders, then the Kilo CLI's data folder (kilo.db) under
// $XDG_DATA_HOME or ~/.local/share, and a database $KILO_DB names
// elsewhere; a root that is a tasks folder is listed as task folders, any
// other as the database's (an empty folder: nothing, no error).
func TestKiloHistoryDirs(t *testing.T) {
	t.Parallel()
	h := KiloHarness().History
	for _, tc := range []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"home", nil, []string{"/h/.local/share/kilo"}},
		{"xdg", map[string]string{"XDG_DATA_HOME": "/x"}, []string{"/x/kilo"}},
		{"a database elsewhere", map[string]string{"KILO_DB": "/d/k.db"}, []string{"/h/.local/share/kilo", "/d/k.db"}},
		{"a channel's database", map[string]string{"KILO_DB": "kilo-dev.db"}, []string{"/h/.local/share/kilo"}},
	} {
		got := h.Dirs(func(k string) string { return tc.env[k] }, "/h")
		tasks := vscodeTaskDirs(func(k string) string { return tc.env[k] }, "/h", kiloExt)
		if !slices.Equal(got[:len(tasks)], tasks) || !slices.Equal(got[len(tasks):], tc.want) {
			t.Errorf("%s: %v, want the task folders %v then %v", tc.name, got, tasks, tc.want)
		}
	}
	if ss, _, err := h.Sessions(t.TempDir()); len(ss) != 0 || err != nil {
		t.Errorf("an empty data folder: %d sessions, %v", len(ss), err)
	}
}
