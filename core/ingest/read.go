package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/summary"
)

// errNotStream marks a file that is not a text stream.
var errNotStream = errors.New("binary file, not an agent stream")

// ErrNotStream is the error of a file named alone that no sniffer claims,
// no recorded run wrote and whose name is not a capture's: nothing says
// an agent wrote it. Options.Summary.Agent forces it in.
var ErrNotStream = errors.New("not an agent stream")

// notStream is ErrNotStream saying what was tried and how to force it.
func notStream(reg *agents.Registry) error {
	var tried []string
	for _, k := range reg.Kinds() {
		if k != agents.Unknown {
			tried = append(tried, string(k))
		}
	}
	return fmt.Errorf("%w: no sniffer claims it (%s), no sift run recorded it and its name is not a capture's"+
		" (PHASE-N-HEX.jsonl); sift import --agent unknown FILE imports it as plain text, --agent KIND as KIND's stream",
		ErrNotStream, strings.Join(tried, ", "))
}

// readBufSize is the read buffer of each reader: the size of the parser's
// own (core/agents newLineReader), which then reads through the reader's
// buffer rather than allocating one per file.
const readBufSize = 256 << 10

// headSize is how much of a file is looked at before it is parsed: to
// tell a binary file, and to sniff an agent's history. It is read into
// the reader's buffer, which the parse then reads on from.
const headSize = 4096

// reader reads the files of one import worker, through its own buffers
// and parsers.
type reader struct {
	opt     Options
	now     time.Time
	analyze analyzeFunc
	reg     *agents.Registry
	br      *bufio.Reader
	// scratch is what the parses of the reader's files reuse from line
	// to line, and so from file to file; builder is the summary builder
	// each file's is, Reset (a file's session is encoded, so done with,
	// before the reader reads the next: Writer.Encode).
	scratch agents.Scratch
	builder *summary.Builder
}

func newReader(opt Options, now time.Time, analyze analyzeFunc) *reader {
	return &reader{opt: opt, now: now, analyze: analyze, reg: agents.Default(), br: bufio.NewReaderSize(nil, readBufSize),
		builder: summary.NewBuilder(summary.Options{})}
}

// parser is what the reader parses a file with; captured says a recorded
// `sift run` wrote it, redacted.
func (r *reader) parser(captured bool) parser {
	return parser{reg: r.reg, scratch: &r.scratch, builder: r.builder, captured: captured}
}

