package store

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/retention"

	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

// run is what a synthetic Claude Code stream says: a prompt, one turn
// with a text and a Bash call whose output may be an error, and the
// final message with the run's cost.
type run struct {
	prompt, text, command, output string
	failed, runFailed             bool
	final                         string
	cost                          float64
	model                         string
}

// stream writes a run as Claude Code's stream-json prints it.
func (r run) stream() []byte {
	line := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		return string(b) + "\n"
	}
	if r.model == "" {
		r.model = "claude-sonnet-4-5"
	}
	type m = map[string]any
	sid := "0b0e6f2c-1111-4222-8333-444455556666"
	return []byte(line(m{"type": "system", "subtype": "init", "session_id": sid, "model": r.model, "cwd": "/w", "tools": []string{"Bash"}}) +
		line(m{"type": "user", "session_id": sid, "message": m{"role": "user", "content": r.prompt}}) +
		line(m{"type": "assistant", "session_id": sid, "message": m{"id": "msg_1", "role": "assistant", "model": r.model,
			"content": []m{{"type": "text", "text": r.text}, {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": m{"command": r.command}}},
			"usage":   m{"input_tokens": 10, "output_tokens": 5}}}) +
		line(m{"type": "user", "session_id": sid, "message": m{"role": "user", "content": []m{{"type": "tool_result", "tool_use_id": "toolu_1",
			"content": r.output, "is_error": r.failed}}}}) +
		line(m{"type": "result", "subtype": "success", "is_error": r.runFailed, "duration_ms": 1000, "result": r.final, "session_id": sid,
			"total_cost_usd": r.cost}))
}

// searchEnv is a store with a logs folder of synthetic runs.
type searchEnv struct {
	s    *Store
	logs string
}

func newSearchEnv(t *testing.T) *searchEnv {
	t.Helper()
	return &searchEnv{s: newTestStore(t), logs: t.TempDir()}
}

// write writes a run's stream as <logs>/<work item>/<file>.
func (e *searchEnv) write(t *testing.T, wi, file string, r run) string {
	t.Helper()
	p := filepath.Join(e.logs, wi, file)
	writeFile(t, p, r.stream())
	return p
}

func (e *searchEnv) importAll(t *testing.T) { t.Helper(); mustImport(t, e.s, e.logs) }

// find returns the sessions a search selects, as work item/file, sorted,
// checking the count against them.
func (e *searchEnv) find(t *testing.T, q string) []string {
	t.Helper()
	return findIn(t, e.s, review.Query{Search: q, Count: true})
}

func findIn(t *testing.T, s *Store, q review.Query) []string {
	t.Helper()
	p, err := s.ListSessions(context.Background(), q)
	if err != nil {
		t.Fatalf("search %q: %v", q.Search, err)
	}
	var out []string
	for _, x := range p.Sessions {
		out = append(out, x.Key().String())
	}
	slices.Sort(out)
	if p.Total != len(out) {
		t.Errorf("search %q: total %d for %d sessions", q.Search, p.Total, len(out))
	}
	n, err := s.CountSessions(context.Background(), q)
	if err != nil || n != len(out) {
		t.Errorf("search %q: CountSessions %d (%v), want %d", q.Search, n, err, len(out))
	}
	return out
}

// TestSearchLanguage imports runs of several agents and phases and checks
// each part of the query language against the sessions it must select.
func TestSearchLanguage(t *testing.T) {
	t.Parallel()
	e := newSearchEnv(t)
	e.write(t, "ENG-1", "rework-1-aaaaaa.jsonl", run{prompt: "fix the flaky login spec", text: "Running the suite",
		command: "npm test -- --grep login", output: "npm ERR! Test timed out after 30000ms", failed: true, runFailed: true,
		final: "The login spec still times out", cost: 0.9, model: "claude-opus-4-5"})
	e.write(t, "ENG-1", "work-1-bbbbbb.jsonl", run{prompt: "add a test for the parser", text: "Writing the test",
		command: "go test ./core/...", output: "ok", final: "Added parser tests; all pass", cost: 0.1})
	e.write(t, "ENG-2", "rework-2-cccccc.jsonl", run{prompt: "remove the build folder", text: "Cleaning up",
		command: "rm -rf build && npm run build", output: "done", final: "Rebuilt from scratch", cost: 0.3})
	e.importAll(t)
	var (
		login = "ENG-1/rework-1-aaaaaa.jsonl"
		parse = "ENG-1/work-1-bbbbbb.jsonl"
		rmrf  = "ENG-2/rework-2-cccccc.jsonl"
	)
	for _, tc := range []struct {
		name, q string
		typing  bool
		want    []string
	}{
		{"one word in the prompt", "flaky", false, []string{login}},
		{"words match across parts of a session", "rework npm", false, []string{login, rmrf}},
		{"in any order", "npm rework", false, []string{login, rmrf}},
		{"every word must match", "rework parser", false, nil},
		{"a phrase", `"rm -rf"`, false, []string{rmrf}},
		{"a phrase in order only", `"rf rm"`, false, nil},
		{"a word with punctuation is a phrase", "./core/...", false, []string{parse}},
		{"an exclusion", "npm -timed", false, []string{rmrf}},
		{"only an exclusion", "-npm", false, []string{parse}},
		{"no prefix unless typing", "tim", false, nil},
		{"a prefix while typing", "npm tim", true, []string{login}},
		{"a prefix with a star", "pars*", false, []string{parse}},
		{"the work item and phase", "eng 2 rework", false, []string{rmrf}},
		{"a tool error", "30000ms", false, []string{login}},
		{"the final message", "scratch", false, []string{rmrf}},
		{"a flag", "tool_failed", false, []string{login}},
		{"case does not matter", "NPM ERR", false, []string{login}},
		{"agent filter", "agent:claude", false, []string{login, parse, rmrf}},
		{"agent filter by its start", "agent:cod", false, nil},
		{"tool filter", "tool:bash npm", false, []string{login, rmrf}},
		{"flag filter", "flag:tool", false, []string{login}},
		{"negated flag filter", "-flag:tool_failed", false, []string{parse, rmrf}},
		{"outcome filter by its start", "outcome:comp", false, []string{parse, rmrf}},
		{"model filter anywhere in the name", "model:opus", false, []string{login}},
		{"outcome filter", "outcome:failed", false, []string{login}},
		{"cost filter", "cost>0.2", false, []string{login, rmrf}},
		{"cost filter below", "cost<=0.1", false, []string{parse}},
		{"since filter", "since:3650d", false, []string{login, parse, rmrf}},
		{"since a date after the runs", "since:2999-01-01", false, nil},
		{"a filter left incomplete while typing", "npm since:3", true, []string{login, rmrf}},
	} {
		q := review.Query{Search: tc.q, Typing: tc.typing, Count: true}
		if got := findIn(t, e.s, q); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q found %v, want %v", tc.name, tc.q, got, tc.want)
		}
	}
	if _, err := e.s.ListSessions(context.Background(), review.Query{Search: "since:soon"}); err == nil {
		t.Error("a bad since: is not an error")
	}
}

