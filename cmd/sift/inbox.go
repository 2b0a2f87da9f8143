package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/user"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/store"
	"github.com/agentsift/sift/themes"
	"github.com/agentsift/sift/tui"
)

// inboxFlags are the flags of `sift` (the inbox) and `sift demo`.
type inboxFlags struct {
	theme    string
	operator bool
	reviewer string
}

func addInboxFlags(fs *flag.FlagSet) *inboxFlags {
	f := &inboxFlags{}
	fs.StringVar(&f.theme, "theme", "auto", "colour theme: auto (from the terminal background), dark, light or high-contrast")
	fs.BoolVar(&f.operator, "operator", false, "start in the operator view (display names, flagged sessions only)")
	fs.StringVar(&f.reviewer, "reviewer", "", "reviewer id recorded on decisions (default: $USER)")
	return f
}

// check validates the flags.
func (f *inboxFlags) check() error {
	_, err := themes.ByName(f.theme, true)
	return err
}

// options are the app options the flags set.
func (f *inboxFlags) options(st tui.Store) tui.Options {
	o := tui.Options{Store: st, Theme: f.theme, Reviewer: f.reviewer}
	if o.Reviewer == "" {
		if u, err := user.Current(); err == nil {
			o.Reviewer = u.Username
		}
	}
	if f.operator {
		o.Mode = tui.Operator
	}
	return o
}

// runInbox implements `sift` with no command: the inbox on the default
// store, after starting an import of the logs folder in the background,
// followed by the retention sweep (again daily while the inbox is open, and
// when a reloaded configuration changes retention).
func runInbox(args []string, _ io.Reader, _, stderr io.Writer) int {
	fs := flag.NewFlagSet("sift", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	inf := addInboxFlags(fs)
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "inbox", err)
	}
	if err := inf.check(); err != nil {
		return fail(stderr, "inbox", err)
	}
	st, err := sf.open()
	if err != nil {
		return fail(stderr, "inbox", err)
	}
	defer st.Close()
	ad := newInboxStore(st)
	opts := inf.options(ad)
	_, statErr := os.Stat(sf.logs)
	opts.Importing = statErr == nil
	app, err := tui.NewApp(opts)
	if err != nil {
		return fail(stderr, "inbox", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := newProgram(app, ctx)
	// The inbox is a long-lived sift process: the import first, then the
	// retention sweep, at start and daily, and the configuration reloaded
	// when its file changes.
	bg := newBackground(sf, st, nil, slog.Default())
	bg.report = func(res sweepReport, err error) {
		ad.invalidate()
		p.Send(tui.SweepMsg{Deleted: res.FilesDeleted, Err: err, Warning: sweepWarning(res)})
	}
	go bg.watchConfig(ctx)
	go func() {
		if opts.Importing {
			importInBackground(ctx, st, ad, []string{sf.logs}, sf.importOptions(), p.Send)
		}
		bg.retention(ctx)
	}()
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return fail(stderr, "inbox", err)
	}
	return 0
}

// newProgram makes the Bubble Tea program; NO_COLOR drops colours and
// keeps bold, underline and reverse. The app's log goes to $SIFT_LOG, or
// nowhere: stderr is the screen.
func newProgram(app *tui.App, ctx context.Context) *tea.Program {
	var w io.Writer = io.Discard
	if p := os.Getenv("SIFT_LOG"); p != "" {
		if f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
			w = f
		}
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(w, nil)))
	opts := []tea.ProgramOption{tea.WithContext(ctx)}
	if os.Getenv("NO_COLOR") != "" {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	return tea.NewProgram(app, opts...)
}

// importInBackground imports the roots and reports progress to the app.
func importInBackground(ctx context.Context, st *store.Store, ad *inboxStore, roots []string, opts ingest.Options, send func(tea.Msg)) {
	var last time.Time
	res, err := ingest.Import(ctx, st, roots, opts, func(p ingest.Progress) {
		// A report every tenth of a second is plenty for a status line.
		if now := time.Now(); now.Sub(last) >= 100*time.Millisecond || p.FilesDone == p.FilesTotal {
			last = now
			ad.invalidate()
			send(tui.ImportProgressMsg{Files: p.FilesDone, Total: p.FilesTotal})
		}
	})
	ad.invalidate()
	if err == nil && len(res.Failed) > 0 {
		err = fmt.Errorf("%d files failed, first %s", len(res.Failed), res.Failed[0])
	}
	if ctx.Err() != nil {
		return
	}
	send(tui.ImportProgressMsg{Files: res.Files, Total: res.Files, Sessions: res.Sessions, Done: true, Err: err})
}

