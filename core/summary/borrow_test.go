package summary

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	gojson "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// TestBuilderKeepsNothingOfAnEvent feeds a builder every fixture's events
// with their strings and input bytes in a scratch buffer that is
// overwritten as soon as Add returns, as a lent event's line is by the next
// one (agents.Options.Borrow). The summary and review events must equal
// those of a builder given events of its own.
func TestBuilderKeepsNothingOfAnEvent(t *testing.T) {
	t.Parallel()
	for _, path := range fixtures(t) {
		t.Run(goldenName(path), func(t *testing.T) {
			t.Parallel()
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var evs []*event.Event
			st, err := agents.Default().Parse(f, agents.Options{Agent: folderAgent(path)}, func(ev *event.Event) {
				evs = append(evs, ev)
			})
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{Agent: string(folderAgent(path))}
			want := summaryJSON(t)(Events(evs, st, opt))

			b := NewBuilder(opt)
			addLent(t, b, evs)
			if got := summaryJSON(t)(b.Finish(st)); got != want {
				t.Errorf("a builder fed lent events kept some of them:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// TestLentMessageIDsCountOnce: a message's usage, repeated on each of its
// content blocks, counts once even when each event's message id is a lent
// string overwritten after Add.
func TestLentMessageIDsCountOnce(t *testing.T) {
	t.Parallel()
	var evs []*event.Event
	for range 3 {
		ev := &event.Event{Timestamp: t0, MessageID: "msg_1", Update: callUsage(100, 20)}
		evs = append(evs, &event.Event{Timestamp: t0, MessageID: "msg_1", Update: text("block")}, ev)
	}
	b := NewBuilder(Options{})
	addLent(t, b, evs)
	s, _ := b.Finish(event.Stats{})
	i64(t, "input", s.InputTokens, 100)
	i64(t, "output", s.OutputTokens, 20)
}

// addLent adds each event to b lent: its strings and input bytes live in a
// scratch buffer overwritten as soon as Add returns.
func addLent(t *testing.T, b *Builder, evs []*event.Event) {
	t.Helper()
	for _, ev := range evs {
		data, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		var lent event.Event
		// The strings of lent point into data (those without escapes), as
		// a borrowed event's point into the line.
		if err := gojson.UnmarshalOf(data, &lent, gojson.DecodeNoCopyString()); err != nil {
			t.Fatal(err)
		}
		input := bytes.Clone(ev.Update.RawInput)
		if len(input) > 0 {
			lent.Update.RawInput = input
		}
		b.Add(&lent)
		scribble(data)
		scribble(input)
	}
}

func scribble(b []byte) {
	for i := range b {
		b[i] = '#'
	}
}

// summaryJSON returns a function encoding a summary and its review events,
// to take the two results of Finish.
func summaryJSON(t *testing.T) func(*Summary, []ReviewEvent) string {
	return func(s *Summary, rev []ReviewEvent) string {
		data, err := json.Marshal(struct {
			S *Summary
			R []ReviewEvent
		}{s, rev})
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
}
