package ingest

import (
	"hash/fnv"
	"strings"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/summary"
)

// UsageEntry is one model call of a history file, as ccusage counts it.
type UsageEntry struct {
	// At is the call's time, in unix ms.
	At int64
	// Key names the call, by which a call repeated in several files counts
	// once (callKey); 0 when it has no name.
	Key uint64
	// Message names the call's message alone (a Claude Code message id's
	// hash), and Sidechain marks a call a sidechain made (a /btw side
	// question, a subagent): a sidechain can replay a message of its main
	// chain under a request id of its own, which counts once, as the main
	// chain's (usage.Total); 0 and false when the call has no message id.
	Message   uint64
	Sidechain bool
	// Model indexes Usage.Models.
	Model int
	// Input is the uncached prompt; CacheWrite and CacheRead the cache
	// shares Anthropic reports apart.
	Input, Output, CacheWrite, CacheRead int64
}

// Usage is the usage of one history file: a listener of its parse that
// records every model call.
type Usage struct {
	SessionID string
	// ParentCall is the Task call that started a Claude Code subagent.
	ParentCall string
	// First is the earliest line timestamp, in unix ms; 0 when none.
	First   int64
	Models  []string
	Entries []UsageEntry

	modelIdx map[string]int
	// msgIdx is the entry of each message id met, for the summary's rule.
	msgIdx map[string]int
	// run is the last session-wide report met and runModel its model,
	// counted as one call when the file reports no call (finish).
	run      *UsageEntry
	runModel string
}

// add records the usage of one event. Only per-call usage counts: a run
// total would count the calls again. Like ccusage, a call without a
// timestamp or without both input and output counts is not counted.
//
// A message counts once, as the summary counts it (core/summary: the last
// report per message id), so that `sift usage` and the inbox agree: a
// message id met again in the file replaces its entry's counts and keeps
// its first time. ccusage counts a repeat again when its line carries no
// request id (a transcript written against another API); the parser has
// already dropped the repeats ccusage drops (message id + request id).
func (u *Usage) add(ev *event.Event) {
	if !ev.Timestamp.IsZero() {
		if ms := ev.Timestamp.UnixMilli(); u.First == 0 || ms < u.First {
			u.First = ms
		}
	}
	// What is kept is copied: the events are lent (agents.Options.Borrow);
	// the harness's names are kept redacted, as a summary keeps them.
	if u.SessionID == "" && ev.SessionID != "" {
		u.SessionID = redact.String(strings.Clone(ev.SessionID))
	}
	up := &ev.Update
	if up.SessionUpdate == event.Usage && up.Scope == event.ScopeRun {
		if e, ok := entryOf(up); ok {
			if !ev.Timestamp.IsZero() {
				e.At = ev.Timestamp.UnixMilli()
			}
			u.run, u.runModel = &e, strings.Clone(ev.Model)
		}
		return
	}
	if up.SessionUpdate != event.Usage || up.Scope != event.ScopeCall || ev.Timestamp.IsZero() {
		return
	}
	e, ok := entryOf(up)
	if !ok {
		return
	}
	e.At = ev.Timestamp.UnixMilli()
	e.Key = callKey(ev)
	if req, _ := ev.Extra["requestId"].(string); req != "" && ev.MessageID != "" {
		e.Message = messageKey(ev.MessageID)
		e.Sidechain, _ = ev.Extra["isSidechain"].(bool)
	}
	if ev.MessageID != "" {
		if i, ok := u.msgIdx[ev.MessageID]; ok {
			// A main-chain message replacing its sidechain replay in the
			// same file (replacesRequestId) lands here too.
			e.At, e.Model = u.Entries[i].At, u.model(ev.Model)
			u.Entries[i] = e
			return
		}
		if u.msgIdx == nil {
			u.msgIdx = map[string]int{}
		}
		u.msgIdx[strings.Clone(ev.MessageID)] = len(u.Entries)
	}
	e.Model = u.model(ev.Model)
	u.Entries = append(u.Entries, e)
}

// entryOf reads a usage report's counts; false when it has no output or
// no prompt count.
func entryOf(up *event.Update) (UsageEntry, bool) {
	if up.CompletionTokens == nil {
		return UsageEntry{}, false
	}
	e := UsageEntry{Output: *up.CompletionTokens}
	if up.CachedTokens != nil {
		e.CacheRead = *up.CachedTokens
	}
	if in, ok := up.UsageExtra["input_tokens"]; ok {
		// Anthropic: input_tokens is already the uncached share.
		e.Input = in
		e.CacheWrite = up.UsageExtra["cache_creation_input_tokens"]
	} else if up.PromptTokens != nil {
		// The prompt holds both cache shares, whatever the harness
		// names its cache write (opencode's cache_write, Copilot's
		// cacheWriteTokens): the uncached input is what is left.
		e.CacheWrite, _ = summary.CacheWrite(up.UsageExtra)
		e.Input = max(*up.PromptTokens-e.CacheRead-e.CacheWrite, 0)
	} else {
		return UsageEntry{}, false
	}
	return e, true
}

// finish counts a file's session-wide report as its one call when the
// file reports no call of its own: Droid, Goose and Crush keep their
// tokens per session alone, which the inbox counts, and so does ccusage
// (its droid and goose adapters). The call is dated at the report's time,
// else at the file's first line; a report of no time is not counted.
func (u *Usage) finish() {
	if u.run == nil || len(u.Entries) > 0 {
		return
	}
	e := *u.run
	if e.At == 0 {
		e.At = u.First
	}
	if e.At == 0 {
		return
	}
	e.Model = u.model(u.runModel)
	u.Entries = append(u.Entries, e)
}

// model returns the index of a model in Models, adding it when new.
func (u *Usage) model(name string) int {
	if u.modelIdx == nil {
		u.modelIdx = map[string]int{}
	}
	i, ok := u.modelIdx[name]
	if !ok {
		i = len(u.Models)
		m := strings.Clone(name)
		u.Models = append(u.Models, redact.String(m))
		u.modelIdx[m] = i
	}
	return i
}

// callKey returns the FNV-1a hash of a call's name: a Claude Code message
// as ccusage names it, "messageId:requestId", or the name a parser gave it
// in Extra["callKey"] (a Codex call: its thread and running total, which a
// forked rollout's copy of its parent's history repeats); 0 when it has
// none.
func callKey(ev *event.Event) uint64 {
	h := fnv.New64a()
	if k, _ := ev.Extra["callKey"].(string); k != "" {
		h.Write([]byte(k))
		return max(h.Sum64(), 1)
	}
	req, _ := ev.Extra["requestId"].(string)
	if req == "" || ev.MessageID == "" {
		return 0
	}
	h.Write([]byte(ev.MessageID))
	h.Write([]byte{':'})
	h.Write([]byte(req))
	return max(h.Sum64(), 1)
}

// messageKey returns the FNV-1a hash of a message id (never 0).
func messageKey(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return max(h.Sum64(), 1)
}