// inboxStore adapts the store to the inbox's tui.Store. Plain sorts go to
// the store's indexed pages. The triage order (flagged and undecided
// first, then by cost) is two segments: the store's flagged undecided
// sessions by cost, then the rest of the indexed cost order. The fuzzy filter and the
// grouping by work item read every matching list row once per change and
// page in memory.
type inboxStore struct {
	st  *store.Store
	gen atomic.Int64

	mu     sync.Mutex
	counts map[countKey]int
	// scans holds the triage order's scans of its second segment, and
	// extra the sessions flagged by an open needs_followup only, by
	// filters and generation.
	scans map[countKey]scan
	extra map[countKey]map[tui.SessionKey]bool
	// all holds the sorted, filtered rows of the last slow query.
	all    []tui.Session
	allFor tui.Query
	allGen int64
	cntGen int64
	// index holds every session's list row and tool names for the
	// filter, read once per import generation and patched by decisions.
	index    []tui.Session
	indexFor store.Query
	indexGen int64
	// imports counts the imports' changes; it invalidates the index.
	imports  atomic.Int64
	building sync.Mutex
}

var _ tui.Store = (*inboxStore)(nil)

// countKey is the filter part of a query, with the generation it was
// computed in.
type countKey struct {
	flagged, undecided bool
	agent              string
	gen                int64
}

func newInboxStore(st *store.Store) *inboxStore {
	return &inboxStore{st: st, counts: map[countKey]int{}, scans: map[countKey]scan{},
		extra: map[countKey]map[tui.SessionKey]bool{}}
}

// invalidate drops the caches: an import changed the store.
func (a *inboxStore) invalidate() {
	a.imports.Add(1)
	a.gen.Add(1)
}

// base is the store query of a tui query's filters.
func base(q tui.Query) store.Query {
	return store.Query{Flagged: q.FlaggedOnly, Undecided: q.UndecidedOnly, Agent: q.Agent}
}

// ListSessions implements tui.Store.
func (a *inboxStore) ListSessions(ctx context.Context, q tui.Query) (tui.Page, error) {
	if q.Filter != "" || q.GroupByWorkItem {
		return a.listSlow(ctx, q)
	}
	var p tui.Page
	var err error
	if p.Total, err = a.count(ctx, base(q)); err != nil {
		return p, err
	}
	var rows []summary.Summary
	if q.Sort == tui.SortTriage || q.Sort == "" {
		rows, err = a.triage(ctx, q)
	} else {
		sq := base(q)
		sq.Sort, sq.Asc, sq.Limit, sq.Offset = store.SortKey(q.Sort), !q.Desc, q.Limit, q.Offset
		rows, err = a.st.ListSessions(ctx, sq)
	}
	if err != nil {
		return p, err
	}
	for _, r := range rows {
		p.Sessions = append(p.Sessions, tui.Session{Summary: r})
	}
	return p, nil
}

// count counts a store query, cached per generation.
func (a *inboxStore) count(ctx context.Context, q store.Query) (int, error) {
	k := countKey{q.Flagged, q.Undecided, q.Agent, a.gen.Load()}
	a.mu.Lock()
	if a.cntGen != k.gen {
		clear(a.counts)
		a.cntGen = k.gen
	}
	n, ok := a.counts[k]
	a.mu.Unlock()
	if ok {
		return n, nil
	}
	n, err := a.st.CountSessions(ctx, q)
	if err != nil {
		return 0, err
	}
	a.mu.Lock()
	a.counts[k] = n
	a.mu.Unlock()
	return n, nil
}

