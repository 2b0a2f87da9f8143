package agents

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

// storedRenders renders the recorded and built histories of the harnesses
// that keep their sessions in databases (testdata/histories): opencode's
// database and JSON tree, and Goose's and Crush's databases built from
// their scripts, by kind.
func storedRenders(t testing.TB) map[Kind][][]byte {
	t.Helper()
	out := map[Kind][][]byte{}
	render := func(k Kind, ss []StoredSession, done func(), err error) {
		if err != nil {
			t.Fatal(err)
		}
		if done != nil {
			defer done()
		}
		for _, s := range ss {
			b, err := s.Lines()
			if err != nil {
				t.Fatal(err)
			}
			out[k] = append(out[k], b)
		}
	}
	hist := filepath.Join(streamsDir, "..", "histories")
	sessions := func(k Kind) func(string) ([]StoredSession, func(), error) {
		h, ok := LookupHistory(k)
		if !ok {
			t.Fatalf("no history %s", k)
		}
		return h.Sessions
	}
	ss, done, err := sessions(OpenCodeHistory)(filepath.Join(hist, "opencode", "home", ".local", "share", "opencode"))
	render(OpenCodeHistory, ss, done, err)
	for _, c := range []struct {
		kind         Kind
		script, name string
	}{
		{GooseHistory, "goose/sessions.sql", "sessions.db"},
		{CrushHistory, "crush/crush.sql", "crush.db"},
	} {
		script, err := os.ReadFile(filepath.Join(hist, c.script))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		path := filepath.Join(dir, c.name)
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = db.Exec(string(script))
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		ss, done, err := sessions(c.kind)(dir)
		render(c.kind, ss, done, err)
	}
	return out
}

// FuzzStoredHistories fuzzes the parsers of rendered stored sessions,
// seeded with the renders of the recorded and built histories: no input
// makes them fail or panic, and every line with text gives an event.
func FuzzStoredHistories(f *testing.F) {
	renders := storedRenders(f)
	if len(renders) != 3 {
		f.Fatalf("renders of %d histories, want 3", len(renders))
	}
	for _, rs := range renders {
		addSeeds(f, rs)
	}
	fuzzEveryLine(f, OpenCodeHistory, GooseHistory, CrushHistory)
}

// addSeeds adds each render and each of its lines.
func addSeeds(f *testing.F, renders [][]byte) {
	for _, r := range renders {
		f.Add(r)
		start := 0
		for i, c := range r {
			if c == '\n' {
				f.Add(r[start:i])
				start = i + 1
			}
		}
	}
}
