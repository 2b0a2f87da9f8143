package agents

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/event"
)

// This file holds the helpers more than one harness's parser reads its wire
// format with: JSON values, timestamps and durations, counters, and the
// exit statuses harnesses print inside a command's output.

// decodeLine decodes a line into v with the strings referring to the line's
// bytes instead of copies: a field a parser only looks at (a type, a
// timestamp) then costs no allocation. The bytes belong to the driver's read
// buffer, which the next line overwrites, so a parser that decodes this way
// keeps no such string past the call (it copies what it keeps in its own
// state), and the driver copies the ones that reach an event (see owner).
func decodeLine[T any](b []byte, v *T) error {
	return json.UnmarshalOf(b, v, json.DecodeNoCopyString())
}

// DecodeInto is decodeLine for a value the stream keeps from line to line
// (so in the heap already), which is decoded in place: decodeLine copies
// its value in and out of the decoder's own. v is zeroed by the caller.
func DecodeInto(b []byte, v any) error {
	return json.UnmarshalWithOption(b, v, json.DecodeNoCopyString())
}

// RawEvent keeps a line the parser did not understand, as the driver does:
// a parser that emitted a held-back event during that line makes it itself,
// since the driver keeps as raw only the lines that emitted nothing.
func RawEvent(b []byte) *event.Event {
	return &event.Event{Update: event.Update{SessionUpdate: event.Raw, Text: RawText(b)}}
}

// AfterHeld ends a line during which a stream emitted events it held back
// from earlier lines (held). The driver keeps as raw only a line that
// emitted nothing, so a line the stream did not understand is kept as raw
// here; the result is what the stream's Line reports.
func AfterHeld(l Line, held, understood bool, emit Emit) bool {
	if !understood && held {
		emit(RawEvent(l.Bytes))
	}
	return understood || held
}

// FatalEnd emits a held-back error that ended the stream (or its session)
// as fatal, and then the failed result it amounts to on the error's line:
// for a harness that prints no terminal line after a failure, the error is
// the unambiguous end.
func FatalEnd(e *event.Event, subtype, text string, emit Emit) {
	e.Update.Fatal = true
	emit(e)
	emit(&event.Event{Line: e.Line, Offset: e.Offset, SessionID: e.SessionID, Timestamp: e.Timestamp,
		Update: event.Update{SessionUpdate: event.Result, IsError: event.Bool(true), Subtype: subtype, Text: text}})
}

// HasType reports whether a JSON object line has "type":"t", in either the
// compact or the spaced (`"type": "t"`) serialization.
func HasType(line []byte, t string) bool {
	i := bytes.Index(line, []byte(`"type"`))
	for i >= 0 {
		rest := bytes.TrimLeft(line[i+6:], " \t\r\n")
		if len(rest) > 0 && rest[0] == ':' {
			rest = bytes.TrimLeft(rest[1:], " \t\r\n")
			if len(rest) > len(t)+1 && rest[0] == '"' && string(rest[1:len(t)+1]) == t && rest[len(t)+1] == '"' {
				return true
			}
		}
		j := bytes.Index(line[i+6:], []byte(`"type"`))
		if j < 0 {
			break
		}
		i += 6 + j
	}
	return false
}

// Present reports whether a JSON value was printed and is not null.
func Present(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}

// FirstRaw returns the first JSON value that is present and not null.
func FirstRaw(vs ...json.RawMessage) json.RawMessage {
	for _, v := range vs {
		if Present(v) {
			return v
		}
	}
	return nil
}

// JSONText returns the string a JSON value holds, and whether it was one.
func JSONText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.UnmarshalOf(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// MarshalPlain encodes a value built for RawInput without escaping &, < and
// > as \u00XX, so that commands read as the harness printed them.
func MarshalPlain(v any) (json.RawMessage, error) {
	return json.MarshalWithOption(v, json.DisableHTMLEscape())
}

// FirstNonEmpty returns the first of ss that is not empty.
func FirstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// ISOTime reads an RFC 3339 timestamp as UTC; zero when absent or
// malformed. The form JavaScript's toISOString prints (Claude Code, Gemini
// CLI, Codex), 2025-12-17T21:05:58.126Z, is read by hand: time.Parse is a
// tenth of the cost of a line.
func ISOTime(s string) time.Time {
	if t, ok := isoMillis(s); ok {
		return t
	}
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// isoMillis parses exactly YYYY-MM-DDTHH:MM:SS.mmmZ.
func isoMillis(s string) (time.Time, bool) {
	if len(s) != 24 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != '.' || s[23] != 'Z' {
		return time.Time{}, false
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	y, mo, d, h, mi, sec, ms := num(0, 4), num(5, 2), num(8, 2), num(11, 2), num(14, 2), num(17, 2), num(20, 3)
	if y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || ms < 0 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, ms*int(time.Millisecond), time.UTC)
	if t.Day() != d {
		return time.Time{}, false // 31 November and such: let time.Parse reject it
	}
	return t, true
}

// EpochMS turns an epoch-milliseconds field into a time; zero when absent.
func EpochMS(ms *int64) time.Time {
	if ms == nil {
		return time.Time{}
	}
	return time.UnixMilli(*ms).UTC()
}

// MSString reads epoch milliseconds printed as a string; zero when absent
// or malformed.
func MSString(s string) time.Time {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}
	}
	return EpochMS(&n)
}

