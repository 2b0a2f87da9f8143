package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/pricing"
)

// encodeEntries packs a history file's model calls as the entries column
// of usage_files holds them: per call its time (varint), key (8 bytes,
// little-endian), model index and the four token counts (uvarints).
func encodeEntries(entries []ingest.UsageEntry) []byte {
	b := make([]byte, 0, len(entries)*24)
	for _, e := range entries {
		b = binary.AppendVarint(b, e.At)
		b = binary.LittleEndian.AppendUint64(b, e.Key)
		b = binary.AppendUvarint(b, uint64(e.Model))
		for _, v := range []int64{e.Input, e.Output, e.CacheWrite, e.CacheRead} {
			b = binary.AppendUvarint(b, uint64(max(v, 0)))
		}
	}
	return b
}

var errBadUsage = errors.New("malformed usage entries")

// decodeEntries reads an entries column back.
func decodeEntries(b []byte, nModels int, out []ingest.UsageEntry) ([]ingest.UsageEntry, error) {
	for len(b) > 0 {
		var e ingest.UsageEntry
		var n int
		if e.At, n = binary.Varint(b); n <= 0 {
			return out, errBadUsage
		}
		b = b[n:]
		if len(b) < 8 {
			return out, errBadUsage
		}
		e.Key, b = binary.LittleEndian.Uint64(b), b[8:]
		var vals [5]uint64
		for i := range vals {
			if vals[i], n = binary.Uvarint(b); n <= 0 {
				return out, errBadUsage
			}
			b = b[n:]
		}
		if vals[0] >= uint64(nModels) {
			return out, errBadUsage
		}
		e.Model = int(vals[0])
		// A count past int64 (a row another program wrote) is read as the
		// largest, never as a negative one.
		count := func(v uint64) int64 { return int64(min(v, math.MaxInt64)) }
		e.Input, e.Output, e.CacheWrite, e.CacheRead = count(vals[1]), count(vals[2]), count(vals[3]), count(vals[4])
		out = append(out, e)
	}
	return out, nil
}

// usageUpsertSQL records (or replaces) the usage of one file.
const usageUpsertSQL = `INSERT INTO usage_files (path, work_item_id, file_name, agent_kind, session_id,
	parent_tool_call_id, first_at, models, entry_count, entries) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (path) DO UPDATE SET work_item_id = excluded.work_item_id, file_name = excluded.file_name,
	agent_kind = excluded.agent_kind, session_id = excluded.session_id,
	parent_tool_call_id = excluded.parent_tool_call_id, first_at = excluded.first_at,
	models = excluded.models, entry_count = excluded.entry_count, entries = excluded.entries`

// writeUsage records the usage of the history files of a batch, inside the
// batch's transaction. Rows of other streams carry none.
func writeUsage(ctx context.Context, tx *sql.Tx, rows []*sessionRow) error {
	var st *sql.Stmt
	for _, r := range rows {
		u := r.usage
		if u == nil {
			continue
		}
		if st == nil {
			var err error
			if st, err = tx.PrepareContext(ctx, usageUpsertSQL); err != nil {
				return fmt.Errorf("write usage: prepare: %w", wrapError(err))
			}
			defer st.Close()
		}
		var first sql.NullInt64
		if u.First != 0 {
			first = sql.NullInt64{Int64: u.First, Valid: true}
		}
		if _, err := st.ExecContext(ctx, r.file.Path, r.sum.WorkItemID, r.sum.FileName, r.sum.AgentKind,
			emptyNull(u.SessionID), emptyNull(u.ParentCall), first, strings.Join(u.Models, "\n"),
			len(u.Entries), encodeEntries(u.Entries)); err != nil {
			return fmt.Errorf("write usage of %s: %w", r.file.Path, wrapError(err))
		}
	}
	return nil
}

// UsageBy is what usage totals are grouped by.
type UsageBy string

// The groupings of Usage.
const (
	ByDay     UsageBy = "day"
	ByWeek    UsageBy = "week"
	ByMonth   UsageBy = "month"
	BySession UsageBy = "session"
	ByProject UsageBy = "project"
	ByModel   UsageBy = "model"
)