// Counts implements tui.Store.
func (a *inboxStore) Counts(ctx context.Context, q tui.Query) (flagged, undecided int, err error) {
	if q.Filter != "" || q.GroupByWorkItem {
		p, err := a.listSlow(ctx, q)
		if err != nil {
			return 0, 0, err
		}
		// Flagged in the store's sense: an open needs_followup flags too.
		fb := base(q)
		fb.Flagged = true
		fidx, err := a.flaggedKeys(ctx, fb)
		if err != nil {
			return 0, 0, err
		}
		for i := range p.Sessions {
			if fidx[p.Sessions[i].Key()] {
				flagged++
			}
			if p.Sessions[i].Decision == nil {
				undecided++
			}
		}
		return flagged, undecided, nil
	}
	fq, uq := base(q), base(q)
	fq.Flagged, uq.Undecided = true, true
	if flagged, err = a.count(ctx, fq); err != nil {
		return 0, 0, err
	}
	undecided, err = a.count(ctx, uq)
	return flagged, undecided, err
}

// triage pages the default order: the flagged undecided sessions by cost
// (the store's own query, flagged in its sense: an open needs_followup on
// a turn or tool call flags a session too), then every other session by
// cost, read from the indexed cost order by skipping the first segment's
// rows. A first page costs one indexed read; the second segment is
// scanned once, its offsets kept, when the pages reach it.
func (a *inboxStore) triage(ctx context.Context, q tui.Query) ([]summary.Summary, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 1 << 30
	}
	b := base(q)
	first := b
	first.Flagged, first.Undecided, first.Sort, first.Offset, first.Limit = true, true, store.SortCost, q.Offset, limit
	out, err := a.st.ListSessions(ctx, first)
	if err != nil || len(out) >= limit {
		return out, err
	}
	nFirst := q.Offset + len(out)
	if len(out) == 0 && q.Offset > 0 {
		if nFirst, err = a.count(ctx, first); err != nil {
			return nil, err
		}
	}
	extra, err := a.followupOnly(ctx, first)
	if err != nil {
		return nil, err
	}
	from, want := max(q.Offset-nFirst, 0), limit-len(out)
	sc, err := a.scanTo(ctx, b, extra, from+want)
	if err != nil {
		return nil, err
	}
	if from >= len(sc.rest) {
		return out, nil
	}
	more, err := a.fetch(ctx, b, sc, sc.rest[from:min(from+want, len(sc.rest))])
	return append(out, more...), err
}

// followupOnly returns the sessions of the first segment that are not
// flagged by their summary (an open needs_followup flags them): the rows
// the second segment's scan must skip besides the flagged undecided ones.
// It reads the first segment once per generation.
func (a *inboxStore) followupOnly(ctx context.Context, first store.Query) (map[tui.SessionKey]bool, error) {
	k := countKey{first.Flagged, first.Undecided, first.Agent, a.gen.Load()}
	a.mu.Lock()
	if m, ok := a.extra[k]; ok {
		a.mu.Unlock()
		return m, nil
	}
	a.mu.Unlock()
	m := map[tui.SessionKey]bool{}
	const chunk = 2000
	for off := 0; ; off += chunk {
		sq := first
		sq.Offset, sq.Limit = off, chunk
		rows, err := a.st.ListSessions(ctx, sq)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if !r.Flagged {
				m[tui.SessionKey{WorkItemID: r.WorkItemID, FileName: r.FileName}] = true
			}
		}
		if len(rows) < chunk {
			break
		}
	}
	a.mu.Lock()
	if len(a.extra) > 16 {
		clear(a.extra)
	}
	a.extra[k] = m
	a.mu.Unlock()
	return m, nil
}

// inFirst reports whether a row belongs to the triage order's first
// segment, given the sessions an open needs_followup puts there.
func inFirst(s *summary.Summary, extra map[tui.SessionKey]bool) bool {
	return s.Decision == nil && (s.Flagged || extra[tui.SessionKey{WorkItemID: s.WorkItemID, FileName: s.FileName}])
}

// scan is how far the second segment's scan of one store query has got.
type scan struct {
	// rest holds the cost-order offsets of the second segment's rows.
	rest []int
	next int
	done bool
	// recent holds the rows of the last read, by offset.
	recent map[int]summary.Summary
}

