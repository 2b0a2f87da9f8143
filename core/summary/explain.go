package summary

import (
	"bytes"
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
	re     pattern
	weight int
}

// pattern is a line pattern and the words (ASCII, lower case) one of
// which every line it matches holds: a line holding none is not tried.
// Most lines of a failed output hold none, and the regexp package's
// backtracker, tried on every line for every pattern, was two fifths of a
// history import. TestPatternWordsAreOnlyAShortcut holds the words to the
// patterns.
type pattern struct {
	re    *regexp.Regexp
	words [][]byte
}

// pat is a pattern, compiled, with its words.
func pat(expr string, words ...string) pattern {
	p := pattern{re: regexp.MustCompile(expr)}
	for _, w := range words {
		p.words = append(p.words, []byte(w))
	}
	return p
}

// match reports whether a line matches, given the line in ASCII lower
// case (low) and whether it is all ASCII: a line with other bytes is
// always tried (the patterns' case folding maps ſ to s and the Kelvin
// sign to k).
func (p pattern) match(l string, low []byte, ascii bool) bool {
	if ascii {
		found := false
		for _, w := range p.words {
			if bytes.Contains(low, w) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return p.re.MatchString(l)
}

// explainRules are the lines that explain a failure, strongest first.
var explainRules = []explainRule{
	{"assertion", pat(`^\s*(Expected|Received)\b`, "expected", "received"), 4},
	{"panic", pat(`^panic: `, "panic: "), 4},
	{"exception", pat(`^\s*[A-Za-z_.]*(Error|Exception)(\[\w+\])?: \S`, "error", "exception"), 4},
	{"got, want", pat(`\bgot\b.*\bwant\b|\bwant\b.*\bgot\b|, want `, "got", ", want "), 4},
	{"test failed", pat(`(^|\s)(FAILED|✕|✗)\s|^--- FAIL|^\s*FAIL\s+\S`, "fail"), 3},
	{"compiler error", pat(`^error(\[\w+\])?: |^\S+:\d+(:\d+)?: (fatal )?error\b|\(\d+,\d+\): error `, "error"), 3},
	{"failed count", pat(`(?i)\b[1-9]\d* (failed|failing|failures?|errors?)\b`, "fail", "error"), 2},
	{"error", pat(`(?i)(^|[^\w-])(error|fatal)\b`, "error", "fatal"), 2},
	{"failed", pat(`(?i)\bfail(ed|ure|s)?\b`, "fail"), 2},
	{"cannot", pat(`(?i)\b(cannot|can't|could not|couldn't|unable to)\b`, "cannot", "can't", "could not", "couldn't", "unable to"), 2},
	{"denied", pat(`(?i)\b(denied|forbidden|not permitted|unauthori[sz]ed)\b`, "denied", "forbidden", "not permitted", "unauthori"), 2},
	{"not found", pat(`(?i)\bnot found\b|no such file|does not exist|command not found`, "not found", "no such file", "does not exist"), 2},
	{"traceback", pat(`^Traceback \(most recent call last\)`, "traceback"), 1},
}

// explainNoise are lines that never explain a failure: a harness's prefix
// on every failing result.
var explainNoise = []pattern{
	pat(`^Exit code:? -?\d+$`, "exit code"),
	pat(`^\[?Process exited with code -?\d+\]?$`, "exited"),
	pat(`^(Command|Process) (exited|failed) with (exit )?code -?\d+\.?$`, "exited", "failed"),
}

// explainWeak are a launcher's own report of the exit (npm's, make's,
// go's, cargo's): they explain a failure only when nothing else does.
var explainWeak = []pattern{
	pat(`^npm (ERR!|error) (code|path|command|errno|syscall|workspace|location|A complete log|Lifecycle script)`, "npm "),
	pat(`^npm (ERR!|error)\s*$`, "npm "),
	pat(`^error Command failed with exit code \d+\.?$`, "command failed"),
	pat(`^make(\[\d+\])?: \*\*\* .*Error \d+$`, "make"),
	pat(`^exit status \d+$`, "exit status"),
	pat(`^error: could not compile `, "could not compile"),
	pat(`^FAIL$`, "fail"),
}

// explainTail is how much of a text's end is searched for the line: the
// verdict is at the end, and a long output's head is noise.
const explainTail = 64 << 10

// explainLine returns the line(s) of a failed call's texts that explain
// the failure, joined by " / " when a pair does (Expected, Received), or
// "" when no line is more than noise. The texts are given output first,
// error last: of equal lines, the error's wins.
func explainLine(texts ...string) string {
	var buf [256]byte
	lo := lower{low: buf[:0]}
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
			if l = strings.TrimSpace(l); l != "" && !seen[l] && !lo.matchesAny(explainNoise, l) {
				seen[l] = true
				lines = append(lines, l)
			}
		}
	}
	best, bestW, weak := -1, 0, -1
	for i, l := range lines {
		if lo.matchesAny(explainWeak, l) {
			weak = i
			continue
		}
		for _, r := range explainRules {
			if r.weight >= bestW && lo.match(r.re, l) {
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
	var buf [256]byte
	lo := lower{low: buf[:0]}
	if l == "" || lo.matchesAny(explainNoise, l) || lo.matchesAny(explainWeak, l) {
		return false
	}
	for _, r := range explainRules {
		if r.weight >= 2 && lo.match(r.re, l) {
			return true
		}
	}
	return false
}

// lower holds the last line tried in ASCII lower case, so that a line's
// patterns share one lowering.
type lower struct {
	line  string
	low   []byte
	ascii bool
	set   bool
}

// of returns l in ASCII lower case and whether it is all ASCII.
func (lo *lower) of(l string) ([]byte, bool) {
	if lo.set && lo.line == l {
		return lo.low, lo.ascii
	}
	lo.line, lo.low, lo.ascii, lo.set = l, lo.low[:0], true, true
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c >= 0x80 {
			lo.ascii = false
		} else if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lo.low = append(lo.low, c)
	}
	return lo.low, lo.ascii
}

// match reports whether l matches p.
func (lo *lower) match(p pattern, l string) bool {
	low, ascii := lo.of(l)
	return p.match(l, low, ascii)
}

// matchesAny reports whether a line matches one of ps.
func (lo *lower) matchesAny(ps []pattern, l string) bool {
	for _, p := range ps {
		if lo.match(p, l) {
			return true
		}
	}
	return false
}
