package ingest

import (
	"strings"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/search"
)

// Caps on the text a read collects for the search index, before it is
// redacted and cut to search.MaxPartBytes (search.NewDoc): a piece keeps
// its cap and a margin, a session at most maxPiecesBytes.
const (
	maxPieceBytes  = 2 * search.MaxPartBytes
	maxPiecesBytes = 256 << 10
)

// searchText collects what the search index needs of a stream that its
// summary does not keep: the prompts (the summary keeps their first line
// only in review events, which old sessions do not have) and the errors
// the harness reported (the summary keeps only their flag).
type searchText struct {
	pieces []search.Piece
	size   int
	// prompt is the piece a prompt's chunks are added to, -1 when the
	// last event was not a prompt's.
	prompt int
}

func newSearchText() *searchText { return &searchText{prompt: -1} }

// listen hears one event. It copies what it keeps: the events are lent.
func (t *searchText) listen(ev *event.Event) {
	u := &ev.Update
	switch {
	case u.SessionUpdate == event.UserMessageChunk && ev.ParentToolCallID == "" && u.Content != nil:
		if t.prompt >= 0 {
			t.grow(t.prompt, u.Content.Text)
			return
		}
		t.prompt = t.add(search.InPrompt, ev.Line, u.Content.Text)
		return
	case u.SessionUpdate == event.Error && u.Message != "":
		t.add(search.InHarness, ev.Line, u.Message)
	}
	t.prompt = -1
}

// add keeps a piece, within the caps; it returns its index, -1 when it
// was not kept.
func (t *searchText) add(where search.Where, line int, text string) int {
	text = strings.TrimSpace(text)
	if text == "" || t.size >= maxPiecesBytes {
		return -1
	}
	text = strings.Clone(cutBytes(text, min(maxPieceBytes, maxPiecesBytes-t.size)))
	t.size += len(text)
	t.pieces = append(t.pieces, search.Piece{Where: where, Line: line, Text: text})
	return len(t.pieces) - 1
}

// grow adds a chunk to a kept piece, within the caps.
func (t *searchText) grow(i int, text string) {
	p := &t.pieces[i]
	room := min(maxPieceBytes-len(p.Text), maxPiecesBytes-t.size) - 1
	if room <= 0 || strings.TrimSpace(text) == "" {
		return
	}
	text = cutBytes(text, room)
	p.Text += "\n" + text
	t.size += len(text) + 1
}

// cutBytes returns the longest prefix of s of at most n bytes that ends on
// a rune boundary.
func cutBytes(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