// scanTo scans the cost order of a store query on from where it stopped
// until it has n rows of the second segment or the order ends, and
// returns a copy of the scan.
func (a *inboxStore) scanTo(ctx context.Context, b store.Query, extra map[tui.SessionKey]bool, n int) (scan, error) {
	k := countKey{b.Flagged, b.Undecided, b.Agent, a.gen.Load()}
	a.mu.Lock()
	if len(a.scans) > 16 {
		clear(a.scans)
	}
	sc := a.scans[k]
	a.mu.Unlock()
	const chunk = 256
	for !sc.done && len(sc.rest) < n {
		sq := b
		sq.Sort, sq.Offset, sq.Limit = store.SortCost, sc.next, chunk
		rows, err := a.st.ListSessions(ctx, sq)
		if err != nil {
			return scan{}, err
		}
		sc.recent = make(map[int]summary.Summary, len(rows))
		for i := range rows {
			if !inFirst(&rows[i], extra) {
				sc.rest = append(sc.rest, sc.next+i)
			}
			sc.recent[sc.next+i] = rows[i]
		}
		sc.next += len(rows)
		sc.done = len(rows) < chunk
	}
	a.mu.Lock()
	a.scans[k] = sc
	a.mu.Unlock()
	return sc, nil
}

// fetch returns the rows at the given cost-order offsets of a store query:
// from the scan's last read when it has them all, else one read of the
// span they cover.
func (a *inboxStore) fetch(ctx context.Context, b store.Query, sc scan, offs []int) ([]summary.Summary, error) {
	if len(offs) == 0 {
		return nil, nil
	}
	out := make([]summary.Summary, 0, len(offs))
	for _, o := range offs {
		r, ok := sc.recent[o]
		if !ok {
			out = out[:0]
			break
		}
		out = append(out, r)
	}
	if len(out) == len(offs) {
		return out, nil
	}
	b.Sort, b.Offset, b.Limit = store.SortCost, offs[0], offs[len(offs)-1]-offs[0]+1
	rows, err := a.st.ListSessions(ctx, b)
	if err != nil {
		return nil, err
	}
	want := map[int]bool{}
	for _, o := range offs {
		want[o] = true
	}
	for i, r := range rows {
		if want[offs[0]+i] {
			out = append(out, r)
		}
	}
	return out, nil
}

// listSlow filters and sorts the rows of the index in memory: the fuzzy
// filter matches tool names, which the store does not index, and the
// store has no order by work item. Scrolling and typing then cost a pass
// over the index, not a read of the store.
func (a *inboxStore) listSlow(ctx context.Context, q tui.Query) (tui.Page, error) {
	key := q
	key.Limit, key.Offset = 0, 0
	gen := a.gen.Load()
	a.mu.Lock()
	cached := a.all != nil && a.allFor == key && a.allGen == gen
	all := a.all
	a.mu.Unlock()
	if !cached {
		index, err := a.searchIndex(ctx, base(q))
		if err != nil {
			return tui.Page{}, err
		}
		// The store has applied the flagged filter in its own sense (an
		// open needs_followup flags a session too); decisions patched
		// into the index since may have decided a session.
		mq := q
		mq.FlaggedOnly = false
		all = make([]tui.Session, 0, len(index))
		for i := range index {
			if tui.Matches(&index[i], mq) {
				all = append(all, index[i])
			}
		}
		extra := map[tui.SessionKey]bool{}
		if q.Sort == tui.SortTriage || q.Sort == "" {
			first := base(q)
			first.Flagged, first.Undecided, first.Sort = true, true, store.SortCost
			if extra, err = a.followupOnly(ctx, first); err != nil {
				return tui.Page{}, err
			}
		}
		slices.SortStableFunc(all, func(x, y tui.Session) int {
			return tui.CompareFlagged(&x, &y, q, x.Flagged || extra[x.Key()], y.Flagged || extra[y.Key()])
		})
		a.mu.Lock()
		a.all, a.allFor, a.allGen = all, key, gen
		a.mu.Unlock()
	}
	p := tui.Page{Total: len(all)}
	lo := min(q.Offset, len(all))
	hi := len(all)
	if q.Limit > 0 {
		hi = min(lo+q.Limit, hi)
	}
	p.Sessions = slices.Clone(all[lo:hi])
	for i := range p.Sessions {
		p.Sessions[i].ToolCalls = nil
	}
	return p, nil
}

