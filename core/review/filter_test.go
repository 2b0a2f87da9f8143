package review

import "testing"

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
	for _, tc := range []struct {
		name, pattern string
		want          bool
	}{
		{"agent, fuzzy", "cld", true},
		{"label across work item and phase", "1w", true},
		{"tool name, any case", "BSH", true},
		{"no tool name spans two names", "bashread", false},
		{"final message, substring, any case", "build passed", true},
		{"final message is not fuzzy", "bldpsd", false},
		{"spaces in the pattern are skipped when fuzzy", "c l d", true},
		{"nothing", "zzz", false},
		{"empty pattern", "", true},
	} {
		got := FilterMatches(tc.pattern, "claude", Label("ENG-1", "work", nil), []string{"Bash", "Read"}, &final)
		if got != tc.want {
			t.Errorf("%s: FilterMatches(%q) = %v, want %v", tc.name, tc.pattern, got, tc.want)
		}
	}
	if FilterMatches("retry", "codex", "w · work", nil, nil) {
		t.Error("a session without a final message matched a word of none")
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
		{"", "anything", true},
	} {
		if got := FuzzyMatch(tc.pattern, tc.text); got != tc.want {
			t.Errorf("FuzzyMatch(%q, %q) = %v, want %v", tc.pattern, tc.text, got, tc.want)
		}
	}
}