// SecondsMS turns a duration in seconds into milliseconds.
func SecondsMS(sec *float64) *int64 {
	if sec == nil || math.IsNaN(*sec) || *sec < 0 || *sec > 1e12 {
		return nil
	}
	return event.Int64(int64(math.Round(*sec * 1000)))
}

// SumPresent adds the counters a harness printed (event.AddCount); nil
// when it printed none.
func SumPresent(vs ...*int64) *int64 {
	var sum *int64
	for _, v := range vs {
		sum = AddPresent(sum, v)
	}
	return sum
}

// CountTotal adds to a usage's output what its total counts beyond its
// parts, as ccusage reads a usage (apply_total_token_fallback: the rest is
// output when no output is named, else an extra its total counts, which
// sift counts as output, as a Gemini call's thoughts). A usage naming its
// total alone has a prompt of 0 and its total as output. prompt and
// completion are returned as they are when the total is absent or the
// parts cover it.
func CountTotal(prompt, completion, total *int64, parts ...*int64) (*int64, *int64) {
	if total == nil {
		return prompt, completion
	}
	var sum int64
	for _, p := range parts {
		if p != nil {
			sum = event.AddCount(sum, max(*p, 0))
		}
	}
	if *total <= sum {
		return prompt, completion
	}
	if prompt == nil {
		prompt = event.Int64(0)
	}
	var out int64
	if completion != nil {
		out = *completion
	}
	return prompt, event.Int64(event.AddCount(out, *total-sum))
}

// AddPresent adds a printed counter to a running total (event.AddCount).
func AddPresent(sum, v *int64) *int64 {
	if v == nil {
		return sum
	}
	var total int64
	if sum != nil {
		total = *sum
	}
	return event.Int64(event.AddCount(total, *v))
}

// PutPresent stores a counter under its harness name when it was printed.
func PutPresent(m map[string]int64, name string, v *int64) {
	if v != nil {
		m[name] = *v
	}
}

// PutAny is putPresent for a map of any values.
func PutAny(m map[string]any, name string, v *int64) {
	if v != nil {
		m[name] = *v
	}
}

// ExitCodePrefix reads Claude Code's "Exit code N" that starts a failed
// command's output.
func ExitCodePrefix(text string) (int, bool) {
	rest, ok := strings.CutPrefix(text, "Exit code ")
	if !ok {
		return 0, false
	}
	return LeadingInt(rest)
}

// CodexExitLine reads the exit status Codex prints in a shell result:
// "Exit code: N" (0.4x–0.6x) or "Process exited with code N" (0.17x), on a
// line of the result's header.
func CodexExitLine(text string) (int, bool) {
	for _, prefix := range [...]string{"Exit code: ", "Process exited with code "} {
		i := strings.Index(text, prefix)
		if i < 0 || (i > 0 && text[i-1] != '\n') {
			continue
		}
		if n, ok := LeadingInt(text[i+len(prefix):]); ok {
			return n, true
		}
	}
	return 0, false
}

// processExitPrefix opens the trailer droid's Execute tool appends to a
// command's output.
const processExitPrefix = "[Process exited with code "

// ProcessExitCode reads droid's `[Process exited with code N]` trailer, the
// last one of the output; N may be negative.
func ProcessExitCode(out string) (int, bool) {
	i := strings.LastIndex(out, processExitPrefix)
	if i < 0 {
		return 0, false
	}
	num, _, ok := strings.Cut(out[i+len(processExitPrefix):], "]")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	return n, err == nil
}

// LeadingInt reads the decimal digits s starts with; false when there are
// none or they overflow an int.
func LeadingInt(s string) (int, bool) {
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(s[:end])
	return n, err == nil
}

// GeminiCounts returns a Gemini usage's prompt and completion as sift
// counts them: the tool-use prompt (toolUsePromptTokenCount, Gemini CLI's
// "tool") is prompt the model read, and the thoughts (thoughtsTokenCount)
// are output it wrote, billed as output; Gemini reports both apart from
// the prompt and candidates, and counts them in its total, as ccusage does
// (its gemini and qwen adapters: TestTokensEqualCcusageFixtures). A usage
// naming its total alone counts the total as output, as ccusage does
// (falls_back_to_total_tokens_when_gemini_parts_are_missing).
func GeminiCounts(prompt, tool, candidates, thoughts, total *int64) (*int64, *int64) {
	if prompt == nil && candidates == nil {
		if total == nil {
			return nil, nil
		}
		zero := int64(0)
		return &zero, total
	}
	plus := func(a, b *int64) *int64 {
		if a == nil || b == nil || *b == 0 {
			return a
		}
		v := event.AddCount(*a, *b)
		return &v
	}
	return plus(prompt, tool), plus(candidates, thoughts)
}
