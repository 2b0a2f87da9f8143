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

// The store's SQL is portable: written once for both engines, with what
// truly differs asked of the store's dialect (dialect.go). What is left
// for the connection is the placeholders: the store writes SQLite's `?`
// and `?N`, and pgConnector rebinds them to PostgreSQL's `$N` before pgx
// sees the statement (soft-serve's Rebind does the same). A bare `?` takes
// the largest number so far plus one, as in SQLite; arguments past the
// last placeholder are dropped, as SQLite ignores them. String literals,
// quoted identifiers and comments are copied unchanged. Nothing else of
// a statement is rewritten.
func rebind(q string) string {
	t, _ := rebindN(q)
	return t
}

// rebindN is rebind, which also returns the largest placeholder number.
func rebindN(q string) (string, int) {
	var b strings.Builder
	b.Grow(len(q) + 16)
	maxN := 0
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
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			i = j
		default:
			b.WriteByte(c)
			i++
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

// pgConnector wraps pgx's connector and rebinds every statement's
// placeholders (rebind), remembering each statement: the store's statements are
// few and repeated.
type pgConnector struct {
	inner driver.Connector
	mu    sync.Mutex
	cache map[string]bound
}

// bound is a statement with PostgreSQL's placeholders and how many it
// has.
type bound struct {
	q string
	n int
}

// rebindStmt returns q with PostgreSQL's placeholders, remembered.
func (c *pgConnector) rebindStmt(q string) bound {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.cache[q]; ok {
		return t
	}
	var t bound
	t.q, t.n = rebindN(q)
	if len(c.cache) < 4096 {
		c.cache[q] = t
	}
	return t
}

// trim drops the arguments past a statement's last placeholder.
func (t bound) trim(args []driver.NamedValue) []driver.NamedValue {
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

// pgConn is a pgx connection whose statements are bound. It passes
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
func (p *pgConn) Prepare(q string) (driver.Stmt, error) { return p.Conn.Prepare(p.c.rebindStmt(q).q) }

// PrepareContext implements driver.ConnPrepareContext.
func (p *pgConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	if pc, ok := p.Conn.(driver.ConnPrepareContext); ok {
		return pc.PrepareContext(ctx, p.c.rebindStmt(q).q)
	}
	return p.Conn.Prepare(p.c.rebindStmt(q).q)
}

// ExecContext implements driver.ExecerContext.
func (p *pgConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	if e, ok := p.Conn.(driver.ExecerContext); ok {
		t := p.c.rebindStmt(q)
		return e.ExecContext(ctx, t.q, t.trim(args))
	}
	return nil, errNoInterface
}

// QueryContext implements driver.QueryerContext.
func (p *pgConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	if e, ok := p.Conn.(driver.QueryerContext); ok {
		t := p.c.rebindStmt(q)
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
