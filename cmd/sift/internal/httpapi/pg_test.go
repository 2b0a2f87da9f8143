package httpapi

import (
	"os"
	"testing"

	"github.com/agentsift/sift/store/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestAPIOnPostgres runs the API's tests again with their store on
// PostgreSQL (newEnv's): sift serve works on either backend.
func TestAPIOnPostgres(t *testing.T) { pgtest.RunSuite(t, "TestAPIOnPostgres") }

// sqliteOnly skips a test on PostgreSQL, saying why.
func sqliteOnly(t *testing.T, why string) {
	t.Helper()
	if pgtest.OnPostgres() {
		t.Skip("SQLite only: " + why)
	}
}
