package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/s2"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

func TestPackRoundTrip(t *testing.T) {
	t.Parallel()
	type turn struct {
		TurnID      string   `json:"turnId"`
		ToolCallIDs []string `json:"toolCallIds"`
	}
	small := []turn{{TurnID: "t1"}}
	got, err := encodePacked(small, "[]")
	if err != nil || string(got) != `[{"turnId":"t1","toolCallIds":null}]` {
		t.Errorf("a short value: %q, %v; want its plain JSON", got, err)
	}
	if got, _ := encodePacked([]turn(nil), "[]"); string(got) != "[]" {
		t.Errorf("null stored as %q, want []", got)
	}
	var big []turn
	for i := range 100 {
		big = append(big, turn{TurnID: fmt.Sprintf("t%d", i), ToolCallIDs: []string{"toolu_01", "toolu_02"}})
	}
	want, err := json.Marshal(big)
	if err != nil {
		t.Fatal(err)
	}
	packed, err := encodePacked(big, "[]")
	if err != nil {
		t.Fatal(err)
	}
	if packed[0] != 0 || len(packed) >= len(want)/4 || cap(packed) >= len(want)/2 {
		t.Errorf("packed %d bytes of JSON into %d (capacity %d), first byte %#x", len(want), len(packed), cap(packed), packed[0])
	}
	for _, tc := range []struct{ stored, want []byte }{{packed, want}, {got, got}, {want, want}} {
		out, err := unpackJSON(tc.stored)
		if err != nil || !bytes.Equal(out, tc.want) {
			t.Errorf("unpackJSON(%.20q) = %.40q, %v; want %.40q", tc.stored, out, err, tc.want)
		}
	}
	if _, err := unpackJSON([]byte{0, 0xff, 0xff}); err == nil {
		t.Error("a corrupt packed value decoded")
	}
}

