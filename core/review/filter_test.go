package review

import (
	"slices"
	"strings"
	"testing"
)

func TestLabel(t *testing.T) {
	t.Parallel()
	two := 2
	for _, tc := range []struct {
		name, phase string
		iter        *int
		want        string
	}{
		{"phase and iteration", "rework", &two, "ENG-1 · rework-2"},
		{"no iteration", "work", nil, "ENG-1 · work"},
		{"unknown phase", "", nil, "ENG-1 · ?"},
	} {
		if got := Label("ENG-1", tc.phase, tc.iter); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestFilterMatches(t *testing.T) {
	t.Parallel()
	final := "The Build PASSED after a retry"
	one := 1
	for _, tc := range []struct {
		name, pattern string
		want          bool
	}{
		{"agent, fuzzy", "cld", true},
		{"label across work item and phase", "1w", true},
		{"label through the iteration", "k-1", true},
		{"tool name, any case", "BSH", true},
		{"no tool name spans two names", "bashread", false},
		{"final message, substring, any case", "build passed", true},
		{"final message is not fuzzy", "bldpsd", false},
		{"spaces in the pattern are skipped when fuzzy", "c l d", true},
		{"nothing", "zzz", false},
		{"empty pattern", "", true},
	} {
		f := FilterFields{Agent: "claude", WorkItem: "ENG-1", Phase: "work", Iteration: &one,
			ToolNames: slices.Values([]string{"Bash", "Read"}), Final: &final}
		if got := FilterMatches(tc.pattern, f); got != tc.want {
			t.Errorf("%s: FilterMatches(%q) = %v, want %v", tc.name, tc.pattern, got, tc.want)
		}
	}
	if FilterMatches("retry", FilterFields{Agent: "codex", WorkItem: "w", Phase: "work"}) {
		t.Error("a session without a final message matched a word of none")
	}
	if !FilterMatches("?", FilterFields{WorkItem: "w"}) {
		t.Error("an unknown phase is not labelled ?")
	}
}

func TestFuzzyMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern, text string
		want          bool
	}{
		{"rsh", "run_shell_command", true},
		{"RSH", "run_shell_command", true},
		{"shr", "run_shell_command", false},
		{"é", "Écrire", true},
		{"k", "\u212a", true}, // the Kelvin sign lowers to k
		{"", "anything", true},
	} {
		if got := FuzzyMatch(tc.pattern, tc.text); got != tc.want {
			t.Errorf("FuzzyMatch(%q, %q) = %v, want %v", tc.pattern, tc.text, got, tc.want)
		}
	}
}

// filterBefore is the `/` filter as the inbox had it before the store
// answered it (tui.FilterMatches over a whole summary): the reference
// FilterMatches must agree with.
func filterBefore(pattern, agent, label string, tools []string, final *string) bool {
	fuzzy := func(pattern, text string) bool {
		text = strings.ToLower(text)
		for _, r := range strings.ToLower(pattern) {
			if r == ' ' {
				continue
			}
			i := strings.IndexRune(text, r)
			if i < 0 {
				return false
			}
			text = text[i+len(string(r)):]
		}
		return true
	}
	if fuzzy(pattern, agent) || fuzzy(pattern, label) {
		return true
	}
	for _, n := range tools {
		if fuzzy(pattern, n) {
			return true
		}
	}
	return final != nil && strings.Contains(strings.ToLower(*final), strings.ToLower(pattern))
}

// checkAgainstBefore compares FilterMatches with filterBefore on one
// session, with and without an iteration.
func checkAgainstBefore(t *testing.T, pattern, agent, wi, phase, tool, final string) {
	t.Helper()
	seven := 7
	for _, iter := range []*int{nil, &seven} {
		f := FilterFields{Agent: agent, WorkItem: wi, Phase: phase, Iteration: iter,
			ToolNames: slices.Values([]string{tool, "Read"}), Final: &final}
		want := filterBefore(pattern, agent, Label(wi, phase, iter), []string{tool, "Read"}, &final)
		if got := FilterMatches(pattern, f); got != want {
			t.Fatalf("FilterMatches(%q, %+v, final %q) = %v, before %v", pattern, f, final, got, want)
		}
	}
}

// TestFilterMatchesAsBefore checks FilterMatches against the inbox's
// filter before it moved, on texts that fold case in awkward ways.
func TestFilterMatchesAsBefore(t *testing.T) {
	t.Parallel()
	texts := []string{"", "Bash", "ENG-12", "\u212aelvin", "İstanbul", "ß straße", "a\xffb", "\xff", "naïve ÉTÉ", "·", "w · work-7", "ｆｕｌｌ"}
	patterns := []string{"", " ", "b", "BASH", "kel", "k", "i", "ss", "ß", "\xff", "\ufffd", "ÉT", "é", "·", "7", "w7", "e 1 2", "ｆ", "zz"}
	for _, p := range patterns {
		for _, x := range texts {
			checkAgainstBefore(t, p, x, x, x, x, x)
			checkAgainstBefore(t, p, "codex", "W", "", "Read", x)
		}
	}
}

// FuzzFilterMatches checks FilterMatches against the inbox's filter
// before it moved, on any texts.
func FuzzFilterMatches(f *testing.F) {
	f.Add("bas", "claude", "ENG-1", "work", "Bash", "All tests PASS")
	f.Add("k", "\u212a", "İ", "", "\xff", "ß")
	f.Fuzz(func(t *testing.T, pattern, agent, wi, phase, tool, final string) {
		checkAgainstBefore(t, pattern, agent, wi, phase, tool, final)
	})
}