// searchIndex returns the list rows a base query selects, each with its
// tool names (as tool calls holding only a name) and without its tail,
// read in chunks so that the whole tool call lists never sit in memory.
func (a *inboxStore) searchIndex(ctx context.Context, b store.Query) ([]tui.Session, error) {
	// One build at a time: the keystrokes typed while it runs wait for it
	// and share it.
	a.building.Lock()
	defer a.building.Unlock()
	gen := a.imports.Load()
	a.mu.Lock()
	if a.index != nil && a.indexFor == b && a.indexGen == gen {
		idx := a.index
		a.mu.Unlock()
		return idx, nil
	}
	a.mu.Unlock()
	const chunk = 2000
	var idx []tui.Session
	for off := 0; ; off += chunk {
		sq := b
		sq.Full, sq.Sort, sq.Offset, sq.Limit = true, store.SortStarted, off, chunk
		rows, err := a.st.ListSessions(ctx, sq)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			var names []summary.ToolCall
			for _, tc := range r.ToolCalls {
				if !slices.ContainsFunc(names, func(n summary.ToolCall) bool { return n.Name == tc.Name }) {
					names = append(names, summary.ToolCall{Name: tc.Name})
				}
			}
			r.ToolCalls, r.Stalls, r.Turns, r.Tail = names, nil, nil, nil
			idx = append(idx, tui.Session{Summary: r})
		}
		if len(rows) < chunk {
			break
		}
	}
	a.mu.Lock()
	a.index, a.indexFor, a.indexGen = idx, b, gen
	a.mu.Unlock()
	return idx, nil
}

// flaggedKeys returns the keys of the sessions a flagged store query
// selects, read a page at a time.
func (a *inboxStore) flaggedKeys(ctx context.Context, b store.Query) (map[tui.SessionKey]bool, error) {
	const chunk = 5000
	keys := map[tui.SessionKey]bool{}
	for off := 0; ; off += chunk {
		sq := b
		sq.Sort, sq.Offset, sq.Limit = store.SortStarted, off, chunk
		rows, err := a.st.ListSessions(ctx, sq)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			keys[tui.SessionKey{WorkItemID: r.WorkItemID, FileName: r.FileName}] = true
		}
		if len(rows) < chunk {
			return keys, nil
		}
	}
}

// GetSession implements tui.Store: the whole summary, its stream file and
// the working directory its invocation recorded.
func (a *inboxStore) GetSession(ctx context.Context, k tui.SessionKey) (tui.Session, error) {
	sum, err := a.st.GetSummary(ctx, k.WorkItemID, k.FileName)
	if err != nil {
		return tui.Session{}, err
	}
	s := tui.Session{Summary: *sum}
	if s.Cwd, err = a.st.InvocationCwd(ctx, k.WorkItemID, k.FileName); err != nil {
		return s, err
	}
	files, err := a.st.StreamFiles(ctx, k.WorkItemID)
	if err != nil {
		return s, err
	}
	for _, f := range files {
		if f.FileName == k.FileName {
			s.Path = f.Path
		}
	}
	return s, nil
}

// Decide implements tui.Store. It patches the filter's index rather than
// reading it again.
func (a *inboxStore) Decide(ctx context.Context, d tui.Decision) error {
	defer a.gen.Add(1)
	sd := store.Decision{
		WorkItemID: d.Session.WorkItemID, FileName: d.Session.FileName, TurnID: d.TurnID, ToolCallID: d.ToolCallID,
		Decision: store.DecisionKind(d.Decision), Note: d.Note, ReviewerID: d.Reviewer, CreatedAt: d.CreatedAt,
	}
	if err := a.st.Decide(ctx, sd); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if d.TurnID != "" || d.ToolCallID != "" {
		// A turn's or call's needs_followup flags the session in the
		// store's sense; the index cannot tell, so read it again.
		a.index = nil
		return nil
	}
	for i := range a.index {
		if a.index[i].Key() == d.Session {
			a.index[i].Decision = sd.Summary()
		}
	}
	return nil
}

// Decisions implements tui.Store.
func (a *inboxStore) Decisions(ctx context.Context, k tui.SessionKey) ([]tui.Decision, error) {
	ds, err := a.st.Decisions(ctx, k.WorkItemID, k.FileName)
	if err != nil {
		return nil, err
	}
	out := make([]tui.Decision, len(ds))
	for i, d := range ds {
		out[i] = tui.Decision{
			Session: k, TurnID: d.TurnID, ToolCallID: d.ToolCallID, Decision: string(d.Decision),
			Note: d.Note, Reviewer: d.ReviewerID, CreatedAt: d.CreatedAt,
		}
	}
	return out, nil
}
