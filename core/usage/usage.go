// Package usage totals the model calls sift recorded of each stream file
// (the store's usage rows) per day, week, month, session, project or
// model, each call counted once and priced by the price table: what
// `sift usage` shows. The store returns the rows; this package adds them.
package usage

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/pricing"
)

// By is what usage totals are grouped by.
type By string

// The groupings of Total.
const (
	ByDay     By = "day"
	ByWeek    By = "week"
	ByMonth   By = "month"
	BySession By = "session"
	ByProject By = "project"
	ByModel   By = "model"
	// ByBlock groups by ccusage's 5-hour billing blocks (block.go).
	ByBlock By = "block"
)

// Source says which stored runs are counted.
type Source string

// The sources of Total.
const (
	// SourceAll counts every stored run.
	SourceAll Source = "all"
	// SourceCaptures counts the runs sift captured (`sift run`, the logs
	// folder, `sift import` of a stream).
	SourceCaptures Source = "captures"
	// SourceHistories counts the agents' own on-disk histories.
	SourceHistories Source = "histories"
)

// Keeps reports whether the source counts a capture (capture true) or a
// history file; an empty source counts both.
func (s Source) Keeps(capture bool) bool {
	switch s {
	case SourceCaptures:
		return capture
	case SourceHistories:
		return !capture
	}
	return true
}

// Options says which totals Total computes.
type Options struct {
	// By groups the totals; empty means ByDay.
	By By
	// Since drops the calls before this time, Until those at or after it;
	// a zero time bounds nothing. A block (ByBlock) is kept or dropped
	// whole, by its start, as ccusage filters blocks.
	Since, Until time.Time
	// Location is the time zone days are read in; nil means time.Local,
	// as ccusage does.
	Location *time.Location
	// Agent keeps one harness's runs, captured or in its history (a
	// history's kind names its harness: agents.Kind.Harness); empty keeps
	// all.
	Agent agents.Kind
	// Source keeps captures, histories or both (empty: both).
	Source Source
	// Prices estimates the cost of a history's calls; nil means the
	// embedded table.
	Prices *pricing.Table
}

// Totals are token counts and their estimated cost.
type Totals struct {
	// InputTokens is the uncached prompt; the cache shares are apart.
	InputTokens         int64 `json:"inputTokens"`
	OutputTokens        int64 `json:"outputTokens"`
	CacheCreationTokens int64 `json:"cacheCreationTokens"`
	CacheReadTokens     int64 `json:"cacheReadTokens"`
	TotalTokens         int64 `json:"totalTokens"`
	// CostUSD is the cost of the calls whose cost is known; nil (null)
	// when none is, never 0.
	CostUSD *float64 `json:"costUsd"`
	// Calls counts the model calls counted (a capture counts as one).
	Calls int64 `json:"calls"`
	// UnpricedCalls counts the calls whose cost is unknown, which CostUSD
	// leaves out.
	UnpricedCalls int64 `json:"unpricedCalls,omitempty"`
}

// Row is the totals of one period, block, session, project or model.
type Row struct {
	// Key is the day (YYYY-MM-DD), week's Monday, month (YYYY-MM),
	// block's start (RFC 3339, in Options.Location), session id, project
	// (work item) or model.
	Key string `json:"key"`
	Totals
	// Start and End bound a block (ByBlock): its start hour and five hours
	// on; LastAt is its last call. Nil in other groupings.
	Start  *time.Time `json:"startTime,omitempty"`
	End    *time.Time `json:"endTime,omitempty"`
	LastAt *time.Time `json:"actualEndTime,omitempty"`
	// Models lists the models used, sorted.
	Models []string `json:"models"`
	// Unpriced lists the models whose cost is unknown (the price table
	// does not know them, or a capture's summary could not price them).
	Unpriced []string `json:"unpricedModels,omitempty"`
	// ByModel holds the row's totals per model, sorted by model.
	ByModel []ModelRow `json:"modelBreakdowns"`
}

// ModelRow is the totals of one model within a row.
type ModelRow struct {
	Model string `json:"model"`
	Totals
}

