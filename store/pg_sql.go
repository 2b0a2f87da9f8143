package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"strconv"
	"strings"
	"sync"
)

// The store's SQL is written once, in SQLite's dialect, and runs on
// PostgreSQL through pgConnector, which translates each statement's text
// before pgx sees it. The translation is mechanical and covers the
// differences that occur in nearly every statement:
//
//   - placeholders: `?` and `?N` become `$N` (a bare `?` takes the
//     largest number so far plus one, as in SQLite);
//   - `x IS ?` and `x IS NOT ?` (SQLite's null-safe comparison) become
//     `IS NOT DISTINCT FROM $N` and `IS DISTINCT FROM $N`;
//   - LIKE becomes ILIKE: SQLite's LIKE ignores case, PostgreSQL's does
//     not, and filters must select the same sessions on both;
//   - SQLite's planner hints go: `INDEXED BY name` is dropped, and
//     `CROSS JOIN` (SQLite's join that keeps its order) is a JOIN;
//   - an empty blob (x and two single quotes) is an empty bytea;
//   - ASC and DESC say where nulls go as SQLite puts them, smallest:
//     ASC NULLS FIRST, DESC NULLS LAST;
//   - arguments past the last placeholder are dropped, as SQLite ignores
//     them.
//
// String literals, quoted identifiers and comments are copied unchanged.
// The differences that are not mechanical (SQLite's custom functions, its
// JSON functions with typed results, FTS5, PRAGMAs) are handled where the
// statement is, by Store.pg, or by the SQL functions the PostgreSQL
// migrations define under SQLite's names (json_extract, json_object).
func pgTranslate(q string) string {
	t, _ := pgTranslateN(q)
	return t
}

// pgTranslateN is pgTranslate, which also returns the largest placeholder
// number.
func pgTranslateN(q string) (string, int) {
	var b strings.Builder
	b.Grow(len(q) + 16)
	maxN := 0
	// prev and prev2 are the last two words copied, upper-cased, for the
	// IS rule.
	var prev, prev2 string
	// closeParam closes sift_fts_query( after the next placeholder.
	closeParam := false
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(q) {
				if q[j] == c {
					if j+1 < len(q) && q[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, len(q))
			b.WriteString(q[i:j])
			i = j
			prev2, prev = prev, ""
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			b.WriteString(q[i : i+j])
			i += j
		case c == '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			n := maxN + 1
			if j > i+1 {
				n, _ = strconv.Atoi(q[i+1 : j])
			}
			maxN = max(maxN, n)
			if prev == "IS" {
				b.WriteString("NOT DISTINCT FROM ")
			} else if prev == "NOT" && prev2 == "IS" {
				// "IS NOT" is written already: make it "IS DISTINCT FROM".
				s := b.String()
				k := strings.LastIndex(strings.ToUpper(s), "NOT")
				b.Reset()
				b.WriteString(s[:k])
				b.WriteString("DISTINCT FROM ")
			}
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			if closeParam {
				b.WriteByte(')')
				closeParam = false
			}
			i = j
			prev2, prev = prev, ""
		case isWordByte(c):
			j := i
			for j < len(q) && isWordByte(q[j]) {
				j++
			}
			w := q[i:j]
			up := strings.ToUpper(w)
			switch {
			case up == "LIKE":
				b.WriteString("ILIKE")
			case up == "ASC":
				b.WriteString(w + " NULLS FIRST")
			case up == "DESC":
				b.WriteString(w + " NULLS LAST")
			case up == "BY" && prev == "INDEXED":
				// Drop "INDEXED BY name": cut INDEXED, skip the name.
				cutLast(&b, "INDEXED", true)
				for j < len(q) && (q[j] == ' ' || q[j] == '\t' || q[j] == '\n') {
					j++
				}
				for j < len(q) && isWordByte(q[j]) {
					j++
				}
				up = ""
			case up == "MATCH":
				// "t MATCH ?": t's words against the FTS5 expression.
				b.WriteString(".words @@ sift_fts_query(")
				cutSpaceBefore(&b, ".words")
				closeParam = true
			case up == "JOIN" && prev == "CROSS":
				cutLast(&b, "CROSS", false)
				b.WriteString(w)
			case up == "X" && j+1 < len(q) && q[j] == '\'' && q[j+1] == '\'':
				b.WriteString(`'\x'`)
				j += 2
				up = ""
			default:
				b.WriteString(w)
			}
			i = j
			prev2, prev = prev, up
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if !closeParam {
				b.WriteByte(c)
			}
			i++
		default:
			b.WriteByte(c)
			i++
			prev2, prev = prev, ""
		}
	}
	return b.String(), maxN
}

