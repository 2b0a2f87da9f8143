package export

import (
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// finalMetrics are a trajectory's totals from the session's summary:
// tokens as the harness reported them, the cost only when the harness
// printed it (sift's estimate goes in extra, named as one).
func finalMetrics(s *summary.Summary, steps int) *FinalMetrics {
	m := &FinalMetrics{
		TotalPromptTokens:     s.InputTokens,
		TotalCompletionTokens: s.OutputTokens,
		TotalCachedTokens:     s.CachedInputTokens,
		TotalSteps:            &steps,
	}
	ex := map[string]any{}
	if s.EstimatedUSD != nil {
		if s.CostSource == summary.CostHarness {
			m.TotalCostUSD = s.EstimatedUSD
		} else {
			ex["sift_estimated_cost_usd"] = *s.EstimatedUSD
		}
	}
	if s.CostSource != "" {
		ex["sift_cost_source"] = string(s.CostSource)
	}
	if s.CostBasis != "" {
		ex["sift_cost_basis"] = s.CostBasis
	}
	if s.CacheWriteTokens != nil {
		ex["cache_write_tokens"] = *s.CacheWriteTokens
	}
	if len(ex) > 0 {
		m.Extra = ex
	}
	return m
}

// eventMetrics are the totals of a trajectory without a summary (a
// subagent's): the harness's run usage when it printed one, else its
// steps' metrics added.
func (b *TrajectoryBuilder) eventMetrics(steps int) *FinalMetrics {
	m := &FinalMetrics{TotalSteps: &steps}
	if u := b.runUsage; u != nil {
		m.TotalPromptTokens, m.TotalCompletionTokens, m.TotalCachedTokens = u.PromptTokens, u.CompletionTokens, u.CachedTokens
		m.TotalCostUSD = u.CostUSD
		return m
	}
	for i := range b.steps {
		sm := b.steps[i].Metrics
		if sm == nil {
			continue
		}
		addUsage(&m.TotalPromptTokens, &m.TotalCompletionTokens, &m.TotalCachedTokens, &m.TotalCostUSD,
			sm.PromptTokens, sm.CompletionTokens, sm.CachedTokens, sm.CostUSD)
	}
	return m
}

// siftExtra is the root extra "sift": where the session is in sift, what
// sift found (outcome, flags, stalls) and what reviewers decided.
func siftExtra(f Findings) map[string]any {
	m := map[string]any{"source": f.Source}
	if len(f.Missing) > 0 {
		m["missing"] = f.Missing
	}
	if len(f.RunArgs) > 0 {
		args := make([]string, len(f.RunArgs))
		for i, a := range f.RunArgs {
			args[i] = redact.String(a)
		}
		m["sift_run_args"] = args
	}
	if s := f.Summary; s != nil {
		k := review.SessionKey{WorkItemID: s.WorkItemID, FileName: s.FileName}.Shown()
		m["work_item_id"] = k.WorkItemID
		m["file_name"] = k.FileName
		if s.Phase != "" {
			m["phase"] = s.Phase
		}
		if s.Iteration != nil {
			m["iteration"] = *s.Iteration
		}
		m["agent_kind"] = s.AgentKind
		m["outcome"] = Outcome(s)
		m["flags"] = nonNil(s.Flags)
		m["flagged"] = s.Flagged
		if s.StartedAt != nil {
			m["started_at"] = stamp(*s.StartedAt)
		}
		if s.TotalDurationMs != nil {
			m["duration_ms"] = *s.TotalDurationMs
		}
		if s.ExitCode != nil {
			m["exit_code"] = *s.ExitCode
		}
		stalls := make([]map[string]any, len(s.Stalls))
		for i, st := range s.Stalls {
			stalls[i] = map[string]any{"started_at": stamp(st.StartedAt), "gap_ms": st.GapMs, "kind": string(st.Kind), "turn_id": st.TurnID, "line": st.Line}
		}
		m["stalls"] = stalls
		m["tool_call_count"] = s.ToolCallCount
		if s.FinalAssistantMessage != nil && f.Source == "summary" {
			m["final_assistant_message"] = redact.String(*s.FinalAssistantMessage)
		}
	}
	ds := make([]map[string]any, len(f.Decisions))
	for i, d := range f.Decisions {
		ds[i] = decisionExtra(d)
	}
	m["decisions"] = ds
	return m
}

// decisionExtra is one decision as the trajectory keeps it.
func decisionExtra(d review.Decision) map[string]any {
	m := map[string]any{"decision": string(d.Kind), "created_at": stamp(d.CreatedAt)}
	if d.Reviewer != "" {
		m["reviewer_id"] = redact.String(d.Reviewer)
	}
	if d.Note != "" {
		m["note"] = redact.String(d.Note)
	}
	if d.TurnID != "" {
		m["turn_id"] = d.TurnID
	}
	if d.ToolCallID != "" {
		m["tool_call_id"] = d.ToolCallID
	}
	return m
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