// Report is the result of Total.
type Report struct {
	By     By     `json:"by"`
	Rows   []Row  `json:"rows"`
	Totals Totals `json:"totals"`
}

// File is the usage of one stream file: its session's key, harness and
// session id, the models its calls name, and its calls. A history file
// (store.UsageFile) lists its calls; a capture counts its summary's totals
// as one call (Capture), at its start, with the summary's cost.
type File struct {
	WorkItemID, FileName, AgentKind, SessionID string
	Models                                     []string
	Entries                                    []ingest.UsageEntry
	// Capture marks a captured run's session: its entry holds the tokens
	// its summary stores, and Cost its summary's cost (nil: unknown),
	// which the price table does not estimate again.
	Capture bool
	Cost    *float64
}

// Total totals the recorded model calls of the files read hands to add,
// the earliest file first. A call recorded in several files (the same
// message id and request id, as a resumed Claude Code session repeats its
// predecessor's) counts once, in the first file: ccusage's rule, so that
// the totals per day equal `ccusage daily`; a sidechain's replay of a
// main-chain message counts as the main chain's (sideDedupe). Within a file
// each message counts once, as the inbox counts it (ingest.Usage).
func Total(opt Options, read func(add func(File) error) error) (Report, error) {
	if opt.By == "" {
		opt.By = ByDay
	}
	switch opt.By {
	case ByDay, ByWeek, ByMonth, BySession, ByProject, ByModel, ByBlock:
	default:
		return Report{}, fmt.Errorf("usage: unknown grouping %q (day, week, month, block, session, project, model)", opt.By)
	}
	loc := opt.Location
	if loc == nil {
		loc = time.Local
	}
	prices := opt.Prices
	if prices == nil {
		prices = pricing.Default()
	}
	a := newAgg(opt.By, loc, prices)
	a.bound(opt.Since, opt.Until)
	seen := map[uint64]struct{}{}
	var d sideDedupe
	err := read(func(f File) error {
		if !opt.Source.Keeps(f.Capture) || opt.Agent != "" && agents.Kind(f.AgentKind).Harness() != opt.Agent.Harness() {
			return nil
		}
		session := f.SessionID
		if session == "" {
			session = f.FileName
		}
		for _, e := range f.Entries {
			if e.Key != 0 {
				if _, dup := seen[e.Key]; dup {
					continue
				}
				seen[e.Key] = struct{}{}
			}
			c := call{UsageEntry: e, model: f.Models[e.Model], project: f.WorkItemID, session: session}
			if f.Capture {
				c.cost, c.priced = f.Cost, true
			}
			d.add(c)
		}
		return nil
	})
	if err != nil {
		return Report{}, err
	}
	for _, c := range d.calls {
		a.add(c)
	}
	return a.report(), nil
}

// sideDedupe holds the counted calls until every file is read, so that a
// main-chain message can replace a sidechain's replay of it met earlier.
//
// A sidechain (a /btw side question, a subagent: its own file) can replay a
// message of its main chain under a request id of its own; the message
// counts once, with the main chain's usage, whichever file comes first:
// ccusage's rule since its Rust loader (push_deduped_entry; its tests
// keeps_parent_usage_when_sidechain_replays_message_with_new_request_id and
// refreshes_dedupe_indexes_when_parent_replaces_sidechain_replay). Two
// replays of one message by sidechains count once, the larger, as there.
// ccusage 18.0.11 keys by message and request id only and counts both
// (TestSidechainReplayDiffersFromCcusage18). The import already drops a
// subagent's replay of a message its parent's main chain counted, before
// the session's summary hears it (ingest's parent.replays), so that the
// inbox counts as this does (TestSidechainReplayInOwnFileInboxEqualsUsage).
type sideDedupe struct {
	calls []call
	// byMessage is the call of each message id met (ingest.UsageEntry's
	// Message), the first one.
	byMessage map[uint64]int
}

