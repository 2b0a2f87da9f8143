package agentstest

import "github.com/agentsift/sift/core/event"

// Deref is *p, 0 for nil.
func Deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// CallUsage adds the last call usage of each main-agent message, as the
// summary does.
func CallUsage(evs []*event.Event) (prompt, cached, completion int64) {
	last := map[string]event.Update{}
	var order []string
	for _, ev := range evs {
		u := ev.Update
		if u.SessionUpdate != event.Usage || u.Scope != event.ScopeCall || ev.ParentToolCallID != "" {
			continue
		}
		if _, ok := last[ev.MessageID]; !ok {
			order = append(order, ev.MessageID)
		}
		last[ev.MessageID] = u
	}
	for _, id := range order {
		u := last[id]
		prompt += Deref(u.PromptTokens)
		cached += Deref(u.CachedTokens)
		completion += Deref(u.CompletionTokens)
	}
	return
}

// RunUsage is the last run-scope usage of evs, nil when there is none.
func RunUsage(evs []*event.Event) *event.Update {
	var run *event.Update
	for _, ev := range evs {
		if ev.Update.SessionUpdate == event.Usage && ev.Update.Scope == event.ScopeRun {
			run = &ev.Update
		}
	}
	return run
}

// UsageSum adds the per-call usage of events.
func UsageSum(evs []*event.Event) (calls int, prompt, cached, output int64) {
	for _, ev := range evs {
		u := ev.Update
		if u.SessionUpdate != event.Usage || u.Scope != event.ScopeCall {
			continue
		}
		calls++
		if u.PromptTokens != nil {
			prompt += *u.PromptTokens
		}
		if u.CachedTokens != nil {
			cached += *u.CachedTokens
		}
		if u.CompletionTokens != nil {
			output += *u.CompletionTokens
		}
	}
	return
}
