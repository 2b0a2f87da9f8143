package store

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/summary"
)

// TestImportKiloHistory imports what the Kilo CLI 7.7.7 itself wrote,
// from a temporary HOME: the two sessions of its database, kilo.db
// (testdata/histories/kilo/PROVENANCE.md), read by Kilo Code's entry as
// opencode's database is and kept as Kilo Code's, each keyed by its ses_
// id in the folder it records. The completed one has its two bash calls
// (the second exits 2: failed), the tokens of its three model calls and
// ends completed; the one whose second request the provider refused ends
// with its error. Unchanged they are skipped; the detail renders a
// session again by its key.
func TestImportKiloHistory(t *testing.T) {
	s, roots, data := importDataHome(t, "kilo", 2)
	sessions, paths := storedSessions(t, s, agents.KiloHistory)
	if len(sessions) != 2 {
		t.Fatalf("%d sessions kept as Kilo Code's, want 2: %v", len(sessions), paths)
	}
	db := filepath.Join(data, "kilo.db")
	const project = "/tmp/sift-kilo/work/hello-sift"
	cases := []ocCase{
		{"ses_db7ae4670ffe4aGeANaMVJxXWi", db, project, 2, 3, 1200 + 1500 + 1800, 2200, 120, summary.OutcomeCompleted, "stop"},
		{"ses_db7adfdfbffeqRx0Mc4u9F3sTN", db, project, 1, 1, 1200, 0, 40, summary.OutcomeFailed, "mock: the request was refused"},
	}
	checkOCSessions(t, sessions, paths, cases)

	d := storedDetail(t, []string{data}, paths[cases[0].id], agents.KiloHistory)
	c := d.Calls["call_sift01"]
	if c == nil || !strings.Contains(c.Output.String(), "kilo.json") {
		t.Errorf("the detail of the first call (ls -la) lacks its output")
	}

	if again := importHistory(t, s, roots); again.Skipped != 2 || again.Sessions != 0 {
		t.Errorf("unchanged: skipped %d, read %d", again.Skipped, again.Sessions)
	}
}