func (d *sideDedupe) add(c call) {
	if c.Message == 0 {
		d.calls = append(d.calls, c)
		return
	}
	if i, ok := d.byMessage[c.Message]; ok {
		old := &d.calls[i]
		switch {
		case old.Sidechain && !c.Sidechain:
			*old = c
			return
		case old.Sidechain && c.Sidechain:
			if tokens(c.UsageEntry) > tokens(old.UsageEntry) {
				*old = c
			}
			return
		case c.Sidechain:
			return
		}
		// Two main-chain calls of one message under two request ids
		// count apart, as in ccusage.
	} else {
		if d.byMessage == nil {
			d.byMessage = map[uint64]int{}
		}
		d.byMessage[c.Message] = len(d.calls)
	}
	d.calls = append(d.calls, c)
}

// tokens returns a call's four counts added.
func tokens(e ingest.UsageEntry) int64 {
	return event.AddCount(event.AddCount(e.Input, e.Output), event.AddCount(e.CacheWrite, e.CacheRead))
}

// call is one counted call with what it is grouped by.
type call struct {
	ingest.UsageEntry
	model, project, session string
	// priced says cost is decided already (a capture's summary's): nil
	// is unknown. Otherwise the price table prices the call.
	priced bool
	cost   *float64
}

// agg folds counted calls into rows.
type agg struct {
	by           By
	loc          *time.Location
	since, until int64
	prices       *pricing.Table
	rows         map[string]*rowAcc
	total        Totals
	// calls holds the calls of a grouping by block, which needs them all
	// in time order before it can tell the blocks.
	calls []call
	// price caches the table's answer per model.
	price map[string]*pricing.Price
	// day caches the last day computed: calls come in time order within
	// a file, so most share their predecessor's day.
	dayStart, dayEnd int64
	day              string
}

type rowAcc struct {
	Totals
	models, unpriced map[string]bool
	byModel          map[string]*Totals
	// start, end and last bound a block.
	start, end, last int64
}

func newAgg(by By, loc *time.Location, prices *pricing.Table) *agg {
	return &agg{by: by, loc: loc, prices: prices, since: math.MinInt64, until: math.MaxInt64,
		rows: map[string]*rowAcc{}, price: map[string]*pricing.Price{}}
}

// bound sets the window of the calls counted: [since, until); a zero time
// bounds nothing.
func (a *agg) bound(since, until time.Time) {
	if !since.IsZero() {
		a.since = since.UnixMilli()
	}
	if !until.IsZero() {
		a.until = until.UnixMilli()
	}
}

// dayOf returns the date of a unix ms time in the aggregation's zone.
func (a *agg) dayOf(ms int64) string {
	if ms >= a.dayStart && ms < a.dayEnd {
		return a.day
	}
	t := time.UnixMilli(ms).In(a.loc)
	y, m, d := t.Date()
	start := time.Date(y, m, d, 0, 0, 0, 0, a.loc)
	a.dayStart, a.dayEnd = start.UnixMilli(), start.AddDate(0, 0, 1).UnixMilli()
	a.day = start.Format("2006-01-02")
	return a.day
}

func (a *agg) add(c call) {
	if a.by == ByBlock {
		// A block is kept or dropped whole, by its start (block.go).
		a.calls = append(a.calls, c)
		return
	}
	if c.At < a.since || c.At >= a.until {
		return
	}
	var key string
	switch a.by {
	case ByDay:
		key = a.dayOf(c.At)
	case ByWeek:
		key = weekOf(a.dayOf(c.At))
	case ByMonth:
		key = a.dayOf(c.At)[:7]
	case BySession:
		key = c.session
	case ByProject:
		key = c.project
	case ByModel:
		key = c.model
	}
	a.count(a.row(key), c)
}

// row returns the accumulator of a key, made when new.
func (a *agg) row(key string) *rowAcc {
	r := a.rows[key]
	if r == nil {
		r = &rowAcc{models: map[string]bool{}, unpriced: map[string]bool{}, byModel: map[string]*Totals{}}
		a.rows[key] = r
	}
	return r
}

