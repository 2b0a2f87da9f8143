package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/retention"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentsift/sift/core/export"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

// atifSchema compiles the ATIF-v1.4 schema of testdata/atif.
func atifSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	sch, err := c.Compile(filepath.Join("..", "..", "testdata", "atif", "schema-v1.4.json"))
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// validTrajectory validates an exported trajectory and returns it.
func validTrajectory(t testing.TB, sch *jsonschema.Schema, data []byte) *export.Trajectory {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("not valid ATIF-v1.4: %v", err)
	}
	var tr export.Trajectory
	if err := json.Unmarshal(data, &tr); err != nil {
		t.Fatal(err)
	}
	if err := export.CheckTrajectory(&tr); err != nil {
		t.Fatal(err)
	}
	if tr.SchemaVersion != export.ATIFVersion {
		t.Fatalf("schema_version %q", tr.SchemaVersion)
	}
	return &tr
}

func TestExportDemoTrajectoriesValidate(t *testing.T) {
	st := demoStore(t)
	sch := atifSchema(t)
	ctx := context.Background()
	page, err := st.ListSessions(ctx, review.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Sessions) != len(demoRuns()) {
		t.Fatalf("%d demo sessions", len(page.Sessions))
	}
	for _, s := range page.Sessions {
		var out bytes.Buffer
		if err := exportSession(ctx, st, anyRoot, s.Key(), "atif", &out); err != nil {
			t.Fatalf("%s: %v", s.Key(), err)
		}
		tr := validTrajectory(t, sch, out.Bytes())
		sift := tr.Extra["sift"].(map[string]any)
		if sift["source"] != "stream" || sift["work_item_id"] != s.WorkItemID || len(tr.Steps) == 0 {
			t.Fatalf("%s: source %v, %d steps", s.Key(), sift["source"], len(tr.Steps))
		}
	}
}

// importedStore is a store with one session imported from a copy of a
// recorded stream; it returns the store, the session and the copy.
func importedStore(t *testing.T, stream string) (*store.Store, review.SessionKey, string) {
	t.Helper()
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs", "WI-7")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(stream)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(logs, "work-1-abc123.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "s.db")
	var stderr bytes.Buffer
	if code := run([]string{"import", "--db", db, filepath.Join(dir, "logs")}, nil, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("import: %s", stderr.String())
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, review.SessionKey{WorkItemID: "WI-7", FileName: "work-1-abc123.jsonl"}, path
}

func TestExportWhenTheRawFileIsGone(t *testing.T) {
	st, key, path := importedStore(t, filepath.Join("..", "..", "testdata", "streams", "gemini", "e2e-gemini-cli-0.61.0-scripted.jsonl"))
	ctx := context.Background()
	sch := atifSchema(t)
	if err := st.Decide(ctx, review.Decision{Session: key, Kind: review.NeedsFollowup, Reviewer: "ana", Note: "check the shell call"}); err != nil {
		t.Fatal(err)
	}
	var full bytes.Buffer
	if err := exportSession(ctx, st, anyRoot, key, "atif", &full); err != nil {
		t.Fatal(err)
	}
	fromStream := validTrajectory(t, sch, full.Bytes())
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}

	// The review events are still kept: the steps come from them.
	if evs, err := st.ReviewEvents(ctx, key); err != nil || len(evs) == 0 {
		t.Fatalf("review events %d, %v: the import should have kept them", len(evs), err)
	}
	var out bytes.Buffer
	if err := exportSession(ctx, st, anyRoot, key, "atif", &out); err != nil {
		t.Fatal(err)
	}
	tr := validTrajectory(t, sch, out.Bytes())
	sift := tr.Extra["sift"].(map[string]any)
	if sift["source"] != "review_events" || !strings.Contains(tr.Notes, "stream file is gone") {
		t.Fatalf("source %v, notes %q", sift["source"], tr.Notes)
	}
	var calls, results int
	for _, s := range tr.Steps {
		calls += len(s.ToolCalls)
		if s.Observation != nil {
			results += len(s.Observation.Results)
		}
	}
	if calls == 0 || results != calls {
		t.Fatalf("%d calls, %d results from the review events", calls, results)
	}
	if *tr.FinalMetrics.TotalPromptTokens != *fromStream.FinalMetrics.TotalPromptTokens {
		t.Fatal("final metrics differ from the stream's export")
	}
	if ds := sift["decisions"].([]any); len(ds) != 1 || ds[0].(map[string]any)["note"] != "check the shell call" {
		t.Fatalf("decisions %v", sift["decisions"])
	}

	// With the follow-up closed and the review events swept too (an open
	// follow-up keeps them), only the summary is left.
	if err := st.Decide(ctx, review.Decision{Session: key, Kind: review.Reviewed, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Sweep(ctx, retention.Policy{FullEventsFor: time.Nanosecond, FlaggedFor: time.Nanosecond}); err != nil {
		t.Fatal(err)
	}
	if evs, _ := st.ReviewEvents(ctx, key); len(evs) != 0 {
		t.Fatalf("%d review events left after the sweep", len(evs))
	}
	out.Reset()
	if err := exportSession(ctx, st, anyRoot, key, "atif", &out); err != nil {
		t.Fatal(err)
	}
	tr = validTrajectory(t, sch, out.Bytes())
	sift = tr.Extra["sift"].(map[string]any)
	missing, _ := json.Marshal(sift["missing"])
	if sift["source"] != "summary" || !strings.Contains(string(missing), "review events") || !strings.Contains(tr.Steps[0].Message, "only the summary") {
		t.Fatalf("source %v, missing %s, first step %q", sift["source"], missing, tr.Steps[0].Message)
	}
	if tr.FinalMetrics.TotalPromptTokens == nil || *tr.FinalMetrics.TotalPromptTokens != 4500 {
		t.Fatalf("final metrics %+v", tr.FinalMetrics)
	}
	var stderr bytes.Buffer
	if code := run([]string{"export", "--db", st.Path(), "--format", "acp", key.String()}, nil, &bytes.Buffer{}, &stderr); code == 0 ||
		strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "only --format atif") {
		t.Fatalf("acp of a summary alone: exit %d, %q", code, stderr.String())
	}
}

