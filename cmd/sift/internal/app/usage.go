package app

import (
	"context"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/core/usage"
	"github.com/agentsift/sift/store"
)

// Usage totals every stored run (usage.Total): the calls of the agents'
// histories, from the store's usage rows, and the captured runs, each
// counted with the tokens and cost its summary stores, as the inbox shows
// them. Options.Source picks either. A stored row that cannot be read
// back (a shared database's row another sift wrote) is left out of the
// totals and returned, the rest counted.
func Usage(ctx context.Context, st *store.Store, opt usage.Options) (usage.Report, []store.Unreadable, error) {
	var bad []store.Unreadable
	rep, err := usage.Total(opt, func(add func(usage.File) error) error {
		if opt.Source.Keeps(false) {
			b, err := st.UsageFiles(ctx, "", func(f store.UsageFile) error {
				return add(usage.File{WorkItemID: f.WorkItemID, FileName: f.FileName, AgentKind: f.AgentKind,
					SessionID: f.SessionID, Models: f.Models, Entries: f.Entries})
			})
			bad = append(bad, b...)
			if err != nil {
				return err
			}
		}
		if !opt.Source.Keeps(true) {
			return nil
		}
		b, err := st.SessionTotals(ctx, historyKinds(), func(sum *summary.Summary, at int64) error {
			if f, ok := captureUsage(sum, at); ok {
				return add(f)
			}
			return nil
		})
		bad = append(bad, b...)
		return err
	})
	return rep, bad, err
}

// historyKinds lists the agent kinds of the histories, whose sessions
// are counted by their calls, not as captures.
func historyKinds() []string {
	var kinds []string
	for _, h := range agents.Harnesses() {
		if h.History != nil {
			kinds = append(kinds, string(h.History.Parser.Kind()))
		}
	}
	return kinds
}

// captureUsage is the usage of a captured run: one entry at its start (or
// last activity) holding its summary's tokens, the uncached prompt apart
// from the cache shares, and its summary's cost. A run that reported
// neither tokens nor cost has none. (SessionTotals leaves the histories'
// sessions out: historyKinds.)
func captureUsage(sum *summary.Summary, at int64) (usage.File, bool) {
	if sum.InputTokens == nil && sum.OutputTokens == nil && sum.EstimatedUSD == nil {
		return usage.File{}, false
	}
	val := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return max(*p, 0)
	}
	// The shares are cut to the prompt, so that the entry's total is the
	// inbox's: the prompt plus the output.
	prompt := val(sum.InputTokens)
	read := min(val(sum.CachedInputTokens), prompt)
	write := min(val(sum.CacheWriteTokens), prompt-read)
	e := ingest.UsageEntry{At: at, Input: prompt - read - write, Output: val(sum.OutputTokens),
		CacheRead: read, CacheWrite: write}
	return usage.File{WorkItemID: sum.WorkItemID, FileName: sum.FileName, AgentKind: sum.AgentKind,
		SessionID: sum.SessionID, Models: []string{sum.Model}, Entries: []ingest.UsageEntry{e},
		Capture: true, Cost: sum.EstimatedUSD}, true
}
