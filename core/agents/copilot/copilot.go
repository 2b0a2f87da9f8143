package copilot

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// copilotParser reads GitHub Copilot CLI's `copilot -p` output, which is
// plain text: every stdout line is assistant narration, and at exit the CLI
// prints a usage footer on stderr, which sift's capture tees verbatim into
// the same file for plaintext agents (FORMATS.md "GitHub Copilot CLI",
// copilot/firaga-plaintext-stdout-stderr-stats.txt):
//
//	Total usage est:       0.33 Premium requests
//	Total duration (API):  2m 27.759s
//	Total duration (wall): 2m 49.164s
//	Total code changes:    0 lines added, 0 lines removed
//	Usage by model:
//	    claude-haiku-4.5     2.5m input, 16.3k output, 2.5m cache read (Est. 0.33 Premium requests)
//
// Newer builds word it `API time spent`, `Total session time`, `Total code
// changes: +206 -77` and `Breakdown by AI model:` with rows of `453.0k in,
// 13.1k out, 405.7k cached` (github/copilot-cli#1393). The footer becomes
// stderr events, then one run usage and a result: the footer is the
// format's only unambiguous end. Copilot claims nothing when sniffing.
type copilotParser struct{}

func (copilotParser) Kind() agents.Kind        { return agents.Copilot }
func (copilotParser) Claims(_ []byte) bool     { return false }
func (copilotParser) NewStream() agents.Stream { return &copilotStream{} }

// EndsWithResult implements Parser: the usage footer, copilot's only end,
// is printed on stderr, which an uncaptured stream lacks.
func (copilotParser) EndsWithResult() bool { return false }

// copilotStream holds the line of the last narration line (to restore the
// paragraph breaks the driver's skipped blank lines leave out) and the
// footer being read.
type copilotStream struct {
	lastText int
	footer   *copilotFooter
}

// copilotFooter is what the exit statistics said.
type copilotFooter struct {
	at             agents.Line // the last footer line, where its events are placed
	premium        *float64
	apiMs, wallMs  *int64
	added, removed *int64
	modelsSeen     bool
	inModels       bool
	models         []copilotModel
}

// copilotModel is one row of the per-model breakdown.
type copilotModel struct {
	name                               string
	input, output, cacheRead, cacheOut *int64
	premium                            *float64
}

// copilotStat is one parsed footer line.
type copilotStat struct {
	key            string // which statistic: usage, api, wall, changes, models, row, export
	premium        *float64
	ms             *int64
	added, removed *int64
	row            copilotModel
}

// Line implements Stream.
func (s *copilotStream) Line(l agents.Line, emit agents.Emit) bool {
	text := string(l.Bytes)
	inModels := s.footer != nil && s.footer.inModels
	if st, ok := parseCopilotStat(text, s.footer != nil, inModels); ok {
		s.stat(l, st, emit)
		emit(&event.Event{Update: event.Update{SessionUpdate: event.Stderr, Text: text}})
		return true
	}
	s.flush(emit)
	if s.lastText > 0 && l.No > s.lastText+1 {
		// A blank line was skipped: keep the paragraph break.
		text = "\n" + text
	}
	s.lastText = l.No
	emit(&event.Event{Update: event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(text + "\n")}})
	return true
}

// Finish implements Stream.
func (s *copilotStream) Finish(emit agents.Emit) { s.flush(emit) }

// stat adds one footer line to the footer. A statistic the footer already
// has starts a new footer: another invocation's.
func (s *copilotStream) stat(l agents.Line, st copilotStat, emit agents.Emit) {
	if f := s.footer; f != nil && f.has(st.key) {
		s.flush(emit)
	}
	if s.footer == nil {
		s.footer = &copilotFooter{}
	}
	f := s.footer
	f.at = l
	f.inModels = st.key == "models" || (st.key == "row" && f.inModels)
	switch st.key {
	case "usage":
		f.premium = st.premium
	case "api":
		f.apiMs = st.ms
	case "wall":
		f.wallMs = st.ms
	case "changes":
		f.added, f.removed = st.added, st.removed
	case "models":
		f.modelsSeen = true
	case "row":
		f.models = append(f.models, st.row)
	}
}

