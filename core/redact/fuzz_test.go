package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzJSONLine checks JSONLine's invariants on any input: no panic, valid
// JSON stays valid JSON, and a second pass changes nothing more.
func FuzzJSONLine(f *testing.F) {
	for _, l := range fixtureLines(f) {
		if len(l.text) < 4096 {
			f.Add(l.text)
		}
	}
	for _, tc := range corpus() {
		in := strings.Replace(tc.text, "%s", tc.secret, 1)
		b, _ := json.Marshal(map[string]string{"text": in})
		f.Add(b)
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		in := append([]byte(nil), line...)
		out := JSONLine(line)
		if string(line) != string(in) {
			t.Fatal("JSONLine modified its input")
		}
		if json.Valid(in) && !json.Valid(out) {
			t.Fatalf("valid JSON became invalid:\n in: %q\nout: %q", in, out)
		}
		if again := JSONLine(out); string(again) != string(out) {
			t.Fatalf("not idempotent:\n 1st: %q\n 2nd: %q", out, again)
		}
		_ = Bytes(line)
		if s := string(line); redactString(s) != s && !mayContain(s) {
			t.Fatalf("prefilter misses %q", s)
		}
		checkGate(t, string(line))
	})
}

// checkGate fails when cand would say yes at an anchor of s that the gate
// does not let it be asked about.
func checkGate(t *testing.T, s string) {
	t.Helper()
	for i := range len(s) {
		var st candState
		if class[s[i]]&bAnchor != 0 && !gated(s, i) && cand(s, i, &st) {
			t.Fatalf("the gate of %q at %d of %q keeps a candidate out", s[i], i, s)
		}
	}
}

func TestGateHoldsCand(t *testing.T) {
	t.Parallel()
	for _, tc := range corpus() {
		in := strings.Replace(tc.text, "%s", tc.secret, 1)
		for _, s := range []string{in, strings.ToUpper(in), strings.ToLower(in)} {
			checkGate(t, s)
		}
	}
	for _, tc := range nearMisses() {
		checkGate(t, tc.text)
	}
	for _, l := range fixtureLines(t) {
		checkGate(t, string(l.text))
	}
}