// costOf returns a call's cost: a capture's as its summary has it, else
// the price table's at its model; nil when unknown.
func (a *agg) costOf(c call) *float64 {
	if c.priced {
		return c.cost
	}
	p, ok := a.price[c.model]
	if !ok {
		if pr, _, found := a.prices.Lookup(c.model); found {
			p = &pr
		}
		a.price[c.model] = p
	}
	if p == nil {
		return nil
	}
	e := c.UsageEntry
	v := p.Cost(pricing.Usage{Input: event.AddCount(event.AddCount(e.Input, e.CacheRead), e.CacheWrite), Output: e.Output,
		CacheRead: e.CacheRead, CacheWrite: e.CacheWrite})
	return &v
}

// count adds a call to a row, its model's share and the report's totals.
func (a *agg) count(r *rowAcc, c call) {
	cost := a.costOf(c)
	if cost == nil {
		r.unpriced[c.model] = true
	}
	r.models[c.model] = true
	m := r.byModel[c.model]
	if m == nil {
		m = &Totals{}
		r.byModel[c.model] = m
	}
	e := c.UsageEntry
	total := tokens(e)
	// The sums saturate (event.AddCount): counts past int64 stop there.
	for _, t := range []*Totals{&r.Totals, &a.total, m} {
		t.InputTokens = event.AddCount(t.InputTokens, e.Input)
		t.OutputTokens = event.AddCount(t.OutputTokens, e.Output)
		t.CacheCreationTokens = event.AddCount(t.CacheCreationTokens, e.CacheWrite)
		t.CacheReadTokens = event.AddCount(t.CacheReadTokens, e.CacheRead)
		t.TotalTokens = event.AddCount(t.TotalTokens, total)
		t.Calls++
		if cost == nil {
			t.UnpricedCalls++
			continue
		}
		if t.CostUSD == nil {
			t.CostUSD = new(float64)
		}
		*t.CostUSD = event.AddUSD(*t.CostUSD, *cost)
	}
}

// weekOf returns the Monday that starts the (ISO) week of a date.
func weekOf(day string) string {
	t, err := time.Parse("2006-01-02", day)
	if err != nil {
		return day
	}
	return t.AddDate(0, 0, -(int(t.Weekday())+6)%7).Format("2006-01-02")
}

func (a *agg) report() Report {
	if a.by == ByBlock {
		a.blocks()
	}
	rep := Report{By: a.by, Rows: make([]Row, 0, len(a.rows)), Totals: a.total}
	for k, r := range a.rows {
		row := Row{Key: k, Totals: r.Totals,
			Models: sortedKeys(r.models), Unpriced: sortedKeys(r.unpriced), ByModel: []ModelRow{}}
		if a.by == ByBlock {
			start, end, last := time.UnixMilli(r.start).In(a.loc), time.UnixMilli(r.end).In(a.loc), time.UnixMilli(r.last).In(a.loc)
			row.Start, row.End, row.LastAt = &start, &end, &last
		}
		for m, t := range r.byModel {
			row.ByModel = append(row.ByModel, ModelRow{Model: m, Totals: *t})
		}
		sort.Slice(row.ByModel, func(i, j int) bool { return row.ByModel[i].Model < row.ByModel[j].Model })
		rep.Rows = append(rep.Rows, row)
	}
	sort.Slice(rep.Rows, func(i, j int) bool {
		ri, rj := rep.Rows[i], rep.Rows[j]
		switch a.by {
		case ByBlock:
			return ri.Start.Before(*rj.Start)
		case ByDay, ByWeek, ByMonth:
			return ri.Key < rj.Key
		}
		// Most expensive first (an unknown cost last), then by key.
		ci, cj := costKey(ri.CostUSD), costKey(rj.CostUSD)
		if ci != cj {
			return ci > cj
		}
		return ri.Key < rj.Key
	})
	return rep
}

// costKey orders costs with an unknown one below every known one.
func costKey(c *float64) float64 {
	if c == nil {
		return math.Inf(-1)
	}
	return *c
}

// sortedKeys returns a set's members, sorted; the empty name (a call of
// no named model) is left out.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		if k != "" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