// TestSearchDecisions: notes are found, before and after a re-import of
// their session, and decision: and reviewer: filter by decisions.
func TestSearchDecisions(t *testing.T) {
	t.Parallel()
	e := newSearchEnv(t)
	p := e.write(t, "ENG-1", "work-1-aaaaaa.jsonl", run{prompt: "go", command: "make", final: "done"})
	e.write(t, "ENG-1", "work-1-bbbbbb.jsonl", run{prompt: "go", command: "make", final: "done"})
	e.importAll(t)
	ctx := context.Background()
	a := review.SessionKey{WorkItemID: "ENG-1", FileName: "work-1-aaaaaa.jsonl"}
	b := review.SessionKey{WorkItemID: "ENG-1", FileName: "work-1-bbbbbb.jsonl"}
	// The note comes redacted, as the application layer hands it over
	// (app.Store): the index keeps the marker, not the key.
	note := redact.String("flaky on CI, token sk-ant-api03-" + strings.Repeat("x", 90))
	if err := e.s.Decide(ctx, review.Decision{Session: a, TurnID: "t1", Kind: review.NeedsFollowup, Note: note, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	if err := e.s.Decide(ctx, review.Decision{Session: b, Kind: review.Reviewed, Reviewer: "bo"}); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		for q, want := range map[string][]string{
			"flaky":                   {a.String()},
			"flaky ci":                {a.String()},
			"sk":                      nil,
			"decision:needs_followup": {a.String()},
			"decision:rev":            {b.String()},
			"decision:none":           {a.String()},
			"reviewer:bo":             {b.String()},
			"-reviewer:ana":           {b.String()},
		} {
			if got := e.find(t, q); !slices.Equal(got, want) {
				t.Errorf("%s: %q found %v, want %v", when, q, got, want)
			}
		}
		ms, err := e.s.Matches(ctx, a, review.Query{Search: "flaky"}, 0)
		if err != nil || len(ms) != 1 || ms[0].Where != search.InNote || ms[0].TurnID != "t1" {
			t.Errorf("%s: matches of the note %+v, %v", when, ms, err)
		}
	}
	check("decided")
	// A changed file is read again: its note stays searchable.
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"system","subtype":"init","session_id":"x"}` + "\n")
	f.Close()
	if res := mustImport(t, e.s, e.logs); res.Sessions != 1 {
		t.Fatalf("re-import read %d sessions", res.Sessions)
	}
	check("re-imported")
}

// TestSearchKeepsInStep: what an import replaced, a sweep swept, a purge
// purged or a rebuild dropped is not found; a secret never is.
func TestSearchKeepsInStep(t *testing.T) {
	t.Parallel()
	e := newSearchEnv(t)
	secret := "ghp_" + strings.Repeat("A1b2", 9)
	p := e.write(t, "ENG-1", "work-1-aaaaaa.jsonl", run{prompt: "deploy with GITHUB_TOKEN=" + secret,
		command: "curl -H 'Authorization: Bearer " + secret + "' https://api.github.com", final: "zebra"})
	b := e.write(t, "ENG-1", "work-1-bbbbbb.jsonl", run{prompt: "go", command: "make", final: "giraffe"})
	e.importAll(t)
	ctx := context.Background()
	a := review.SessionKey{WorkItemID: "ENG-1", FileName: "work-1-aaaaaa.jsonl"}
	if got := e.find(t, "deploy zebra"); !slices.Equal(got, []string{a.String()}) {
		t.Fatalf("deploy zebra: %v", got)
	}
	for _, q := range []string{secret, strings.ToLower(secret), "A1b2A1b2", "ghp"} {
		if got := e.find(t, q); got != nil {
			t.Errorf("the secret %q was found: %v", q, got)
		}
	}
	if bodies, err := searchBodies(e.s); err != nil || strings.Contains(bodies, "A1b2") {
		t.Errorf("the index holds the secret (%v): %s", err, bodies)
	}
	// A re-imported file's old text is gone.
	writeFile(t, p, run{prompt: "deploy again", command: "make deploy", final: "okapi"}.stream())
	os.Chtimes(p, time.Now(), time.Now().Add(time.Minute))
	mustImport(t, e.s, e.logs)
	if got := e.find(t, "zebra"); got != nil {
		t.Errorf("the replaced text is found: %v", got)
	}
	if got := e.find(t, "okapi"); !slices.Equal(got, []string{a.String()}) {
		t.Errorf("the new text: %v", got)
	}
	// A rebuild re-reads the files: the same is found, nothing more.
	if _, err := e.s.StartRebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if got := e.find(t, "okapi"); got != nil {
		t.Errorf("a dropped session is found during a rebuild: %v", got)
	}
	mustImport(t, e.s, e.logs)
	if err := e.s.FinishRebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if got := e.find(t, "okapi OR giraffe"); got != nil {
		t.Errorf("OR is a word: %v", got)
	}
	if got := e.find(t, "okapi"); !slices.Equal(got, []string{a.String()}) {
		t.Errorf("after the rebuild: %v", got)
	}
	// A purged session is gone.
	plan, err := e.s.PlanPurge(ctx, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Purge(ctx, plan, removeOwned); err != nil {
		t.Fatal(err)
	}
	if got := e.find(t, "okapi"); got != nil {
		t.Errorf("a purged session is found: %v", got)
	}
	// A swept session (its file gone) is gone.
	os.Remove(b)
	e.s.now = func() time.Time { return time.Now().Add(10 * 365 * 24 * time.Hour) }
	if _, err := e.s.Sweep(ctx, retention.Policy{}); err != nil {
		t.Fatal(err)
	}
	e.s.now = time.Now
	if got := e.find(t, "giraffe"); got != nil {
		t.Errorf("a swept session is found: %v", got)
	}
	var docs, rows int
	e.s.r.QueryRow(`SELECT COUNT(*) FROM search_docs`).Scan(&docs)
	e.s.r.QueryRow(`SELECT COUNT(*) FROM search_fts`).Scan(&rows)
	if docs != 0 || rows != 0 {
		t.Errorf("%d documents and %d indexed rows outlive their sessions", docs, rows)
	}
}

// TestSearchMatches checks where a search matched in a session: the
// part, its turn and call, and the marked snippet.
func TestSearchMatches(t *testing.T) {
	t.Parallel()
	e := newSearchEnv(t)
	e.write(t, "ENG-1", "work-1-aaaaaa.jsonl", run{prompt: "run the tests", text: "Running npm test now",
		command: "npm test", output: "npm ERR! timed out", failed: true, final: "npm test timed out"})
	e.importAll(t)
	k := review.SessionKey{WorkItemID: "ENG-1", FileName: "work-1-aaaaaa.jsonl"}
	ms, err := e.s.Matches(context.Background(), k, review.Query{Search: `"npm test" -zebra`}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		var marked []string
		for _, s := range m.Marks {
			marked = append(marked, m.Snippet[s[0]:s[1]])
		}
		got = append(got, fmt.Sprintf("%s %s/%s %s", m.Where, m.TurnID, m.ToolCallID, strings.Join(marked, ",")))
	}
	want := []string{"text t1/ npm test", "input t1/toolu_1 npm test", "final message t1/ npm test"}
	if !slices.Equal(got, want) {
		t.Errorf("matches\n got %q\nwant %q", got, want)
	}
	if ms, err := e.s.Matches(context.Background(), k, review.Query{Search: "agent:claude"}, 0); err != nil || ms != nil {
		t.Errorf("a search without words has matches: %v %v", ms, err)
	}
}

// TestSearchAsTheDocSays imports every fixture and checks that the
// store's index selects exactly the sessions whose indexed text
// core/search matches, for words of every part of a session.
func TestSearchAsTheDocSays(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	full := importFixtures(t, s, "ENG-1", "ENG-2", "OPS-3")
	for _, q := range []string{"bash", "ENG 2", "permission denied", `"tool_failed"`, "read -bash", "claude wri", "error", "é", "zzz"} {
		sq, err := search.Parse(q, search.Options{Typing: true})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for i := range full {
			x := &full[i]
			d := search.NewDoc(&x.Summary, nil)
			if sq.MatchDoc(d) {
				want = append(want, x.Key().String())
			}
		}
		slices.Sort(want)
		got := findIn(t, s, review.Query{Search: q, Typing: true, Count: true})
		// The index also has the prompts and harness errors, which the
		// stored summaries do not: it may find more, never fewer.
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: the index misses %s (found %v)", q, w, got)
			}
		}
		if q == "zzz" && got != nil {
			t.Errorf("zzz found %v", got)
		}
	}
}

// TestSearchIndexesAnUpgradedStore: a database from before the search
// index is indexed from its stored summaries, with its notes and the
// prompts its review events hold, once.
func TestSearchIndexesAnUpgradedStore(t *testing.T) {
	t.Parallel()
	sqliteOnly(t, "it re-creates a SQLite store from before migration 0008")
	e := newSearchEnv(t)
	e.write(t, "ENG-1", "work-1-aaaaaa.jsonl", run{prompt: "migrate the quokka table", command: "make migrate", final: "done"})
	e.importAll(t)
	ctx := context.Background()
	k := review.SessionKey{WorkItemID: "ENG-1", FileName: "work-1-aaaaaa.jsonl"}
	if err := e.s.Decide(ctx, review.Decision{Session: k, Kind: review.Reviewed, Note: "wombat"}); err != nil {
		t.Fatal(err)
	}
	// The database as it was before migration 0008 (and those after it).
	unmigrate0010(t, e.s)
	for _, q := range []string{`DROP TABLE search_docs`, `DROP TABLE search_fts`, `DROP INDEX summaries_search`,
		`DELETE FROM schema_migrations WHERE version >= 8`} {
		if _, err := e.s.w.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	path := e.s.Path()
	e.s.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := findIn(t, s, review.Query{Search: "quokka", Count: true}); got != nil {
		t.Fatalf("found before it is indexed: %v", got)
	}
	n, err := s.IndexMissing(ctx)
	if err != nil || n != 1 {
		t.Fatalf("IndexMissing: %d, %v", n, err)
	}
	for _, q := range []string{"quokka", "wombat", "migrate", "claude"} {
		if got := findIn(t, s, review.Query{Search: q, Count: true}); !slices.Equal(got, []string{k.String()}) {
			t.Errorf("%q after the backfill: %v", q, got)
		}
	}
	if n, err := s.IndexMissing(ctx); err != nil || n != 0 {
		t.Errorf("a second IndexMissing indexed %d (%v)", n, err)
	}
}

// TestSearchPlansAgree reads searches of every kind by each plan and
// checks that they select, order, page and count alike.
func TestSearchPlansAgree(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	full := importFixtures(t, s, "ENG-1", "ENG-2", "OPS-3", "OPS-4")
	ctx := context.Background()
	if err := s.Decide(ctx, review.Decision{Session: full[0].Key(), Kind: review.Reviewed, Note: "fine"}); err != nil {
		t.Fatal(err)
	}
	queries := []review.Query{
		{Search: "bash", Sort: review.SortTriage},
		{Search: "bash", Sort: review.SortCost, Asc: true, Limit: 3, Offset: 2},
		{Search: "the -bash", Sort: review.SortStarted, Limit: 5},
		{Search: "e", Typing: true, Sort: review.SortDuration},
		{Search: "claude -fine", Sort: review.SortTriage, Undecided: true},
		{Search: "fine decision:rev", Sort: review.SortTriage},
		{Search: "read agent:claude", Sort: review.SortTokens, Flagged: true},
		{Search: "file -outcome:failed cost>0.001", Sort: review.SortStalls},
		{Search: "the", Sort: review.SortErrors, GroupByWorkItem: true, Limit: 4},
	}
	for _, q := range queries {
		q.Count = true
		var first []string
		var total int
		for i, p := range []readPlan{fromMatches, alongSet, alongProbe} {
			s.forcePlan = p
			page, err := s.ListSessions(ctx, q)
			if err != nil {
				t.Fatalf("%+v by plan %d: %v", q, p, err)
			}
			var got []string
			for _, x := range page.Sessions {
				got = append(got, x.Key().String())
			}
			if i == 0 {
				first, total = got, page.Total
				if len(got) == 0 {
					t.Errorf("%+v selects nothing: a weak test", q)
				}
				continue
			}
			if !slices.Equal(got, first) || page.Total != total {
				t.Errorf("%+v: plan %d reads %v (total %d), plan %d %v (total %d)", q, p, got, page.Total, fromMatches, first, total)
			}
		}
		s.forcePlan = planAuto
	}
}

// TestSearchPlanShapes pins how SQLite runs each plan: the sessions come
// along the order's index (or from the matches), read from the covering
// index, never from the summaries' rows, and the set of matches is only
// looked into (a set that drove the lookup of each session's document
// made a page of 6,000 matches take 25 s).
func TestSearchPlanShapes(t *testing.T) {
	t.Parallel()
	sqliteOnly(t, "it reads SQLite's EXPLAIN QUERY PLAN")
	s := newTestStore(t)
	sq, err := search.Parse("npm test agent:claude", search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q := review.Query{Sort: review.SortTriage, Search: "npm test agent:claude", Undecided: true}
	r := &searchRead{d: s.d, q: q, expr: `"npm" AND "test"`}
	r.conds, r.args = whereConds(s.d, q, &sq)
	for _, tc := range []struct {
		p          readPlan
		want, nots []string
	}{
		{fromMatches, []string{"SCAN search_fts VIRTUAL TABLE", "SEARCH sd USING INTEGER PRIMARY KEY",
			"SEARCH s USING COVERING INDEX summaries_search (work_item_id=? AND file_name=?)"}, nil},
		{alongSet, []string{"SCAN o USING COVERING INDEX summaries_by_triage", "SEARCH s USING COVERING INDEX summaries_search",
			"SEARCH sd USING COVERING INDEX sqlite_autoindex_search_docs_1 (work_item_id=? AND file_name=?)", "LIST SUBQUERY"},
			[]string{"rowid=?", "TEMP B-TREE"}},
		{alongProbe, []string{"SCAN o USING COVERING INDEX summaries_by_triage", "SCAN search_fts EXISTS VIRTUAL TABLE INDEX 0:=M"},
			[]string{"TEMP B-TREE"}},
	} {
		from, args, a := r.from(tc.p)
		order, _ := orderByOf(q, a)
		plan := queryPlan(t, s, "SELECT "+a+".work_item_id"+from+order+" LIMIT 50", args...)
		for _, w := range tc.want {
			if !strings.Contains(plan, w) {
				t.Errorf("plan %d: %s\nwants %q", tc.p, plan, w)
			}
		}
		for _, n := range tc.nots {
			if strings.Contains(plan, n) {
				t.Errorf("plan %d: %s\nhas %q", tc.p, plan, n)
			}
		}
	}
}

// TestSearchPrefixIsNeverProbed: a word being typed (a prefix) is read as
// the set of its matches, never probed session by session, however many
// sessions it matches: each probe expands the prefix to every word it
// starts, and "tes" on 100,000 sessions took 87 s so.
func TestSearchPrefixIsNeverProbed(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	writeFakes(t, s, []fake{{wi: "w", file: "f"}})
	for _, tc := range []struct {
		expr string
		want readPlan
	}{
		{`"npm" AND "test"`, alongProbe},
		{`"npm" AND "tes"*`, alongSet},
	} {
		r := &searchRead{q: review.Query{Sort: review.SortTriage}, expr: tc.expr, n: 1 << 20}
		got, err := s.plan(context.Background(), r)
		if err != nil || got != tc.want {
			t.Errorf("%s: plan %d, %v; want %d", tc.expr, got, err, tc.want)
		}
	}
}

// searchBodies returns the text of every search document, as stored:
// SQLite's in search_text (its index keeps none), PostgreSQL's in
// search_fts.
func searchBodies(s *Store) (string, error) {
	q := `SELECT COALESCE(string_agg(sift_search_body(doc), ' '), '') FROM search_text`
	if onPG(s) {
		q = `SELECT COALESCE(string_agg(body, ' '), '') FROM search_fts`
	}
	var b string
	err := s.r.QueryRow(q).Scan(&b)
	return b, err
}

// plantInSearchSQL is the statement that appends text (its first
// argument) to a session's search document (the work item and file), as
// a store that let it through would have written it.
func plantInSearchSQL(s *Store) string {
	if onPG(s) {
		return `UPDATE search_fts SET body = body || ? WHERE rowid = (SELECT id FROM search_docs WHERE work_item_id = ? AND file_name = ?)`
	}
	return `UPDATE search_text SET doc = sift_search_pack(sift_search_body(doc) || ?, sift_search_tags(doc), sift_search_parts(doc))
		WHERE id = (SELECT id FROM search_docs WHERE work_item_id = ? AND file_name = ?)`
}

// unmigrate0017 takes a store back to before migration 0017: its search
// documents in a full-text table of their own content.
func unmigrate0017(t *testing.T, s *Store) {
	t.Helper()
	for _, q := range []string{
		`ALTER TABLE decision_latest DROP COLUMN decided_at`, // 0019
		`DROP TRIGGER search_docs_gone`,
		`DROP TABLE search_fts`,
		`CREATE VIRTUAL TABLE search_fts USING fts5(body, parts UNINDEXED, tokenize = 'unicode61 remove_diacritics 0')`,
		`INSERT INTO search_fts (search_fts, rank) VALUES ('secure-delete', 1)`,
		`INSERT INTO search_fts (rowid, body, parts) SELECT id, sift_search_body(doc), sift_search_parts(doc) FROM search_text`,
		`DROP TABLE search_text`,
		`ALTER TABLE search_docs DROP COLUMN agent_kind`,
		`ALTER TABLE search_docs DROP COLUMN flags`,
		`ALTER TABLE search_docs DROP COLUMN outcome`,
		`ALTER TABLE search_docs DROP COLUMN activity_at`,
		`ALTER TABLE search_docs DROP COLUMN estimated_usd`,
		`CREATE TRIGGER search_docs_gone AFTER DELETE ON search_docs BEGIN
			DELETE FROM search_fts WHERE rowid = old.id;
		END`,
		`DELETE FROM schema_migrations WHERE version >= 17`,
	} {
		if _, err := s.w.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestSearchMigrates0017: a store whose index held its own text (before
// migration 0017) keeps every document, compressed in search_text, its
// index contentless: the same sessions are found, with the same matches,
// and a re-import still takes the old words out.
func TestSearchMigrates0017(t *testing.T) {
	t.Parallel()
	sqliteOnly(t, "it re-creates a SQLite store from before migration 0017")
	e := newSearchEnv(t)
	p := e.write(t, "ENG-1", "work-1-aaaaaa.jsonl", run{prompt: "feed the wallabies", text: "Running npm test now",
		command: "npm test", output: "npm ERR! timed out", failed: true, final: "npm test timed out"})
	e.write(t, "ENG-1", "work-1-bbbbbb.jsonl", run{prompt: "go", command: "make", final: "giraffe"})
	e.importAll(t)
	ctx := context.Background()
	k := review.SessionKey{WorkItemID: "ENG-1", FileName: "work-1-aaaaaa.jsonl"}
	if err := e.s.Decide(ctx, review.Decision{Session: k, Kind: review.Reviewed, Note: "wombat"}); err != nil {
		t.Fatal(err)
	}
	queries := []string{"wallabies", "wombat", `"npm test"`, "giraffe", "make -wallabies"}
	want := map[string][]string{}
	for _, q := range queries {
		want[q] = e.find(t, q)
	}
	matches := func(s *Store) []search.Match {
		ms, err := s.Matches(ctx, k, review.Query{Search: `"npm test" wombat`}, 0)
		if err != nil || len(ms) == 0 {
			t.Fatalf("matches: %v %v", ms, err)
		}
		return ms
	}
	wantMatches := matches(e.s)
	unmigrate0017(t, e.s)
	var content int
	e.s.r.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE name = 'search_fts_content'`).Scan(&content)
	if content != 1 {
		t.Fatal("the store is not as before migration 0017")
	}
	path := e.s.Path()
	e.s.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	e.s = s
	defer s.Close()
	s.r.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE name = 'search_fts_content'`).Scan(&content)
	if content != 0 {
		t.Error("the index still stores its text")
	}
	for _, q := range queries {
		if got := e.find(t, q); !slices.Equal(got, want[q]) || got == nil {
			t.Errorf("%q after the migration: %v, want %v", q, got, want[q])
		}
	}
	if got := matches(s); fmt.Sprint(got) != fmt.Sprint(wantMatches) {
		t.Errorf("matches after the migration\n got %v\nwant %v", got, wantMatches)
	}
	writeFile(t, p, run{prompt: "deploy again", command: "make deploy", final: "okapi"}.stream())
	os.Chtimes(p, time.Now(), time.Now().Add(time.Minute))
	mustImport(t, s, e.logs)
	if got := e.find(t, "wallabies"); got != nil {
		t.Errorf("the replaced text is found: %v", got)
	}
	if n := indexedWords(t, s, "wallabies"); n != 0 {
		t.Errorf("the index keeps %d words of the replaced text", n)
	}
	if got := e.find(t, "okapi wombat"); !slices.Equal(got, []string{k.String()}) {
		t.Errorf("the new text and the note: %v", got)
	}
}

// TestSearchTagsAsFilters: the static filters a search with words asks the
// full-text index (its documents' tags, SQLite) select what the filters
// alone select among the words' sessions, negated or a prefix; a stream
// whose text spells a tag is not taken for one.
func TestSearchTagsAsFilters(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	importFixtures(t, s, "ENG-1", "ENG-2", "OPS-3")
	for _, words := range []string{"the", "bash", "read -write"} {
		all := findIn(t, s, review.Query{Search: words, Count: true})
		for _, f := range []string{"agent:claude", "agent:CL", "-agent:codex", "agent:zz", "flag:tool", "flag:tool_f", "-flag:tool",
			"flag:stall", `flag:"tool failed"`, "outcome:failed", "-outcome:completed", "outcome:comp"} {
			alone := findIn(t, s, review.Query{Search: f, Count: true})
			var want []string
			for _, k := range all {
				if slices.Contains(alone, k) {
					want = append(want, k)
				}
			}
			if got := findIn(t, s, review.Query{Search: words + " " + f, Count: true}); !slices.Equal(got, want) {
				t.Errorf("%s %s: %v, want %v", words, f, got, want)
			}
		}
	}
	e := newSearchEnv(t)
	flagTag := string(appendTag(nil, tagFlag, "stall"))
	e.write(t, "ENG-1", "work-1-aaaaaa.jsonl", run{prompt: "deploy " + flagTag + " tags : " + flagTag, command: "make", final: "done"})
	e.importAll(t)
	if got := e.find(t, "deploy"); len(got) != 1 {
		t.Fatalf("deploy: %v", got)
	}
	if got := e.find(t, "deploy flag:stall"); got != nil {
		t.Errorf("a tag spelled in a prompt is taken for one: %v", got)
	}
	if got := e.find(t, "deploy -flag:stall"); len(got) != 1 {
		t.Errorf("deploy -flag:stall: %v", got)
	}
}
