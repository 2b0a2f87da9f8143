package summary

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// A failed call's sentence quotes the line of its output or error that
// explains the failure: the rules below, one table, say which lines can
// (with a weight: the strongest wins, the last of equals, since tools print
// their verdict last) and which never do (a harness's own prefix such as
// Claude's `Exit code N`, a launcher's noise). Adding a tool's pattern is
// one line. No model is asked.

// explainRule is one kind of line that explains a failure.
type explainRule struct {
	name   string
	re     *regexp.Regexp
	weight int
}

// explainRules are the lines that explain a failure, strongest first.
var explainRules = []explainRule{
	{"assertion", regexp.MustCompile(`^\s*(Expected|Received)\b`), 4},
	{"panic", regexp.MustCompile(`^panic: `), 4},
	{"exception", regexp.MustCompile(`^\s*[A-Za-z_.]*(Error|Exception)(\[\w+\])?: \S`), 4},
	{"got, want", regexp.MustCompile(`\bgot\b.*\bwant\b|\bwant\b.*\bgot\b|, want `), 4},
	{"test failed", regexp.MustCompile(`(^|\s)(FAILED|✕|✗)\s|^--- FAIL|^\s*FAIL\s+\S`), 3},
	{"compiler error", regexp.MustCompile(`^error(\[\w+\])?: |^\S+:\d+(:\d+)?: (fatal )?error\b|\(\d+,\d+\): error `), 3},
	{"failed count", regexp.MustCompile(`(?i)\b[1-9]\d* (failed|failing|failures?|errors?)\b`), 2},
	{"error", regexp.MustCompile(`(?i)(^|[^\w-])(error|fatal)\b`), 2},
	{"failed", regexp.MustCompile(`(?i)\bfail(ed|ure|s)?\b`), 2},
	{"cannot", regexp.MustCompile(`(?i)\b(cannot|can't|could not|couldn't|unable to)\b`), 2},
	{"denied", regexp.MustCompile(`(?i)\b(denied|forbidden|not permitted|unauthori[sz]ed)\b`), 2},
	{"not found", regexp.MustCompile(`(?i)\bnot found\b|no such file|does not exist|command not found`), 2},
	{"traceback", regexp.MustCompile(`^Traceback \(most recent call last\)`), 1},
}

// explainNoise are lines that never explain a failure: a harness's prefix
// on every failing result.
var explainNoise = []*regexp.Regexp{
	regexp.MustCompile(`^Exit code:? -?\d+$`),
	regexp.MustCompile(`^\[?Process exited with code -?\d+\]?$`),
	regexp.MustCompile(`^(Command|Process) (exited|failed) with (exit )?code -?\d+\.?$`),
}

// explainWeak are a launcher's own report of the exit (npm's, make's,
// go's, cargo's): they explain a failure only when nothing else does.
var explainWeak = []*regexp.Regexp{
	regexp.MustCompile(`^npm (ERR!|error) (code|path|command|errno|syscall|workspace|location|A complete log|Lifecycle script)`),
	regexp.MustCompile(`^npm (ERR!|error)\s*$`),
	regexp.MustCompile(`^error Command failed with exit code \d+\.?$`),
	regexp.MustCompile(`^make(\[\d+\])?: \*\*\* .*Error \d+$`),
	regexp.MustCompile(`^exit status \d+$`),
	regexp.MustCompile(`^error: could not compile `),
	regexp.MustCompile(`^FAIL$`),
}

// explainTail is how much of a text's end is searched for the line: the
// verdict is at the end, and a long output's head is noise.
const explainTail = 64 << 10

// explainLine returns the line(s) of a failed call's texts that explain
// the failure, joined by " / " when a pair does (Expected, Received), or
// "" when no line is more than noise. The texts are given output first,
// error last: of equal lines, the error's wins.
func explainLine(texts ...string) string {
	var lines []string
	seen := map[string]bool{}
	for _, t := range texts {
		if len(t) > explainTail {
			t = t[len(t)-explainTail:]
			if i := strings.IndexByte(t, '\n'); i >= 0 {
				t = t[i+1:]
			}
			// A single long line: start at a character, not inside one.
			for len(t) > 0 && !utf8.RuneStart(t[0]) {
				t = t[1:]
			}
		}
		for l := range strings.SplitSeq(t, "\n") {
			if l = strings.TrimSpace(l); l != "" && !seen[l] && !matchesAny(explainNoise, l) {
				seen[l] = true
				lines = append(lines, l)
			}
		}
	}
	best, bestW, weak := -1, 0, -1
	for i, l := range lines {
		if matchesAny(explainWeak, l) {
			weak = i
			continue
		}
		for _, r := range explainRules {
			if r.weight >= bestW && r.re.MatchString(l) {
				best, bestW = i, r.weight
				break
			}
		}
	}
	switch {
	case best < 0 && weak >= 0:
		// Only the launcher says so.
		return lines[weak]
	case best < 0 && len(lines) > 0:
		// No line says so: the last, where tools print their verdict.
		return lines[len(lines)-1]
	case best < 0:
		return ""
	}
	l := lines[best]
	// An assertion is its pair: what was expected and what came.
	switch {
	case strings.HasPrefix(l, "Received") && best > 0 && strings.HasPrefix(lines[best-1], "Expected"):
		return lines[best-1] + " / " + l
	case strings.HasPrefix(l, "Expected") && best+1 < len(lines) && strings.HasPrefix(lines[best+1], "Received"):
		return l + " / " + lines[best+1]
	}
	return l
}

// ExplainsFailure reports whether a line of a tool's output is one that
// can explain a failure (an error, a failed test, an assertion, …), by
// the rules a failed call's sentence is chosen by: the lines the call
// view steps through with its error-line keys.
func ExplainsFailure(line string) bool {
	l := strings.TrimSpace(line)
	if l == "" || matchesAny(explainNoise, l) || matchesAny(explainWeak, l) {
		return false
	}
	for _, r := range explainRules {
		if r.weight >= 2 && r.re.MatchString(l) {
			return true
		}
	}
	return false
}

// matchesAny reports whether a line matches one of res.
func matchesAny(res []*regexp.Regexp, l string) bool {
	for _, re := range res {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}
