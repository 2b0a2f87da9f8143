package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// An import writes thousands of small statements per batch: a summary,
// its review events, its file, its cost row and its search document per
// session. Through database/sql each is a round trip to the server, and
// the writer, waiting on them one by one, was the import's bottleneck on
// PostgreSQL (three quarters of its time). pgPipe sends a batch's
// statements in pgx's pipeline instead: all of them in one write, their
// results read back in order, the server running them one after the
// other as the loop would have. The statements are the store's, their
// placeholders rebound by the connection's cache as every other
// statement's are; their order, and so their effect, is the loop's.

// pgPipe queues statements for one pipeline on a transaction's
// connection.
type pgPipe struct {
	b  pgx.Batch
	tr *pgConnector
}

// exec queues a statement; what names it in an error (the file the row
// comes from).
func (p *pgPipe) exec(what, q string, args ...any) {
	p.queue(what, q, args).Fn = func(br pgx.BatchResults) error {
		if _, err := br.Exec(); err != nil {
			return fmt.Errorf("%s: %w", what, wrapError(err))
		}
		return nil
	}
}

// query queues a query whose rows scan reads.
func (p *pgPipe) query(what, q string, scan func(pgx.Rows) error, args ...any) {
	p.queue(what, q, args).Fn = func(br pgx.BatchResults) error {
		rows, err := br.Query()
		if err != nil {
			return fmt.Errorf("%s: %w", what, wrapError(err))
		}
		defer rows.Close()
		if err := scan(rows); err != nil {
			return fmt.Errorf("%s: %w", what, wrapError(err))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("%s: %w", what, wrapError(err))
		}
		return nil
	}
}

// queue rebinds a statement and its arguments as the connection
// would (pgConn) and queues it.
func (p *pgPipe) queue(what, q string, args []any) *pgx.QueuedQuery {
	t := p.tr.rebindStmt(q)
	if len(args) > t.n {
		args = args[:t.n]
	}
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case bool:
			out[i] = boolInt(v)
		case sql.NullBool:
			if v.Valid {
				out[i] = boolInt(v.Bool)
			}
		default:
			out[i] = a
		}
	}
	return p.b.Queue(t.q, out...)
}

// len returns how many statements are queued.
func (p *pgPipe) len() int { return p.b.Len() }

// pgRun runs fn with a pipeline on conn, whose transaction is open, and
// sends what fn queued. The pipeline runs inside the transaction: it is
// the same server session.
func pgRun(ctx context.Context, conn *sql.Conn, fn func(p *pgPipe) error) error {
	return conn.Raw(func(dc any) error {
		pc, ok := dc.(*pgConn)
		if !ok {
			return fmt.Errorf("pipeline: a %T is not a PostgreSQL connection", dc)
		}
		sc, ok := pc.Conn.(*stdlib.Conn)
		if !ok {
			return errNoInterface
		}
		p := &pgPipe{tr: pc.c}
		if err := fn(p); err != nil {
			return err
		}
		if p.len() == 0 {
			return nil
		}
		return pgSend(ctx, sc.Conn(), &p.b)
	})
}

// pgSend sends a batch and reads its results; the first error is the
// batch's, and the transaction is then aborted (the caller rolls it
// back).
func pgSend(ctx context.Context, c *pgx.Conn, b *pgx.Batch) error {
	return c.SendBatch(ctx, b).Close()
}
