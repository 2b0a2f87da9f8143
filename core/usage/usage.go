// Package usage totals the model calls sift recorded of each stream file
// (the store's usage rows) per day, week, month, session, project or
// model, each call counted once and priced by the price table: what
// `sift usage` shows. The store returns the rows; this package adds them.
package usage

import (
	"fmt"
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
)

// Options says which totals Total computes.
type Options struct {
	// By groups the totals; empty means ByDay.
	By By
	// Since drops the calls of days before this date (YYYY-MM-DD, in
	// Location); empty keeps all.
	Since string
	// Until drops the calls of days after this date (inclusive, like
	// Since); empty keeps all.
	Until string
	// Location is the time zone days are read in; nil means time.Local,
	// as ccusage does.
	Location *time.Location
	// Agent keeps one harness's history; empty keeps all.
	Agent agents.Kind
	// Prices estimates cost; nil means the embedded table.
	Prices *pricing.Table
}

// Totals are token counts and their estimated cost.
type Totals struct {
	// InputTokens is the uncached prompt; the cache shares are apart.
	InputTokens         int64   `json:"inputTokens"`
	OutputTokens        int64   `json:"outputTokens"`
	CacheCreationTokens int64   `json:"cacheCreationTokens"`
	CacheReadTokens     int64   `json:"cacheReadTokens"`
	TotalTokens         int64   `json:"totalTokens"`
	CostUSD             float64 `json:"costUsd"`
	// Calls counts the model calls counted.
	Calls int64 `json:"calls"`
}

// Row is the totals of one period, session, project or model.
type Row struct {
	// Key is the day (YYYY-MM-DD), session id, project (work item) or
	// model.
	Key string `json:"key"`
	Totals
	// Models lists the models used, sorted.
	Models []string `json:"models"`
	// Unpriced lists the models the price table does not know: their
	// calls cost nothing in CostUSD.
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

// File is the usage row of one stream file (store.UsageFile): its
// session's key, harness and session id, the models its calls name, and
// its calls.
type File struct {
	WorkItemID, FileName, AgentKind, SessionID string
	Models                                     []string
	Entries                                    []ingest.UsageEntry
}

// Total totals the recorded model calls of the files read hands to add,
// the earliest file first. A call recorded in several files (the same
// message id and request id, as a resumed Claude Code session repeats its
// predecessor's) counts once, in the first file: ccusage's rule, so that
// the totals per day equal `ccusage daily`.
func Total(opt Options, read func(add func(File) error) error) (Report, error) {
	if opt.By == "" {
		opt.By = ByDay
	}
	switch opt.By {
	case ByDay, ByWeek, ByMonth, BySession, ByProject, ByModel:
	default:
		return Report{}, fmt.Errorf("usage: unknown grouping %q (day, week, month, session, project, model)", opt.By)
	}
	loc := opt.Location
	if loc == nil {
		loc = time.Local
	}
	prices := opt.Prices
	if prices == nil {
		prices = pricing.Default()
	}
	a := newAgg(opt.By, loc, opt.Since, prices)
	a.until = opt.Until
	seen := map[uint64]struct{}{}
	err := read(func(f File) error {
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
			a.add(e, f.Models[e.Model], f.WorkItemID, session)
		}
		return nil
	})
	if err != nil {
		return Report{}, err
	}
	return a.report(), nil
}

// agg folds counted calls into rows.
type agg struct {
	by     By
	loc    *time.Location
	since  string
	until  string
	prices *pricing.Table
	rows   map[string]*rowAcc
	total  Totals
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
}

func newAgg(by By, loc *time.Location, since string, prices *pricing.Table) *agg {
	return &agg{by: by, loc: loc, since: since, prices: prices,
		rows: map[string]*rowAcc{}, price: map[string]*pricing.Price{}}
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

func (a *agg) add(e ingest.UsageEntry, model, project, session string) {
	day := a.dayOf(e.At)
	if a.since != "" && day < a.since || a.until != "" && day > a.until {
		return
	}
	var key string
	switch a.by {
	case ByDay:
		key = day
	case ByWeek:
		key = weekOf(day)
	case ByMonth:
		key = day[:7]
	case BySession:
		key = session
	case ByProject:
		key = project
	case ByModel:
		key = model
	}
	r := a.rows[key]
	if r == nil {
		r = &rowAcc{models: map[string]bool{}, unpriced: map[string]bool{}, byModel: map[string]*Totals{}}
		a.rows[key] = r
	}
	p, ok := a.price[model]
	if !ok {
		if pr, _, found := a.prices.Lookup(model); found {
			p = &pr
		}
		a.price[model] = p
	}
	var cost float64
	if p != nil {
		cost = p.Cost(pricing.Usage{Input: event.AddCount(event.AddCount(e.Input, e.CacheRead), e.CacheWrite), Output: e.Output,
			CacheRead: e.CacheRead, CacheWrite: e.CacheWrite})
	} else if model != "" {
		r.unpriced[model] = true
	}
	if model != "" {
		r.models[model] = true
	}
	m := r.byModel[model]
	if m == nil {
		m = &Totals{}
		r.byModel[model] = m
	}
	total := event.AddCount(event.AddCount(e.Input, e.Output), event.AddCount(e.CacheWrite, e.CacheRead))
	// The sums saturate (event.AddCount): counts past int64 stop there.
	for _, t := range []*Totals{&r.Totals, &a.total, m} {
		t.InputTokens = event.AddCount(t.InputTokens, e.Input)
		t.OutputTokens = event.AddCount(t.OutputTokens, e.Output)
		t.CacheCreationTokens = event.AddCount(t.CacheCreationTokens, e.CacheWrite)
		t.CacheReadTokens = event.AddCount(t.CacheReadTokens, e.CacheRead)
		t.TotalTokens = event.AddCount(t.TotalTokens, total)
		t.CostUSD = event.AddUSD(t.CostUSD, cost)
		t.Calls++
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
	rep := Report{By: a.by, Rows: make([]Row, 0, len(a.rows)), Totals: a.total}
	for k, r := range a.rows {
		row := Row{Key: k, Totals: r.Totals,
			Models: sortedKeys(r.models), Unpriced: sortedKeys(r.unpriced), ByModel: []ModelRow{}}
		for m, t := range r.byModel {
			row.ByModel = append(row.ByModel, ModelRow{Model: m, Totals: *t})
		}
		sort.Slice(row.ByModel, func(i, j int) bool { return row.ByModel[i].Model < row.ByModel[j].Model })
		rep.Rows = append(rep.Rows, row)
	}
	sort.Slice(rep.Rows, func(i, j int) bool {
		if a.by == ByDay || a.by == ByWeek || a.by == ByMonth {
			return rep.Rows[i].Key < rep.Rows[j].Key
		}
		// Most expensive first, then by key.
		ri, rj := rep.Rows[i], rep.Rows[j]
		if ri.CostUSD != rj.CostUSD {
			return ri.CostUSD > rj.CostUSD
		}
		return ri.Key < rj.Key
	})
	return rep
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
