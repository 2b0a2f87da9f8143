package main

import (
	"database/sql"
	"strings"
	"testing"
)

func TestRedactReapplyCommand(t *testing.T) {
	db, ref := decideEnv(t)
	wi, file, _ := strings.Cut(ref, "/")
	secret := "ghp_" + strings.Repeat("Hq4Vb8Ns1K", 4)[:36]
	// An older sift's rules let the secret through: write it as it would
	// have.
	raw, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE agent_stream_summaries SET final_assistant_message = 'done with ` + secret + `',
			brief_json = json_set(brief_json, '$.finalAssistantMessage', 'done with ` + secret + `')`,
		`INSERT INTO review_decisions (work_item_id, file_name, decision, note, created_at)
			VALUES ('` + wi + `', '` + file + `', 'reviewed', 'key ` + secret + `', 1)`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()

	if _, errOut, code := siftCmd(t, "redact", "--db", db); code == 0 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "--reapply") {
		t.Fatalf("redact without --reapply: %d %q", code, errOut)
	}
	out, errOut, code := siftCmd(t, "redact", "--db", db, "--reapply")
	if code != 0 || !strings.HasPrefix(out, "redaction reapplied: 3 values changed\n") ||
		!strings.Contains(out, "agent_stream_summaries   2 values in 1 row") || !strings.Contains(out, "review_decisions         1 value in 1 row") {
		t.Fatalf("redact --reapply: %d %q %q", code, out, errOut)
	}
	if out, _, _ := siftCmd(t, "list", "--db", db, "--json"); strings.Contains(out, secret) || !strings.Contains(out, "done with [REDACTED:github-token]") {
		t.Fatalf("list after reapply: %s", out)
	}
	if h := decisionsOf(t, db, ref); len(h) != 1 || h[0].Note != "key [REDACTED:github-token]" {
		t.Fatalf("note after reapply: %+v", h)
	}
	if out, _, code := siftCmd(t, "redact", "--db", db, "--reapply"); code != 0 || !strings.HasPrefix(out, "redaction reapplied: 0 values changed\n") {
		t.Fatalf("second reapply: %d %q", code, out)
	}
}
