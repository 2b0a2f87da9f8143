package store

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/agentsift/sift/store/pgtest"
)

// TestPostgresWordsMatchServer: the words the store writes for an ASCII
// body (pgWords) are the tsvector the server's expression makes of it,
// for the quirks of its parser (numbers, exponents, hex, words too long
// to index, a word past the last position, a word more often than a
// tsvector keeps) and for the recorded streams; a body that is not ASCII
// is left to the server.
func TestPostgresWordsMatchServer(t *testing.T) {
	t.Parallel()
	// pgx's own connection, as the import sends them: in binary.
	db, err := pgx.Connect(context.Background(), pgtest.New(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(context.Background())
	bodies := []string{
		"", "   ", "Hello, World!", "x", "1e5 1E5 1.5e10 0x1F 123abc abc123 a1b2c3 007 -42 +7 3.14",
		"v1.2.3 foo-bar foo_bar foo/bar.go user@example.com http://x.y/z?q=1 <b>tag</b> &amp;",
		strings.Repeat("a", pgMaxWordLen-1) + " b " + strings.Repeat("c", pgMaxWordLen) + " d",
		strings.Repeat("w ", pgMaxPos+10) + "last",
		strings.Repeat("same other ", 300),
		"CamelCase UPPER lower MiXeD 12345678901234567890123",
		"571e5d16 8e0ef9ad 1e5e5 12e5abc 1e 1ea e5 0e0 1e05x 9E9Z 00e00e00",
		"it’s “quoted” — done ✅ → next… ▸ 🎨 a·b x‑y ❌ • ✓ 1°C ©2026 ½",
	}
	rng := rand.New(rand.NewPCG(1, 8))
	for _, alphabet := range []string{"abcXYZ0189 ._-/:@eE+\n\t", "0123e9E x"} {
		for range 100 {
			b := make([]byte, rng.IntN(400))
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			bodies = append(bodies, string(b))
		}
	}
	files, _ := filepath.Glob("../testdata/streams/*/*.jsonl")
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil {
			bodies = append(bodies, string(b))
		}
	}
	ctx := context.Background()
	checked := 0
	for _, body := range bodies {
		words, ok := pgWords(body)
		if !ok {
			continue
		}
		var mine, server string
		if err := db.QueryRow(ctx, `SELECT $1::tsvector::text,
			to_tsvector('simple', regexp_replace(lower($2), '[^[:alnum:]]+', ' ', 'g'))::text`, words, body).Scan(&mine, &server); err != nil {
			t.Fatal(err)
		}
		if mine != server {
			t.Errorf("words of %.80q:\n mine   %.300s\n server %.300s", body, mine, server)
		}
		checked++
	}
	if checked < 40 {
		t.Fatalf("only %d bodies were ASCII", checked)
	}
	for _, body := range []string{"naïve café", "x\xffy", "٣ digits"} {
		if _, ok := pgWords(body); ok {
			t.Errorf("%q, with a letter or digit that is not ASCII, got words of the store's making", body)
		}
	}
	if _, ok := pgWords("it’s done ✅ → next…\ue000part"); !ok {
		t.Error("a body whose only other characters are punctuation and symbols was left to the server")
	}
}

// TestPostgresSeparatorsMatchServer: every character outside ASCII that
// pgWords takes for a separator (punctuation, symbols, spaces, up to the
// emoji, the private-use characters) is one to the server's expression
// too.
func TestPostgresSeparatorsMatchServer(t *testing.T) {
	t.Parallel()
	db, err := sql.Open("pgx", pgtest.New(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var runes []string
	for r := rune(0x80); r <= 0x1FAFF; r++ {
		if _, ok := pgWords(string(r)); ok {
			runes = append(runes, string(r))
		}
	}
	rows, err := db.QueryContext(context.Background(), `SELECT r FROM unnest($1::text[]) AS r
		WHERE to_tsvector('simple', regexp_replace(lower('a' || r || 'b'), '[^[:alnum:]]+', ' ', 'g'))::text != '''a'':1 ''b'':2'`, runes)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			t.Fatal(err)
		}
		t.Errorf("%q (%U) is no separator to the server", r, []rune(r)[0])
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(runes) < 1000 {
		t.Fatalf("only %d separators", len(runes))
	}
}