func TestExportAllWritesOneFilePerSession(t *testing.T) {
	st := demoStore(t)
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"export", "--db", st.Path(), "--all", "--since", "100000d", "--out", out}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.atif.json"))
	if len(files) != len(demoRuns()) {
		t.Fatalf("%d files for %d sessions", len(files), len(demoRuns()))
	}
	sch := atifSchema(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		validTrajectory(t, sch, data)
	}
	if code := run([]string{"export", "--db", st.Path(), "--all"}, nil, &stdout, &stderr); code == 0 {
		t.Fatal("--all without --out succeeded")
	}
}

// TestExportAllRefusesALinkOut: a name in the output folder that is a link
// to a file elsewhere is refused, and that file stays as it was: export
// --all never follows a link out of its folder to truncate a user's file.
func TestExportAllRefusesALinkOut(t *testing.T) {
	st := demoStore(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if code := run([]string{"export", "--db", st.Path(), "--all", "--since", "100000d", "--out", out}, nil, io.Discard, io.Discard); code != 0 {
		t.Fatal("first export failed")
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.atif.json"))
	if len(files) == 0 {
		t.Fatal("no files exported")
	}
	victim := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(victim, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, files[0]); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if code := run([]string{"export", "--db", st.Path(), "--all", "--since", "100000d", "--out", out}, nil, io.Discard, &stderr); code != 0 {
		t.Errorf("export over a link: %d %s", code, stderr.String())
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me\n" {
		t.Errorf("the linked file became %.80q", b)
	}
	if fi, err := os.Lstat(files[0]); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the link was not replaced by the export: %v %v", fi, err)
	}
}

// TestExportAllNamesNeverCollide is Hardening II item 7: sessions whose
// keys read alike once made safe for a file name get a file each; a link
// in the folder is replaced, never written through; files are the
// owner's alone.
func TestExportAllNamesNeverCollide(t *testing.T) {
	dir := t.TempDir()
	isolate(t, dir)
	src := recordedStream(t)
	keys := []string{"a_b/w.jsonl", "a b/w.jsonl", "a:b/w.jsonl", "x__y/z.jsonl", "x/y__z.jsonl"}
	streams := map[string]string{}
	for i, k := range keys {
		streams[k] = strings.Replace(src, "hello.txt", fmt.Sprintf("session-%d.txt", i), 1)
	}
	db, logs := importStreams(t, dir, streams)
	out := filepath.Join(dir, "out")
	// A link inside the folder, at another name, to a file inside it.
	os.MkdirAll(out, 0o700)
	keep := filepath.Join(out, "keep.txt")
	os.WriteFile(keep, []byte("keep me\n"), 0o600)
	for _, k := range keys {
		name := exportName(review.SessionKey{WorkItemID: filepath.Dir(k), FileName: filepath.Base(k)}, "atif")
		if err := os.Symlink(keep, filepath.Join(out, name)); err != nil {
			t.Fatal(err)
		}
	}
	if o, errOut, code := siftCmd(t, "export", "--all", "--since", "999999d", "--out", out, "--db", db, "--logs", logs); code != 0 {
		t.Fatalf("export --all: %d %q %q", code, o, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.atif.json"))
	if len(files) != len(keys) {
		t.Fatalf("%d files for %d sessions: %v", len(files), len(keys), files)
	}
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Lstat(f)
		if fi.Mode().Perm() != 0o600 || !fi.Mode().IsRegular() {
			t.Errorf("%s: mode %v, want a regular file 0600", f, fi.Mode())
		}
		for i := range keys {
			if strings.Contains(string(data), fmt.Sprintf("session-%d.txt", i)) {
				seen[fmt.Sprint(i)] = true
			}
		}
	}
	if len(seen) != len(keys) {
		t.Errorf("the files hold %d of the %d sessions", len(seen), len(keys))
	}
	if b, _ := os.ReadFile(keep); string(b) != "keep me\n" {
		t.Errorf("a link's target became %.80q", b)
	}
	fresh := filepath.Join(dir, "fresh")
	if _, errOut, code := siftCmd(t, "export", "--all", "--since", "999999d", "--out", fresh, "--db", db, "--logs", logs); code != 0 {
		t.Fatal(errOut)
	}
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the new folder: %v %v, want 0700", fi, err)
	}
}

// anyRoot lets the export tests read the streams they import from their
// temporary folders.
var anyRoot = []string{string(filepath.Separator)}
