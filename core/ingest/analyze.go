package ingest

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/summary"
)

// Analyze parses a stream and summarizes it. The caller fills the
// work item, file name, phase and iteration. It streams: memory is bounded
// by the longest line plus the turns and tool calls the summary lists.
func Analyze(r io.Reader, opt summary.Options) (*summary.Summary, []summary.ReviewEvent, error) {
	s, rev, err := AnalyzeEvents(r, opt)
	return s, rev.List(), err
}

// AnalyzeEvents is Analyze with the review events made as they are read
// (summary.Builder.FinishEvents), for a caller that writes them out one at
// a time.
//
// Stream content is untrusted: should a line still find a fault in a
// parser or the builder, AnalyzeEvents returns it as one error line naming
// the line, so that no stream crashes a command, a server or a run it
// follows.
func AnalyzeEvents(r io.Reader, opt summary.Options) (*summary.Summary, *summary.ReviewEvents, error) {
	return analyze(parser{reg: agents.Default()}, r, opt, nil)
}

// AnalyzeFile summarizes the stream file at path and fills its file name.
func AnalyzeFile(path string, opt summary.Options) (*summary.Summary, []summary.ReviewEvent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("open stream: %w", err)
	}
	defer f.Close()
	s, rev, err := Analyze(f, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	s.FileName = filepath.Base(path)
	return s, rev, nil
}

// analyzeFunc is analyze's signature: an import's readers call it through
// a field that tests replace.
type analyzeFunc func(parser, io.Reader, summary.Options, func(*event.Event)) (*summary.Summary, *summary.ReviewEvents, error)

// parser is what a parse reads with: the parsers, and what a reader
// reuses from file to file: the parse's arrays (agents.Scratch) and the
// summary builder (Builder.Reset). Nil ones are the parse's own.
type parser struct {
	reg     *agents.Registry
	scratch *agents.Scratch
	builder *summary.Builder
	// captured is set for a file a recorded `sift run` wrote: its lines
	// were redacted on their way to disk (core/capture), and are not
	// scanned again. Every other file is redacted where it enters, line
	// by line, before it is parsed.
	captured bool
	// skip, when set, drops the events it reports before the listener
	// and the builder hear them (a subagent's replay of a message its
	// parent counted: parent.replays).
	skip func(*event.Event) bool
}

// analyze is the one parse of a stream, by the parsers of p: every
// event goes to listen, when set, and then to the summary builder, which
// makes the review events at the end. listen may fill what the builder
// reads (a subagent's parent call). The events are lent
// (agents.Options.Borrow): the builder and the listener copy what they
// keep.
func analyze(p parser, r io.Reader, opt summary.Options, listen func(*event.Event)) (sum *summary.Summary, rev *summary.ReviewEvents, err error) {
	b := p.builder
	if b == nil {
		b = summary.NewBuilder(opt)
	} else {
		b.Reset(opt)
	}
	line := 0
	emit := func(ev *event.Event) {
		line = ev.Line
		if p.skip != nil && p.skip(ev) {
			return
		}
		if listen != nil {
			listen(ev)
		}
		b.Add(ev)
	}
	defer func() {
		if p := recover(); p != nil {
			msg := strings.Join(strings.Fields(fmt.Sprint(p)), " ")
			sum, rev, err = nil, nil, fmt.Errorf("summarize: internal error after line %d: %s", line, msg)
		}
	}()
	po := agents.Options{Agent: agents.Kind(opt.Agent), Borrow: true, Scratch: p.scratch}
	if !p.captured {
		po.Redact = redact.JSONLine
	}
	st, err := p.reg.Parse(r, po, emit)
	if err != nil {
		return nil, nil, err
	}
	sum, rev = b.FinishEvents(st)
	return sum, rev, nil
}