// boolInt is a bool as SQLite stores it.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// cutLast removes the last occurrence of word (upper-case) from what b
// holds, and what follows it; with trim, the blanks before it too.
func cutLast(b *strings.Builder, word string, trim bool) {
	s := b.String()
	s = s[:strings.LastIndex(strings.ToUpper(s), word)]
	if trim {
		s = strings.TrimRight(s, " \t\n")
	}
	b.Reset()
	b.WriteString(s)
}

// cutSpaceBefore removes the blanks before the last occurrence of s in
// what b holds: "search_fts .words" becomes "search_fts.words".
func cutSpaceBefore(b *strings.Builder, s string) {
	all := b.String()
	k := strings.LastIndex(all, s)
	head := strings.TrimRight(all[:k], " \t\n")
	b.Reset()
	b.WriteString(head)
	b.WriteString(all[k:])
}

// isWordByte reports whether c belongs to an SQL word.
func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// pgConnector wraps pgx's connector and translates every statement
// (pgTranslate), remembering each translation: the store's statements are
// few and repeated.
type pgConnector struct {
	inner driver.Connector
	mu    sync.Mutex
	cache map[string]translated
}

// translated is a statement in PostgreSQL's dialect and how many
// placeholders it has.
type translated struct {
	q string
	n int
}

// translate returns q in PostgreSQL's dialect.
func (c *pgConnector) translate(q string) string { return c.translateN(q).q }

// translateN returns q in PostgreSQL's dialect, with its placeholders.
func (c *pgConnector) translateN(q string) translated {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.cache[q]; ok {
		return t
	}
	var t translated
	t.q, t.n = pgTranslateN(q)
	if len(c.cache) < 4096 {
		c.cache[q] = t
	}
	return t
}

// trim drops the arguments past a statement's last placeholder.
func (t translated) trim(args []driver.NamedValue) []driver.NamedValue {
	if len(args) > t.n {
		return args[:t.n]
	}
	return args
}

// Connect implements driver.Connector.
func (c *pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &pgConn{Conn: conn, c: c}, nil
}

// Driver implements driver.Connector.
func (c *pgConnector) Driver() driver.Driver { return c.inner.Driver() }

// pgConn is a pgx connection whose statements are translated. It passes
// through the optional interfaces database/sql looks for, all of which
// pgx's stdlib connection implements.
type pgConn struct {
	driver.Conn
	c *pgConnector
}

// errNoInterface is returned when pgx's connection lacks an interface;
// it never does.
var errNoInterface = errors.New("pgx connection lacks a database/sql interface")

// Prepare implements driver.Conn.
func (p *pgConn) Prepare(q string) (driver.Stmt, error) { return p.Conn.Prepare(p.c.translate(q)) }

// PrepareContext implements driver.ConnPrepareContext.
func (p *pgConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	if pc, ok := p.Conn.(driver.ConnPrepareContext); ok {
		return pc.PrepareContext(ctx, p.c.translate(q))
	}
	return p.Conn.Prepare(p.c.translate(q))
}

// ExecContext implements driver.ExecerContext.
func (p *pgConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	if e, ok := p.Conn.(driver.ExecerContext); ok {
		t := p.c.translateN(q)
		return e.ExecContext(ctx, t.q, t.trim(args))
	}
	return nil, errNoInterface
}

// QueryContext implements driver.QueryerContext.
func (p *pgConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	if e, ok := p.Conn.(driver.QueryerContext); ok {
		t := p.c.translateN(q)
		return e.QueryContext(ctx, t.q, t.trim(args))
	}
	return nil, errNoInterface
}

// BeginTx implements driver.ConnBeginTx.
func (p *pgConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if b, ok := p.Conn.(driver.ConnBeginTx); ok {
		return b.BeginTx(ctx, opts)
	}
	return nil, errNoInterface
}

// Ping implements driver.Pinger.
func (p *pgConn) Ping(ctx context.Context) error {
	if pg, ok := p.Conn.(driver.Pinger); ok {
		return pg.Ping(ctx)
	}
	return nil
}

// ResetSession implements driver.SessionResetter.
func (p *pgConn) ResetSession(ctx context.Context) error {
	if r, ok := p.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

// IsValid implements driver.Validator.
func (p *pgConn) IsValid() bool {
	if v, ok := p.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// CheckNamedValue implements driver.NamedValueChecker: pgx takes the
// values database/sql would otherwise refuse (slices of strings). A bool
// becomes 0 or 1, as SQLite stores it: the schema's flags are integers.
func (p *pgConn) CheckNamedValue(v *driver.NamedValue) error {
	switch b := v.Value.(type) {
	case bool:
		v.Value = boolInt(b)
	case sql.NullBool:
		if b.Valid {
			v.Value = boolInt(b.Bool)
		} else {
			v.Value = nil
		}
	}
	if c, ok := p.Conn.(driver.NamedValueChecker); ok {
		return c.CheckNamedValue(v)
	}
	return driver.ErrSkip
}