func (f *copilotFooter) has(key string) bool {
	switch key {
	case "usage":
		return f.premium != nil
	case "api":
		return f.apiMs != nil
	case "wall":
		return f.wallMs != nil
	case "changes":
		return f.added != nil || f.removed != nil
	case "models":
		return f.modelsSeen
	}
	return false
}

// parseCopilotStat recognises a line of the exit statistics. A model row
// counts only under its header, and the export notice only in a footer.
func parseCopilotStat(text string, inFooter, inModels bool) (copilotStat, bool) {
	if inModels {
		if row, ok := copilotModelRow(text); ok {
			return copilotStat{key: "row", row: row}, true
		}
	}
	key, val, found := strings.Cut(text, ":")
	if !found {
		return copilotStat{}, false
	}
	val = strings.TrimSpace(val)
	var st copilotStat
	switch key {
	case "Total usage est":
		n, ok := leadingFloat(val)
		st.key, st.premium = "usage", &n
		return st, ok
	case "Total duration (API)", "API time spent":
		st.key, st.ms = "api", copilotDuration(val)
		return st, st.ms != nil
	case "Total duration (wall)", "Total session time":
		st.key, st.ms = "wall", copilotDuration(val)
		return st, st.ms != nil
	case "Total code changes":
		st.key = "changes"
		st.added, st.removed = codeChanges(val)
		return st, st.added != nil || st.removed != nil
	case "Usage by model", "Breakdown by AI model":
		st.key = "models"
		return st, val == ""
	case "Session exported to":
		st.key = "export"
		return st, inFooter
	}
	return copilotStat{}, false
}

// flush emits the footer read so far as the run's usage and result.
func (s *copilotStream) flush(emit agents.Emit) {
	f := s.footer
	if f == nil {
		return
	}
	s.footer = nil
	u := &event.Event{Line: f.at.No, Offset: f.at.Offset, Update: event.Update{SessionUpdate: event.Usage, Scope: event.ScopeRun}}
	extra := map[string]int64{}
	var models []any
	for _, m := range f.models {
		u.Update.PromptTokens = agents.AddPresent(u.Update.PromptTokens, m.input)
		u.Update.CompletionTokens = agents.AddPresent(u.Update.CompletionTokens, m.output)
		u.Update.CachedTokens = agents.AddPresent(u.Update.CachedTokens, m.cacheRead)
		if m.cacheOut != nil {
			extra["cache_write"] = event.AddCount(extra["cache_write"], *m.cacheOut)
		}
		row := map[string]any{"model": m.name}
		agents.PutAny(row, "input", m.input)
		agents.PutAny(row, "output", m.output)
		agents.PutAny(row, "cache_read", m.cacheRead)
		agents.PutAny(row, "cache_write", m.cacheOut)
		if m.premium != nil {
			row["premium_requests"] = *m.premium
		}
		models = append(models, row)
	}
	if len(f.models) == 1 {
		u.Model = f.models[0].name
	}
	ev := map[string]any{}
	if f.premium != nil {
		// UsageExtra holds integers: the fractional premium request count
		// is kept there in thousandths, and verbatim in Extra.
		extra["premium_requests_milli"] = int64(math.Round(*f.premium * 1000))
		ev["premium_requests"] = *f.premium
	}
	agents.PutPresent(extra, "lines_added", f.added)
	agents.PutPresent(extra, "lines_removed", f.removed)
	if len(models) > 0 {
		ev["models"] = models
	}
	if len(extra) > 0 {
		u.Update.UsageExtra = extra
	}
	if len(ev) > 0 {
		u.Extra = ev
	}
	emit(u)
	r := &event.Event{Line: f.at.No, Offset: f.at.Offset, Update: event.Update{
		SessionUpdate: event.Result, DurationMs: f.wallMs,
	}}
	if f.apiMs != nil {
		r.Extra = map[string]any{"duration_api_ms": *f.apiMs}
	}
	emit(r)
}

