package pricing

import (
	"fmt"
	"testing"
	"unsafe"
)

// benchNames are the model names of testdata's streams and histories,
// as summaries look them up (once per turn).
var benchNames = []string{"claude-opus-4-5-20251101", "claude-haiku-4-5-20251001", "claude-sonnet-4-5-20250929",
	"claude-opus-5-5", "dashscope/qwen3-coder-plus", "gemini-2.5-pro", "gemini-3-flash-preview", "claude-opus-4-6",
	"gpt-5-codex", "codex-mini-latest", "Auto"}

func BenchmarkLookup(b *testing.B) {
	tb := Default()
	for b.Loop() {
		for _, n := range benchNames {
			tb.Lookup(n)
		}
	}
}

func BenchmarkDefault(b *testing.B) {
	for b.Loop() {
		Default()
	}
}

// TestResolveConcurrent resolves from many goroutines at once through one
// table's memo (run with -race).
func TestResolveConcurrent(t *testing.T) {
	t.Parallel()
	tb := Default()
	done := make(chan bool)
	for range 8 {
		go func() {
			for range 50 {
				for _, n := range benchNames {
					m, mt, ok := tb.Resolve(n)
					if ok {
						mt.Steps = append(mt.Steps, "mine")
						_ = m.Price()
					}
					tb.Lookup(n)
				}
			}
			done <- true
		}()
	}
	for range 8 {
		<-done
	}
	if _, mt, _ := tb.Resolve("claude-opus-4-5-20251101"); len(mt.Steps) != 1 {
		t.Errorf("a caller's change reached the memo: %q", mt.Steps)
	}
}

// TestMemoKeepsItsOwnNames: a name resolved as a view of a buffer that is
// then reused (a parse lends its events' strings) stays remembered under
// its own spelling: the memo copies it. A memo that kept the view had its
// keys change under it, and an import failed with sync.Map's "ran out of
// hash bits" on every file after the first few hundred.
func TestMemoKeepsItsOwnNames(t *testing.T) {
	t.Parallel()
	want, _, ok := Default().Resolve("claude-opus-4-5-20251101")
	if !ok {
		t.Fatal("claude-opus-4-5-20251101 is not in the catalog")
	}
	tab := Default()
	buf := []byte("claude-opus-4-5-20251101")
	view := unsafe.String(unsafe.SliceData(buf), len(buf))
	_, mt, _ := tab.Resolve(view)
	copy(buf, "gpt-5-mini-0000000000000")
	if mt.Name != "claude-opus-4-5-20251101" {
		t.Errorf("the match's name changed with the buffer: %q", mt.Name)
	}
	for i := range 2000 {
		tab.Resolve(fmt.Sprintf("model-%d", i))
	}
	got, mt, ok := tab.Resolve("claude-opus-4-5-20251101")
	if !ok || got.Price() != want.Price() || mt.Name != "claude-opus-4-5-20251101" {
		t.Errorf("after the buffer changed: %+v %q %v", got, mt.Name, ok)
	}
}
