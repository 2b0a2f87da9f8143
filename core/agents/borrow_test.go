package agents

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/agentsift/sift/core/event"
)

// TestBorrowedEventsEqualOwnedOnes parses every fixture twice, handing
// events over and lending them (Options.Borrow), and compares each event
// as emit sees it: lending changes who owns the memory, never what is
// emitted. The lent events are overwritten once their line is done, so an
// event a parser took from the pool and emitted after its line shows.
// A third parse hands events over, overwrites each line once it is done
// and encodes the events once the stream is read: an event the owner did
// not copy out of its line (a string view.Within missed) shows.
func TestBorrowedEventsEqualOwnedOnes(t *testing.T) {
	t.Parallel()
	for _, f := range fixtures(t) {
		t.Run(f.dir+"/"+f.name, func(t *testing.T) {
			t.Parallel()
			owned := emitted(t, f.path, Options{Agent: f.declared()})
			lent := emitted(t, f.path, Options{Agent: f.declared(), Borrow: true, scribble: true})
			if len(lent) != len(owned) {
				t.Fatalf("%d events lent, %d owned", len(lent), len(owned))
			}
			kept := emitted(t, f.path, Options{Agent: f.declared(), scribble: true})
			for i := range owned {
				if lent[i] != owned[i] {
					t.Fatalf("event %d:\n lent %s\nowned %s", i, lent[i], owned[i])
				}
				if kept[i] != owned[i] {
					t.Fatalf("event %d changed with its line:\n kept %s\nowned %s", i, kept[i], owned[i])
				}
			}
		})
	}
}

// emitted returns each event's JSON as emit received it or, for events
// handed over (not Borrow) in scribble mode, once the stream is read.
func emitted(t *testing.T, path string, opt Options) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	var kept []*event.Event
	encode := func(ev *event.Event) {
		data, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(data))
	}
	_, err = Default().Parse(f, opt, func(ev *event.Event) {
		if opt.scribble && !opt.Borrow {
			kept = append(kept, ev)
			return
		}
		encode(ev)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range kept {
		encode(ev)
	}
	return out
}