// TestPackedColumnsReadBack: an import stores a session's turns and review
// events packed, and reads back exactly what was summarized; a row written
// as plain JSON (by an earlier sift) reads the same.
func TestPackedColumnsReadBack(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := t.TempDir()
	src := filepath.Join(fixtures, "claude", "evolve-2.1.7-run2-resumed-multitool.jsonl")
	copyFile(t, src, filepath.Join(root, "wi-p", "work-1-abcdef.jsonl"))
	mustImport(t, s, root)
	key := review.SessionKey{WorkItemID: "wi-p", FileName: "work-1-abcdef.jsonl"}

	want, wantEvents, err := ingest.AnalyzeFile(src, summary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var turns, events []byte
	if err := s.r.QueryRowContext(ctx, `SELECT s.turns_json, e.events_json FROM agent_stream_summaries s
		JOIN review_events e USING (work_item_id, file_name) WHERE s.work_item_id = ?`, key.WorkItemID).Scan(&turns, &events); err != nil {
		t.Fatal(err)
	}
	if len(turns) < packMin && len(events) < packMin {
		t.Fatalf("fixture too small to pack: %d and %d bytes", len(turns), len(events))
	}
	for name, col := range map[string][]byte{"turns": turns, "events": events} {
		if len(col) >= packMin && col[0] != 0 {
			t.Errorf("%s stored as plain JSON (%d bytes)", name, len(col))
		}
	}
	check := func(stage string) {
		t.Helper()
		got, err := s.GetSession(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(jsonOf(t, got.Turns), jsonOf(t, want.Turns)) {
			t.Errorf("%s: turns read back differ", stage)
		}
		evs, err := s.ReviewEvents(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(jsonOf(t, evs), jsonOf(t, wantEvents)) {
			t.Errorf("%s: review events read back differ", stage)
		}
	}
	check("packed")
	// As an earlier sift wrote them.
	if _, err := s.w.ExecContext(ctx, `UPDATE agent_stream_summaries SET turns_json = ? WHERE work_item_id = ?`,
		jsonOf(t, want.Turns), key.WorkItemID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, `UPDATE review_events SET events_json = ? WHERE work_item_id = ?`,
		jsonOf(t, wantEvents), key.WorkItemID); err != nil {
		t.Fatal(err)
	}
	check("plain")
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPackListStreams: a list is stored as encodePacked stores the whole
// slice while it is short; past packStreamAt its JSON is compressed as it
// is encoded (S2's stream format, marked 0x01) and reads back the same.
// encodeList writes what json.Marshal does, into a buffer of its size.
func TestPackListStreams(t *testing.T) {
	t.Parallel()
	type call struct {
		ID    string `json:"id"`
		Input string `json:"inputSummary"`
		Line  int    `json:"line"`
	}
	mk := func(n int) []call {
		l := make([]call, n)
		for i := range l {
			l[i] = call{ID: fmt.Sprintf("toolu_%024d", i), Input: fmt.Sprintf("go test ./pkg%d/... <&>", i%97), Line: 2 * i}
		}
		return l
	}
	streamed := false
	for _, n := range []int{0, 1, 20, 2000, 60_000} {
		l := mk(n)
		want, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			want = []byte("[]")
		}
		got, err := encodePackedList[call](sliceList[call](l))
		if err != nil {
			t.Fatal(err)
		}
		whole, err := encodePacked(l, "[]")
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case len(want) < packStreamAt && !bytes.Equal(got, whole):
			t.Errorf("%d elements: stored %.40q, encodePacked stores %.40q", n, got, whole)
		case len(want) >= packStreamAt && (got[0] != 1 || len(got) > len(want)/4):
			t.Errorf("%d elements (%d bytes of JSON): stored %d bytes, first byte %#x", n, len(want), len(got), got[0])
		}
		streamed = streamed || len(want) >= packStreamAt
		if out, err := unpackJSON(got); err != nil || !bytes.Equal(out, want) {
			t.Errorf("%d elements: read back %d bytes (%v), want %d", n, len(out), err, len(want))
		}
		plain, err := encodeList(l)
		if err != nil || !bytes.Equal(plain, want) || cap(plain) != len(plain) {
			t.Errorf("%d elements: encodeList gave %d bytes (capacity %d, %v), want %d", n, len(plain), cap(plain), err, len(want))
		}
	}
	if !streamed {
		t.Error("no list was long enough to stream")
	}
	if _, err := unpackJSON([]byte{1, 0xff, 0xff}); err == nil {
		t.Error("a corrupt streamed value decoded")
	}
}

// A packed value crafted in a shared database (a few bytes that claim, or
// stream, gigabytes) is refused before it is allocated, in both packed
// forms, and a session holding one says which column is unreadable
// (Hardening II, item 5).
func TestPackedBombIsRefused(t *testing.T) {
	t.Parallel()
	// A block that claims 3 GiB: its header alone.
	block := append([]byte{0}, binary.AppendUvarint(nil, 3<<30)...)
	block = append(block, 0, 0, 0, 0)
	if _, err := unpackJSON(block); !errors.Is(err, errTooBig) {
		t.Errorf("a block claiming 3 GiB: %v, want %v", err, errTooBig)
	}
	// A framed stream of zeros past the bound: a few KB on disk.
	var stream bytes.Buffer
	stream.WriteByte(1)
	zw := s2.NewWriter(&stream)
	if _, err := io.Copy(zw, io.LimitReader(zeros{}, maxUnpacked+1<<20)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if stream.Len() > maxUnpacked/1000 {
		t.Fatalf("the bomb is %d bytes: not a bomb", stream.Len())
	}
	if _, err := unpackJSON(stream.Bytes()); !errors.Is(err, errTooBig) {
		t.Errorf("a stream of %d bytes expanding past the bound: %v, want %v", stream.Len(), err, errTooBig)
	}

	s := newTestStore(t)
	ctx := context.Background()
	writeFakes(t, s, []fake{{wi: "wi", file: "a.jsonl"}})
	if _, err := s.w.ExecContext(ctx, `UPDATE agent_stream_summaries SET turns_json = ?`, block); err != nil {
		t.Fatal(err)
	}
	// The session stays readable as a row that says which column is not
	// (TestUnreadableRowStaysInTheInbox).
	sess, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"})
	if ev := sess.Summary.OutcomeEvidence.Sentence; err != nil || !strings.Contains(ev, "turns_json: ") ||
		!strings.Contains(ev, errTooBig.Error()) || sess.Summary.Turns == nil || len(sess.Summary.Turns) != 0 {
		t.Fatalf("GetSession of a bomb: %v, evidence %q", err, ev)
	}
}

// zeros reads as an endless run of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
