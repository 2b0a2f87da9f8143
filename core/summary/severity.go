package summary

import "regexp"

// A harness error has a severity: fatal (the run stopped, a request failed
// for good: the harness says so), transient (a retry it announced, which
// may yet succeed), or a warning (a notice the run survives). The
// headline of a session's harness errors is its fatal one, else its last;
// a warning never headlines and flags nothing. The patterns are a table:
// a harness's notice is one line here.

// severity is how bad a harness error is.
type severity uint8

const (
	sevError severity = iota
	sevFatal
	sevTransient
	sevWarning
)

// severityRules classify an error by its message (the harness's own
// words); an error the harness marks fatal is fatal whatever it says.
var severityRules = []struct {
	sev severity
	re  *regexp.Regexp
}{
	// Codex, on every run whose model it has no metadata for.
	{sevWarning, regexp.MustCompile(`^Model metadata for .+ not found\. Defaulting to fallback metadata`)},
	{sevWarning, regexp.MustCompile(`(?i)^(warning|warn)\b`)},
	{sevWarning, regexp.MustCompile(`(?i)\bdeprecated\b`)},
	// Codex's reconnects ("Reconnecting... 2/5 (…)"), and retries others
	// announce.
	{sevTransient, regexp.MustCompile(`^Reconnecting\.\.\. \d+/\d+`)},
	{sevTransient, regexp.MustCompile(`(?i)\bretrying\b|\bretry(ing)? in \d|\bwill retry\b`)},
}

// errorSeverity classifies a harness error.
func errorSeverity(msg string, fatal bool) severity {
	if fatal {
		return sevFatal
	}
	for _, r := range severityRules {
		if r.re.MatchString(msg) {
			return r.sev
		}
	}
	return sevError
}
