package event

// Stats describes a parsed stream as a whole: what the parser reports
// beside the events, and all a summary needs to know of the harness.
type Stats struct {
	// Agent is the harness the events were attributed to (an agents.Kind).
	Agent string
	// Sniffed is true when Agent was found by shape, not declared.
	Sniffed bool
	// EndsWithResult is true when the harness ends every finished stream
	// with a result line, as its parser declares: a structured stream of
	// it without one did not finish.
	EndsWithResult bool
	// Lines counts every line, blank ones included; Bytes every byte.
	Lines int
	Bytes int64
	// TruncatedBytes is set when the capture's `[...truncated by N bytes]`
	// marker was seen.
	TruncatedBytes *int64
	// CutLines counts lines longer than the parse's line cap.
	CutLines int
	// QuietLines counts lines a parser understood that carry nothing to
	// report (codex `turn.started`, Cursor `thinking/completed`): they are
	// read, not lost, and yield no event.
	QuietLines int
}
