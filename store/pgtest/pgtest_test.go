package pgtest

import (
	"database/sql"
	"os"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// TestNew connects to a fresh database of the test server, which listens
// on the loopback address only.
func TestNew(t *testing.T) {
	dsn := New(t)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var name string
	if err := db.QueryRow("SELECT current_database()").Scan(&name); err != nil {
		t.Fatal(err)
	}
	if len(name) < len("sift_test_") || name[:len("sift_test_")] != "sift_test_" {
		t.Fatalf("database %q, want a fresh sift_test_ one", name)
	}
	var listen string
	if err := db.QueryRow("SHOW listen_addresses").Scan(&listen); err != nil {
		t.Fatal(err)
	}
	if listen != "127.0.0.1" && listen != "localhost" {
		t.Logf("the server (from %s) listens on %q", EnvDSN, listen)
	}
}