// copilotModelRow reads `claude-haiku-4.5  157.1k input, 1.1k output,
// 149.4k cache read (Est. 0.33 Premium requests)` or the newer `453.0k in,
// 13.1k out, 405.7k cached`.
//
// The input count includes the cache-read share: in every published footer
// the cached count is a little below the input count (2.5m of 2.5m in the
// fixture, 149.4k of 157.1k in FORMATS.md, 405.7k of 453.0k in
// github/copilot-cli#1393). Were the two disjoint, agentic sessions with a
// 90-99% cache hit rate would print inputs far below their cache reads.
func copilotModelRow(text string) (copilotModel, bool) {
	name, rest, ok := strings.Cut(text, " ")
	if !ok || name == "" {
		return copilotModel{}, false
	}
	m := copilotModel{name: name}
	rest = strings.TrimSpace(rest)
	if i := strings.Index(rest, "(Est."); i >= 0 {
		if n, ok := leadingFloat(strings.TrimSpace(rest[i+len("(Est."):])); ok {
			m.premium = &n
		}
		rest = strings.TrimSpace(rest[:i])
	}
	found := false
	for _, item := range strings.Split(rest, ",") {
		num, label, ok := strings.Cut(strings.TrimSpace(item), " ")
		if !ok {
			return copilotModel{}, false
		}
		n, ok := abbreviated(num)
		if !ok {
			return copilotModel{}, false
		}
		switch strings.TrimSpace(label) {
		case "input", "in":
			m.input = &n
		case "output", "out":
			m.output = &n
		case "cache read", "cached":
			m.cacheRead = &n
		case "cache write", "cache written":
			m.cacheOut = &n
		default:
			continue
		}
		found = true
	}
	return m, found
}

// abbreviated reads a count printed as `16`, `157.1k`, `2.5m` or `1.2b`.
func abbreviated(s string) (int64, bool) {
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k"):
		mult = 1e3
	case strings.HasSuffix(s, "m"):
		mult = 1e6
	case strings.HasSuffix(s, "b"):
		mult = 1e9
	}
	if mult != 1 {
		s = s[:len(s)-1]
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || f*mult > math.MaxInt64/2 {
		return 0, false
	}
	return int64(math.Round(f * mult)), true
}

// leadingFloat reads the number a value starts with (`0.33 Premium requests`).
func leadingFloat(s string) (float64, bool) {
	num, _, _ := strings.Cut(s, " ")
	f, err := strconv.ParseFloat(num, 64)
	return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
}

// copilotDuration reads `2m 27.759s`, `7h 24m 54.139s` or `0s` as ms.
func copilotDuration(s string) *int64 {
	d, err := time.ParseDuration(strings.ReplaceAll(s, " ", ""))
	if err != nil || d < 0 {
		return nil
	}
	return event.Int64(d.Milliseconds())
}

// codeChanges reads `12 lines added, 3 lines removed` or `+206 -77`.
func codeChanges(s string) (added, removed *int64) {
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' }) {
		f = strings.TrimSpace(f)
		num, rest, _ := strings.Cut(f, " ")
		switch {
		case strings.HasSuffix(rest, "added"):
			added = parseCount(num)
		case strings.HasSuffix(rest, "removed"):
			removed = parseCount(num)
		}
	}
	if added != nil || removed != nil {
		return added, removed
	}
	for _, f := range strings.Fields(s) {
		switch {
		case strings.HasPrefix(f, "+"):
			added = parseCount(f[1:])
		case strings.HasPrefix(f, "-"):
			removed = parseCount(f[1:])
		}
	}
	return added, removed
}

func parseCount(s string) *int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return nil
	}
	return &n
}
