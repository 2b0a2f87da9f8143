package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// encodeEntries packs a history file's model calls as the entries column
// of usage_files holds them: per call its time (varint), key (8 bytes,
// little-endian), model index and the four token counts (uvarints), then
// its marks (uvarint: 1 a sidechain's call, 2 a message key follows) and
// its message key (8 bytes). The column opens with entriesMarked, which no
// row of the first form (without marks) starts with: there it would be a
// call at -1 ms.
func encodeEntries(entries []ingest.UsageEntry) []byte {
	b := make([]byte, 0, 1+len(entries)*26)
	b = append(b, entriesMarked)
	for _, e := range entries {
		b = binary.AppendVarint(b, e.At)
		b = binary.LittleEndian.AppendUint64(b, e.Key)
		b = binary.AppendUvarint(b, uint64(e.Model))
		for _, v := range []int64{e.Input, e.Output, e.CacheWrite, e.CacheRead} {
			b = binary.AppendUvarint(b, uint64(max(v, 0)))
		}
		var marks uint64
		if e.Sidechain {
			marks |= markSidechain
		}
		if e.Message != 0 {
			marks |= markMessage
		}
		b = binary.AppendUvarint(b, marks)
		if e.Message != 0 {
			b = binary.LittleEndian.AppendUint64(b, e.Message)
		}
	}
	return b
}

// entriesMarked opens an entries column whose calls carry their marks.
const entriesMarked = 0x01

// The marks of a call in the entries column.
const (
	markSidechain = 1 << iota
	markMessage
)

var errBadUsage = errors.New("malformed usage entries")

// decodeEntries reads an entries column back, of either form.
func decodeEntries(b []byte, nModels int, out []ingest.UsageEntry) ([]ingest.UsageEntry, error) {
	marked := len(b) > 0 && b[0] == entriesMarked
	if marked {
		b = b[1:]
	}
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
		if marked {
			marks, n := binary.Uvarint(b)
			if n <= 0 {
				return out, errBadUsage
			}
			b = b[n:]
			e.Sidechain = marks&markSidechain != 0
			if marks&markMessage != 0 {
				if len(b) < 8 {
					return out, errBadUsage
				}
				e.Message, b = binary.LittleEndian.Uint64(b), b[8:]
			}
		}
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

// UsageFile is the usage row of one stream file: its session's key,
// harness and session id, the models its calls name, and its calls.
type UsageFile struct {
	WorkItemID, FileName, AgentKind, SessionID string
	Models                                     []string
	Entries                                    []ingest.UsageEntry
}

// Unreadable is a stored row a reader left out because it could not be
// read back (a row another version of sift, or another program, wrote
// into a shared database): its session, and why.
type Unreadable struct {
	Session review.SessionKey
	Err     error
}

// UsageFiles calls fn with the usage row of every imported file (of one
// harness's history when agent is set), the earliest first: a call a
// resumed session repeats is first met in the file that made it. The row's
// Entries are reused for the next row. A row whose entries cannot be read
// back is left out and returned, the others read on.
func (s *Store) UsageFiles(ctx context.Context, agent string, fn func(UsageFile) error) ([]Unreadable, error) {
	q := `SELECT work_item_id, file_name, agent_kind, COALESCE(session_id, ''), models, entries
		FROM usage_files`
	var args []any
	if agent != "" {
		q += ` WHERE agent_kind = ?`
		args = append(args, agent)
	}
	q += ` ORDER BY first_at IS NULL, first_at, path`
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("usage: %w", wrapError(err))
	}
	defer rows.Close()
	var bad []Unreadable
	var f UsageFile
	for rows.Next() {
		var models string
		var blob []byte
		if err := rows.Scan(&f.WorkItemID, &f.FileName, &f.AgentKind, &f.SessionID, &models, &blob); err != nil {
			return bad, fmt.Errorf("usage: %w", wrapError(err))
		}
		f.Models = strings.Split(models, "\n")
		f.Entries, err = decodeEntries(blob, len(f.Models), f.Entries[:0])
		if err != nil {
			bad = append(bad, Unreadable{review.SessionKey{WorkItemID: f.WorkItemID, FileName: f.FileName},
				fmt.Errorf("usage entries: %w", err)})
			continue
		}
		if err := fn(f); err != nil {
			return bad, err
		}
	}
	if err := rows.Err(); err != nil {
		return bad, fmt.Errorf("usage: %w", wrapError(err))
	}
	return bad, nil
}

// SessionTotals calls fn with the brief summary of every session that
// reported tokens or a cost, but those of the agent kinds skipped (no
// lists: its tokens, cost, model and times, as the inbox reads them), and
// the time it sorts by in the inbox (its start, else its last activity),
// in unix ms: what `sift usage` counts of a captured run. A row whose
// summary cannot be decoded is left out and returned, the others read on.
func (s *Store) SessionTotals(ctx context.Context, skip []string, fn func(sum *summary.Summary, at int64) error) ([]Unreadable, error) {
	q := `SELECT work_item_id, file_name, brief_json, COALESCE(sort_started, activity_at) FROM agent_stream_summaries
		WHERE (total_tokens IS NOT NULL OR estimated_usd IS NOT NULL)`
	args := make([]any, 0, len(skip))
	if len(skip) > 0 {
		q += ` AND agent_kind NOT IN (?` + strings.Repeat(`, ?`, len(skip)-1) + `)`
		for _, k := range skip {
			args = append(args, k)
		}
	}
	rows, err := s.r.QueryContext(ctx, q+` ORDER BY COALESCE(sort_started, activity_at), work_item_id, file_name`, args...)
	if err != nil {
		return nil, fmt.Errorf("session totals: %w", wrapError(err))
	}
	defer rows.Close()
	var bad []Unreadable
	for rows.Next() {
		var k review.SessionKey
		var brief string
		var at int64
		if err := rows.Scan(&k.WorkItemID, &k.FileName, &brief, &at); err != nil {
			return bad, fmt.Errorf("session totals: %w", wrapError(err))
		}
		var sum summary.Summary
		if err := json.Unmarshal([]byte(brief), &sum); err != nil {
			bad = append(bad, Unreadable{k, fmt.Errorf("decode summary: %w", err)})
			continue
		}
		if err := fn(&sum, at); err != nil {
			return bad, err
		}
	}
	if err := rows.Err(); err != nil {
		return bad, fmt.Errorf("session totals: %w", wrapError(err))
	}
	return bad, nil
}
