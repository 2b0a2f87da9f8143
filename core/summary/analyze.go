package summary

import (
	"errors"
	"io"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/pricing"
)

// Options says how to summarize a stream.
type Options struct {
	// Agent is the declared harness; empty sniffs.
	Agent agents.Kind
	// Start and End are the invocation's window, used to project
	// timestamp-less events; zero when unknown.
	Start, End time.Time
	// StallThreshold is the gap that counts as a stall; 0 means 30 s.
	StallThreshold time.Duration
	// SpikeFactor and SpikeMinTokens make a turn a token spike: at least
	// SpikeFactor times the session's median turn and at least
	// SpikeMinTokens; 0 means 3 and 20,000.
	SpikeFactor    float64
	SpikeMinTokens int64
	// Prices estimates cost when the harness prints none; nil means the
	// embedded table.
	Prices *pricing.Table
}

// Analyze parses a stream and summarizes it. The caller fills the
// work item, file name, phase and iteration.
func Analyze(r io.Reader, opt Options) (*Summary, []ReviewEvent, error) {
	return nil, nil, errors.New("summary: not built yet")
}