// read reads one file into a session: one parse, whose events go to the
// summary builder (which makes the review events) and, for an agent's
// history, to the usage. inv is the recorded run that wrote the file, nil
// when none did. A file that cannot be read or summarized is an error
// naming why, in one line.
func (r *reader) read(f *File, inv *Invocation) (s *Session, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("summarizer failed: %s", strings.Join(strings.Fields(fmt.Sprint(p)), " "))
		}
	}()
	var in io.Reader
	var fh *os.File
	if f.lines != nil {
		if in, err = storedReader(f); err != nil {
			return nil, err
		}
	} else {
		if fh, err = f.open(); err != nil {
			return nil, errors.New(reason(err))
		}
		defer fh.Close()
		in = fh
	}
	// The head is read into the buffer the parse then reads from.
	r.br.Reset(in)
	head, err := r.br.Peek(headSize)
	if err != nil && len(head) == 0 && f.Size > 0 {
		return nil, errors.New(reason(err))
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return nil, errNotStream
	}
	opt := r.opt.Summary
	opt.WantReviewEvents = func(sum *summary.Summary) bool { return f.pinned || r.keepEvents(sum, f.MTime) }
	// A history file is known by where it was found, else by its shape
	// unless a recorded run says what wrote it.
	kind := f.history
	if kind == "" && inv == nil {
		kind = sniffHistory(r.reg, &r.scratch, head)
	}
	var src io.Reader = r.br
	var l listeners
	pp := r.parser(inv != nil)
	// What the history's entry says of its files; nothing for a stream.
	var hist agents.History
	if h, ok := agents.LookupHistory(kind); ok {
		hist = *h
	}
	switch {
	case kind != "":
		opt.Agent = string(kind)
		l.usage = &Usage{}
		if hist.SubagentParents {
			var par *parent
			par, l.usage.ParentCall = f.parents.lookup(f)
			if par != nil {
				pp.skip = par.replays
			}
		}
		l.cwd = hist.ProjectFromCwd
		if hist.NoTokens {
			opt.TokensNotRecordedBy = strings.TrimSuffix(string(kind), "-history")
		}
		if hist.Document != nil && strings.HasSuffix(f.Path, ".json") {
			// The older Gemini CLI wrote one JSON document per session.
			if src, err = historyDocument(r.br, hist.Document); err != nil {
				return nil, err
			}
		}
	case inv != nil:
		opt.Agent = inv.Agent
		opt.Start, opt.End = inv.Start, inv.End
		if inv.Model != "" {
			opt.Model, opt.ModelSource = inv.Model, inv.ModelSource
		}
		// The recorded exit status decides the run: a non-zero one
		// fails it.
		if c := inv.ExitCode; c != nil {
			code := *c
			opt.ExitCode = &code
		}
	}
	// The search index's text is heard last, as the builder hears it.
	srch := newSearchText()
	listen := srch.listen
	if l.usage != nil {
		listen = func(ev *event.Event) { l.listen(ev); srch.listen(ev) }
	}
	sum, rev, err := r.analyze(pp, src, opt, listen)
	if err != nil && kind == "" && fh != nil && errors.Is(err, agents.ErrUnknownAgent) {
		// A recorded run naming a harness this sift cannot read: sniff
		// instead.
		if _, serr := fh.Seek(0, io.SeekStart); serr == nil {
			opt.Agent = ""
			r.br.Reset(fh)
			*srch = *newSearchText()
			sum, rev, err = r.analyze(r.parser(inv != nil), r.br, opt, srch.listen)
		}
	}
	if err != nil {
		return nil, err
	}
	if l.usage != nil {
		l.usage.finish()
	}
	if f.named && inv == nil && kind == "" && r.opt.Summary.Agent == "" && sum.AgentKind == string(agents.Unknown) &&
		f.Layout.Iteration == nil {
		// A file in a folder keeps the plain-text fallback; one named
		// alone (/etc/passwd) is refused unless forced.
		return nil, notStream(r.reg)
	}
	lay, project := f.Layout, f.project
	if kind != "" && f.history == "" {
		// Recognised by shape (`sift import FILE`, a rebuild): the
		// layout is read from where the file lies.
		lay, project = sniffedLayout(kind, f.Path, lay)
	}
	sum.WorkItemID, sum.FileName, sum.Phase, sum.Iteration = lay.WorkItemID, lay.FileName, lay.Phase, lay.Iteration
	if sum.StreamCwd == "" && project != "" {
		// A Gemini CLI chat records no folder: its project's root, as
		// the CLI's projects.json records it, is its folder.
		sum.StreamCwd = redact.String(project)
	}
	if hist.NamedByID {
		sum.FileName = historySessionName(f, lay.FileName, sum.SessionID)
	}
	if l.cwdSeen != "" {
		// A Codex rollout records its cwd: that is its project. Gemini
		// CLI records none: its project is its folder.
		sum.WorkItemID = ProjectID(l.cwdSeen)
	}
	return &Session{File: *f, Summary: sum, Events: rev, Usage: l.usage, NoRun: inv == nil, Search: srch.pieces}, nil
}

// keepEvents asks the options whether a session keeps its review events,
// by its age and flag.
func (r *reader) keepEvents(sum *summary.Summary, mtime int64) bool {
	if r.opt.KeepEvents == nil {
		return true
	}
	return r.opt.KeepEvents(r.now.Sub(time.UnixMilli(activity(sum, mtime))), sum.Flagged)
}

// listeners are what an agent history's parse feeds besides the summary:
// its usage, and the cwd a Codex rollout records.
type listeners struct {
	usage   *Usage
	cwd     bool
	cwdSeen string
}

// listen hears one event before the summary builder does.
func (l *listeners) listen(ev *event.Event) {
	l.usage.add(ev)
	if l.cwd && l.cwdSeen == "" && ev.Update.SessionUpdate == event.SessionStart {
		l.cwdSeen = strings.Clone(ev.Update.Cwd)
	}
	if p := l.usage.ParentCall; p != "" && ev.ParentToolCallID == "" {
		ev.ParentToolCallID = p
	}
}

// historyDocument reads a session document (an older Gemini CLI's) as the
// lines its history parser reads.
func historyDocument(r io.Reader, read func([]byte) ([]byte, error)) (io.Reader, error) {
	doc, err := io.ReadAll(r)
	if err != nil {
		return nil, errors.New(reason(err))
	}
	lines, err := read(doc)
	if err != nil {
		return nil, fmt.Errorf("gemini session document: %w", err)
	}
	return bytes.NewReader(lines), nil
}
