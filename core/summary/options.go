package summary

import (
	"time"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/pricing"
)

// Defaults for the Options left zero.
const (
	DefaultStallThreshold = 30 * time.Second
	// DefaultToolStallThreshold is how long a tool may run before the wait
	// on it flags its turn as a stall.
	DefaultToolStallThreshold = 10 * time.Minute
	DefaultSpikeFactor        = 3
	DefaultSpikeMinTokens     = 20_000
	// StderrTailMax caps the stderr folded into the final message.
	StderrTailMax = 8 << 10
	// TailLines is how many non-empty unparsed lines the tail keeps.
	TailLines = 10
)

// Projection says how timestamp-less events are placed in the invocation's
// window.
type Projection uint8

// The projections: by line position (the default) or by byte offset.
const (
	ProjectByLine Projection = iota
	ProjectByOffset
)

// Options says how to summarize a stream.
type Options struct {
	// Agent is the declared harness; empty sniffs.
	Agent string
	// TokensNotRecordedBy names the harness whose record holds no token
	// figures at all (Cursor CLI's store.db): the run's cost is unknown
	// and its basis says so, rather than reading as nothing spent.
	TokensNotRecordedBy string
	// Start and End are the invocation's window, used to project
	// timestamp-less events; zero when unknown.
	Start, End time.Time
	// Projection chooses line position or byte offset for projecting.
	Projection Projection
	// ExitCode is the agent process's exit status when known; a non-zero
	// status fails the run.
	ExitCode *int
	// Model is the model the invocation asked for, used when the stream
	// names none (codex prints no model): it is reported and priced.
	Model string
	// ModelSource says where Model was read: the flag ("--model"), the
	// environment variable ("$GEMINI_MODEL") or the configuration file
	// ("~/.codex/config.toml"); empty reads as "given".
	ModelSource string
	// StallThreshold is the gap that counts as a stall; 0 means 30 s.
	StallThreshold time.Duration
	// ToolStallThreshold is how long a wait on a running tool may last
	// before it flags its turn: shorter waits are tool time, listed and
	// counted as stalls but not flagged unless the tool then failed; 0
	// means 10 minutes.
	ToolStallThreshold time.Duration
	// SpikeFactor and SpikeMinTokens make a turn a token spike: at least
	// SpikeFactor times the session's median turn and at least
	// SpikeMinTokens; 0 means 3 and 20,000.
	SpikeFactor    float64
	SpikeMinTokens int64
	// Prices estimates cost when the harness prints none; nil means the
	// embedded table.
	Prices *pricing.Table
	// WantReviewEvents, when set, is asked with the finished summary
	// whether to build its review events at all: the store skips those
	// its retention would delete at once. Nil builds them.
	WantReviewEvents func(*Summary) bool
	// NoReviewEvents says the caller wants no review events (sift
	// summary): the builder then keeps nothing only they need (each
	// call's one-line outcome), and Finish returns none.
	NoReviewEvents bool
}

// withDefaults fills the zero options.
func (o Options) withDefaults() Options {
	if o.StallThreshold <= 0 {
		o.StallThreshold = DefaultStallThreshold
	}
	if o.ToolStallThreshold <= 0 {
		o.ToolStallThreshold = DefaultToolStallThreshold
	}
	if o.SpikeFactor <= 0 {
		o.SpikeFactor = DefaultSpikeFactor
	}
	if o.SpikeMinTokens <= 0 {
		o.SpikeMinTokens = DefaultSpikeMinTokens
	}
	if o.Prices == nil {
		o.Prices = pricing.Default()
	}
	return o
}

// window reports whether the options carry a usable invocation window.
func (o Options) window() bool {
	return !o.Start.IsZero() && !o.End.IsZero() && o.End.After(o.Start)
}

// Events summarizes an already parsed event sequence, for callers and
// tests that hold events rather than a stream.
func Events(evs []*event.Event, st event.Stats, opt Options) (*Summary, []ReviewEvent) {
	b := NewBuilder(opt)
	for _, ev := range evs {
		b.Add(ev)
	}
	return b.Finish(st)
}
