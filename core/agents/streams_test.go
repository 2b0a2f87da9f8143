package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/event"
)

// The stream helpers of this package's tests; the harnesses' folders have
// them from core/agents/agentstest.

// eventsOf parses text as a stream of the declared kind and returns its
// events.
func eventsOf(t testing.TB, k Kind, text string) []*event.Event {
	t.Helper()
	var evs []*event.Event
	if _, err := Default().Parse(strings.NewReader(text), Options{Agent: k}, func(e *event.Event) {
		evs = append(evs, e)
	}); err != nil {
		t.Fatalf("parse: %v", err)
	}
	return evs
}

// streamFixture reads one file of testdata/streams.
func streamFixture(t testing.TB, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "streams", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
