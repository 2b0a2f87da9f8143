// Package historydb is sift's one reader of the SQLite databases agent
// CLIs keep their sessions in (opencode, Goose, Crush, Cursor CLI). sift
// never writes, moves or locks a harness's database: Open copies the
// database file and its write-ahead log into a temporary folder and opens
// the copy, query-only. The harness holds its locks on its own file; the
// copy is sift's alone, and is removed when it is closed.
package historydb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	// The SQLite driver, registered as "sqlite".
	_ "modernc.org/sqlite"
)

// ErrNoRows is what a query for one row returns when there is none
// (database/sql's), for the readers that use no SQL package but this one.
var ErrNoRows = sql.ErrNoRows

// DB is a query-only copy of a harness's database.
type DB struct {
	*sql.DB
	dir string
}

// copyTries is how often Open copies a database that changed while it was
// copied before it takes the last copy as it is (SQLite then reads the
// write-ahead log up to its last whole commit).
const copyTries = 3

// Open copies the database at path (with its -wal, when there is one)
// and opens the copy query-only. A database that is not there is an error
// that wraps fs.ErrNotExist.
func Open(ctx context.Context, path string) (*DB, error) {
	dir, err := os.MkdirTemp("", "sift-historydb-*")
	if err != nil {
		return nil, err
	}
	dst := filepath.Join(dir, "copy.db")
	for try := 1; ; try++ {
		changed, err := copyOnce(path, dst)
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		if !changed || try == copyTries {
			break
		}
	}
	db, err := sql.Open("sqlite", "file:"+dst+"?_pragma=busy_timeout(1000)&_pragma=query_only(1)")
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("open a copy of %s: %w", path, err)
	}
	return &DB{DB: db, dir: dir}, nil
}

// Close closes the copy and removes it.
func (d *DB) Close() error {
	err := d.DB.Close()
	return errors.Join(err, os.RemoveAll(d.dir))
}

// Stamp is what tells that a database changed since it was last read,
// without reading it: the size and modification time of the file and of
// its write-ahead log (zero when there is none). Ok is false when the
// database is not there.
type Stamp struct{ db, wal stamp }

// StampOf returns the database's stamp.
func StampOf(path string) (st Stamp, ok bool) {
	st.db, ok = stampOf(path)
	st.wal, _ = stampOf(path + "-wal")
	return st, ok
}

// stamp is what tells that a file changed while it was copied.
type stamp struct {
	size  int64
	mtime int64
}

func stampOf(path string) (stamp, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return stamp{}, false
	}
	return stamp{fi.Size(), fi.ModTime().UnixNano()}, true
}

// copyOnce copies the database and its log, and reports whether either
// changed while it did.
func copyOnce(src, dst string) (changed bool, err error) {
	before, _ := stampOf(src)
	walBefore, _ := stampOf(src + "-wal")
	if err := copyFile(src, dst); err != nil {
		return false, err
	}
	os.Remove(dst + "-wal")
	if err := copyFile(src+"-wal", dst+"-wal"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	after, _ := stampOf(src)
	walAfter, _ := stampOf(src + "-wal")
	return before != after || walBefore != walAfter, nil
}

// copyFile copies a regular file; it opens the source for reading only,
// and takes no lock on it.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if fi, err := in.Stat(); err != nil {
		return err
	} else if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", src)
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