// UsageOptions says which totals Usage computes.
type UsageOptions struct {
	// By groups the totals; empty means ByDay.
	By UsageBy
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

// UsageTotals are token counts and their estimated cost.
type UsageTotals struct {
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

// UsageRow is the totals of one period, session, project or model.
type UsageRow struct {
	// Key is the day (YYYY-MM-DD), session id, project (work item) or
	// model.
	Key string `json:"key"`
	UsageTotals
	// Models lists the models used, sorted.
	Models []string `json:"models"`
	// Unpriced lists the models the price table does not know: their
	// calls cost nothing in CostUSD.
	Unpriced []string `json:"unpricedModels,omitempty"`
	// ByModel holds the row's totals per model, sorted by model.
	ByModel []UsageModelRow `json:"modelBreakdowns"`
}

// UsageModelRow is the totals of one model within a row.
type UsageModelRow struct {
	Model string `json:"model"`
	UsageTotals
}

// UsageReport is the result of Usage.
type UsageReport struct {
	By     UsageBy     `json:"by"`
	Rows   []UsageRow  `json:"rows"`
	Totals UsageTotals `json:"totals"`
}

// Usage totals the recorded model calls of the imported histories. A call
// recorded in several files (the same message id and request id, as a
// resumed Claude Code session repeats its predecessor's) counts once, in
// the file with the earliest timestamp: ccusage's rule, so that the totals
// per day equal `ccusage daily`.
func (s *Store) Usage(ctx context.Context, opt UsageOptions) (UsageReport, error) {
	if opt.By == "" {
		opt.By = ByDay
	}
	switch opt.By {
	case ByDay, ByWeek, ByMonth, BySession, ByProject, ByModel:
	default:
		return UsageReport{}, fmt.Errorf("usage: unknown grouping %q (day, week, month, session, project, model)", opt.By)
	}
	loc := opt.Location
	if loc == nil {
		loc = time.Local
	}
	prices := opt.Prices
	if prices == nil {
		prices = pricing.Default()
	}
	q := `SELECT work_item_id, file_name, agent_kind, COALESCE(session_id, ''), models, entries
		FROM usage_files`
	var args []any
	if opt.Agent != "" {
		q += ` WHERE agent_kind = ?`
		args = append(args, string(opt.Agent))
	}
	q += ` ORDER BY first_at IS NULL, first_at, path`
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return UsageReport{}, fmt.Errorf("usage: %w", wrapError(err))
	}
	defer rows.Close()
	agg := newUsageAgg(opt.By, loc, opt.Since, prices)
	agg.until = opt.Until
	seen := map[uint64]struct{}{}
	var entries []ingest.UsageEntry
	for rows.Next() {
		var workItem, fileName, kind, session, models string
		var blob []byte
		if err := rows.Scan(&workItem, &fileName, &kind, &session, &models, &blob); err != nil {
			return UsageReport{}, fmt.Errorf("usage: %w", wrapError(err))
		}
		names := strings.Split(models, "\n")
		entries, err = decodeEntries(blob, len(names), entries[:0])
		if err != nil {
			return UsageReport{}, fmt.Errorf("usage of %s/%s: %w", workItem, fileName, err)
		}
		if session == "" {
			session = fileName
		}
		for _, e := range entries {
			if e.Key != 0 {
				if _, dup := seen[e.Key]; dup {
					continue
				}
				seen[e.Key] = struct{}{}
			}
			agg.add(e, names[e.Model], workItem, session)
		}
	}
	if err := rows.Err(); err != nil {
		return UsageReport{}, fmt.Errorf("usage: %w", wrapError(err))
	}
	return agg.report(), nil
}

// usageAgg folds counted calls into rows.
type usageAgg struct {
	by     UsageBy
	loc    *time.Location
	since  string
	until  string
	prices *pricing.Table
	rows   map[string]*usageRowAcc
	total  UsageTotals
	// price caches the table's answer per model.
	price map[string]*pricing.Price
	// day caches the last day computed: calls come in time order within
	// a file, so most share their predecessor's day.
	dayStart, dayEnd int64
	day              string
}

type usageRowAcc struct {
	UsageTotals
	models, unpriced map[string]bool
	byModel          map[string]*UsageTotals
}

func newUsageAgg(by UsageBy, loc *time.Location, since string, prices *pricing.Table) *usageAgg {
	return &usageAgg{by: by, loc: loc, since: since, prices: prices,
		rows: map[string]*usageRowAcc{}, price: map[string]*pricing.Price{}}
}

// dayOf returns the date of a unix ms time in the aggregation's zone.
func (a *usageAgg) dayOf(ms int64) string {
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

func (a *usageAgg) add(e ingest.UsageEntry, model, project, session string) {
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
		r = &usageRowAcc{models: map[string]bool{}, unpriced: map[string]bool{}, byModel: map[string]*UsageTotals{}}
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
		m = &UsageTotals{}
		r.byModel[model] = m
	}
	total := event.AddCount(event.AddCount(e.Input, e.Output), event.AddCount(e.CacheWrite, e.CacheRead))
	// The sums saturate (event.AddCount): counts past int64 stop there.
	for _, t := range []*UsageTotals{&r.UsageTotals, &a.total, m} {
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

func (a *usageAgg) report() UsageReport {
	rep := UsageReport{By: a.by, Rows: make([]UsageRow, 0, len(a.rows)), Totals: a.total}
	for k, r := range a.rows {
		row := UsageRow{Key: k, UsageTotals: r.UsageTotals,
			Models: sortedKeys(r.models), Unpriced: sortedKeys(r.unpriced), ByModel: []UsageModelRow{}}
		for m, t := range r.byModel {
			row.ByModel = append(row.ByModel, UsageModelRow{Model: m, UsageTotals: *t})
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
