package ingest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/internal/view"
	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/core/summary"
)

// TestScribbledImportEqualsPlain is the end-to-end check of the borrowed
// texts: every recorded stream of every harness is read, as an import's
// reader reads one file after another, through one parse scratch and one
// summary builder, with every scribble mode on (view.ScribbleAll: each
// line, each lent event's arrays and each builder's blocks are
// overwritten once done with), and each file's summary, review events and
// search document (parser → summary → search.NewDoc) are encoded at once,
// as the import's writer encodes them. Each must equal what a fresh,
// plain read of that file alone gives: a view kept past its buffer would
// show the scribble, or the next file's text.
func TestScribbledImportEqualsPlain(t *testing.T) {
	files, err := filepath.Glob("../../testdata/streams/*/*.jsonl")
	if err != nil || len(files) < 20 {
		t.Fatalf("recorded streams: %d, %v", len(files), err)
	}
	sort.Strings(files)
	// The plain reads first: the switch is the process's.
	plain := make([]string, len(files))
	for i, f := range files {
		plain[i] = readEncoded(t, parser{reg: agents.Default()}, f)
	}
	view.ScribbleAll(true)
	defer view.ScribbleAll(false)
	shared := parser{reg: agents.Default(), scratch: &agents.Scratch{}, builder: summary.NewBuilder(summary.Options{})}
	// Twice over: the second pass reads each file after another's.
	for pass := range 2 {
		for i, f := range files {
			if got := readEncoded(t, shared, f); got != plain[i] {
				t.Fatalf("pass %d, %s: the scribbled read differs from the plain one\n got %.600s\nwant %.600s",
					pass, filepath.Base(f), got, plain[i])
			}
		}
	}
}

// readEncoded reads one stream with p as an import's reader does (its
// search text heard beside the builder) and returns its summary, review
// events and search document, encoded.
func readEncoded(t *testing.T, p parser, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	srch := newSearchText()
	sum, rev, err := analyze(p, bytes.NewReader(b), summary.Options{}, srch.listen)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	doc := search.NewDoc(sum, srch.pieces)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	for _, v := range []any{sum, rev.List(), doc.Body(), doc.Parts} {
		if err := enc.Encode(v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	return out.String()
}
