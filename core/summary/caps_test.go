package summary

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// marker is the most a cut adds to a field's cap (" …").
const marker = len(" …")

// TestCallFieldsAreCapped feeds calls whose every field is a megabyte: the
// summary and review events keep each within its cap, cut on a rune
// boundary with a visible marker, count the output without keeping it, and
// keep long ids that differ apart.
func TestCallFieldsAreCapped(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("é", 1<<19) // 1 MB of two-byte runes
	longID := func(end string) string { return "toolu_" + strings.Repeat("x", 1<<20) + end }
	in := `{"command":"echo ` + big + `"}`
	var s stream
	s.add(at(0), text("working"))
	for i, id := range []string{longID("a"), longID("b")} {
		u := call(id, "Bash"+big, in)
		u.Title = "Run: " + big
		s.add(at(float64(1+2*i)), u)
		f := failed(id, "boom: "+big)
		f.Content.Data = big
		s.add(at(float64(2+2*i)), f)
	}
	sum, rev := s.summarize(t, Options{})
	if sum.ToolCallCount != 2 || len(sum.ToolCalls) != 2 {
		t.Fatalf("%d calls, want 2", sum.ToolCallCount)
	}
	within := func(what, v string, cap int) {
		t.Helper()
		if len(v) > cap+marker || !utf8.ValidString(v) {
			t.Errorf("%s is %d bytes (cap %d), valid UTF-8 %v", what, len(v), cap, utf8.ValidString(v))
		}
		if len(v) > cap && !strings.HasSuffix(v, "…") {
			t.Errorf("%s was cut without a marker: …%q", what, v[len(v)-8:])
		}
	}
	for _, c := range sum.ToolCalls {
		within("id", c.ID, MaxCallID)
		within("name", c.Name, MaxToolName)
		within("title", c.Title, MaxTitle)
		within("input summary", c.InputSummary, MaxInputSummary)
		if c.Error == nil {
			t.Fatal("the failed call has no error")
		}
		within("error", *c.Error, MaxErrorText)
		if c.OutputBytes == nil || *c.OutputBytes != int64(2*len("boom: "+big)-len("boom: ")) {
			t.Errorf("output bytes %v, want the text and data counted", c.OutputBytes)
		}
	}
	if sum.ToolCalls[0].ID == sum.ToolCalls[1].ID {
		t.Errorf("two long ids that differ at their end were kept as one: %q", sum.ToolCalls[0].ID)
	}
	if sum.ToolCalls[0].Success == nil || *sum.ToolCalls[0].Success {
		t.Errorf("the first call's result did not reach it: success %v", sum.ToolCalls[0].Success)
	}
	for _, ev := range rev {
		within(string(ev.Type)+" summary", ev.Summary, MaxErrorText)
		within(string(ev.Type)+" tool call id", ev.ToolCallID, MaxCallID)
	}
}

// TestShortIDsKeptAsTheyAre: ids up to MaxCallID bytes are kept verbatim.
func TestShortIDsKeptAsTheyAre(t *testing.T) {
	t.Parallel()
	id := "call_" + strings.Repeat("7", MaxCallID-len("call_"))
	var s stream
	s.add(at(0), call(id, "Read", `{"file_path":"a.go"}`))
	s.add(at(1), done(id, "ok"))
	sum, _ := s.summarize(t, Options{})
	if len(sum.ToolCalls) != 1 || sum.ToolCalls[0].ID != id || sum.ToolCalls[0].Success == nil {
		t.Fatalf("calls %+v, want one call %s, finished", sum.ToolCalls, id)
	}
}

// TestSecretAtTheCutIsRedacted: a secret that straddles an input summary's
// cut is redacted whole, not left half-shown.
func TestSecretAtTheCutIsRedacted(t *testing.T) {
	t.Parallel()
	secret := "ghp_" + strings.Repeat("A1b2C3d4", 5)
	cmd := strings.Repeat("x", MaxInputSummary-10) + " " + secret + " tail"
	var s stream
	s.add(at(0), call("c1", "Bash", `{"command":"`+cmd+`"}`))
	sum, _ := s.summarize(t, Options{})
	got := sum.ToolCalls[0].InputSummary
	if strings.Contains(got, "ghp_A1b") {
		t.Errorf("input summary shows the start of a secret: …%q", got[len(got)-20:])
	}
}
