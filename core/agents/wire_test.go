package agents

import (
	"testing"
	"time"

	"github.com/agentsift/sift/core/event"
)

func TestDroidExitCodeTrailer(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int{"x\n[Process exited with code 2]": 2, "[Process exited with code 0]\n": 0} {
		if n, ok := ProcessExitCode(in); !ok || n != want {
			t.Errorf("%q: %d %v", in, n, ok)
		}
	}
	if _, ok := ProcessExitCode("no trailer"); ok {
		t.Error("found an exit code in plain text")
	}
}

func TestGeminiTimeMatchesTimeParse(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"2025-12-17T21:05:58.126Z", "2024-02-29T00:00:00.000Z", "2026-01-15T23:59:59.999Z",
		"2025-11-31T10:00:00.000Z", "2025-02-29T10:00:00.000Z", "2025-12-17T24:00:00.000Z",
		"2025-12-17T21:05:58Z", "2025-12-17T21:05:58.126456+02:00", "2025-12-17 21:05:58.126Z",
		"2025-1a-17T21:05:58.126Z", "", "yesterday",
	} {
		want, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			want = time.Time{}
		}
		if got := ISOTime(s); !got.Equal(want) {
			t.Errorf("isoTime(%q) = %v, time.Parse gives %v", s, got, want)
		}
	}
}

// TestExitCodeReaders pins the three ways harnesses print a command's exit
// status inside its output, each read only where its harness puts it.
func TestExitCodeReaders(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		read func(string) (int, bool)
		in   string
		want int
		ok   bool
	}{
		{"claude prefix", ExitCodePrefix, "Exit code 2\nls: cannot access", 2, true},
		{"claude prefix only at the start", ExitCodePrefix, "output\nExit code 2", 0, false},
		{"claude prefix without digits", ExitCodePrefix, "Exit code x", 0, false},
		{"codex header line", CodexExitLine, "Chunk ID: 1\nExit code: 127\nOutput:", 127, true},
		{"codex 0.17x header line", CodexExitLine, "Process exited with code 0\n", 0, true},
		{"codex mid-line mention", CodexExitLine, "it said Exit code: 3", 0, false},
		{"codex overflow", CodexExitLine, "Exit code: 99999999999999999999999", 0, false},
		{"droid trailer", ProcessExitCode, "x\n[Process exited with code 2]", 2, true},
		{"droid negative", ProcessExitCode, "[Process exited with code -1]", -1, true},
		{"droid last trailer", ProcessExitCode, "[Process exited with code 1]\n[Process exited with code 0]", 0, true},
		{"droid unclosed", ProcessExitCode, "[Process exited with code 1", 0, false},
	} {
		if n, ok := tc.read(tc.in); n != tc.want || ok != tc.ok {
			t.Errorf("%s: %q read as %d %v, want %d %v", tc.name, tc.in, n, ok, tc.want, tc.ok)
		}
	}
}

// TestISOTimeIsUTC: a timestamp with an offset is the same instant, in UTC,
// like the ones read by hand.
func TestISOTimeIsUTC(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"2025-12-17T21:05:58.126456+02:00", "2025-12-17T21:05:58.126Z", "2025-12-17T21:05:58Z"} {
		got := ISOTime(s)
		want, _ := time.Parse(time.RFC3339Nano, s)
		if !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("isoTime(%q) = %v, want %v in UTC", s, got, want)
		}
	}
	if got := MSString("1765000000000"); !got.Equal(time.UnixMilli(1765000000000)) || got.Location() != time.UTC {
		t.Errorf("msString = %v", got)
	}
	if !MSString("").IsZero() || !MSString("soon").IsZero() || !EpochMS(nil).IsZero() {
		t.Error("an absent or malformed time is not zero")
	}
}

// TestAfterHeld: a line during which a stream flushed a held event is kept
// as raw by the stream when it was not understood.
func TestAfterHeld(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		held, understood, want bool
		raw                    int
	}{
		{false, false, false, 0}, {false, true, true, 0}, {true, true, true, 0}, {true, false, true, 1},
	} {
		var evs []*event.Event
		got := AfterHeld(Line{Bytes: []byte("noise")}, tc.held, tc.understood, func(ev *event.Event) { evs = append(evs, ev) })
		if got != tc.want || len(evs) != tc.raw || tc.raw == 1 && (evs[0].Update.SessionUpdate != event.Raw || evs[0].Update.Text != "noise") {
			t.Errorf("held %v understood %v: reported %v, events %v", tc.held, tc.understood, got, evs)
		}
	}
}
