package redact

import "strings"

// The scanner finds every secret of a text in one pass. It walks the
// bytes, and at each anchor where cand says yes it runs the rules of that
// anchor, which look a bounded way back (a key, a token's prefix) and
// forward over the match. A match is a span; the scan resumes after it,
// so no byte is matched twice, and every rule that can fail after reading
// far ahead remembers how far it read (see the memo fields) so that the
// next candidate in the same run does not read it again. Redaction is
// therefore linear in the text: BenchmarkRedactAdversarial measures it.

// span is one secret found: s[lo:hi] is replaced by the marker of kind.
type span struct {
	lo, hi int
	kind   string
	// open is set when the match reaches the end of the text and more
	// text could extend it (a Window then holds it back); cont says which
	// bytes would.
	open bool
	cont cont
}

// cont describes the bytes that extend an open match.
type cont struct {
	in   set    // bytes in this set extend it, or,
	stop string // when stop is set, every byte but these does, or,
	bare bool   // when bare is set, every byte but those ending a bare value
	pem  bool   // a private-key block: it runs to its END line
}

// extends reports whether b would extend the match (never for pem).
func (c cont) extends(b byte) bool {
	switch {
	case c.bare:
		return !stopsBare(b)
	case c.stop != "":
		return strings.IndexByte(c.stop, b) < 0
	}
	return c.in.has(b)
}

// scanner holds the state of one scan.
type scanner struct {
	s string
	// Each span found goes to out when it is set (String writes the
	// redacted text as it goes), else to spans (for a Window).
	out   *output
	spans []span
	found int  // spans found, either way
	last  int  // the end of the last span; no span starts before it
	inner bool // scanning a secret's value for tokens only

	cs       candState
	jwtFail  int         // JWT candidates before it cannot match
	specFail map[int]int // per token spec: candidates before it cannot match
	stops    [4]runMemo  // where values end, by stopBare … stopEOL
	ctx      [5]seenWord // where curl, mysql, … last appeared
	markOK   bool        // markFrom and markAt are set:
	markFrom int         // no marker starts in [markFrom, markAt)
	markAt   int
}

// output is the redacted text a scan writes as it goes.
type output struct {
	b    strings.Builder
	done int // s[:done] is written
}

// redactString returns s with every secret replaced by its marker; it
// does not consult the prefilter.
func redactString(s string) string {
	var out output
	sc := scanner{s: s, out: &out}
	sc.run(0)
	if sc.found == 0 {
		return s
	}
	out.b.WriteString(s[out.done:])
	return out.b.String()
}

// scan returns the spans of s.
func scan(s string, spans []span) []span {
	sc := scanner{s: s, spans: spans[:0]}
	sc.run(0)
	return sc.spans
}

// run scans s from byte from.
func (sc *scanner) run(from int) {
	s := sc.s
	for i := from; i < len(s); i++ {
		c := s[i]
		if gateOf[c] == 0 && c != '[' {
			continue
		}
		if c == '[' {
			// A marker already in the text is kept as it is.
			if n := markerLen(s, i); n > 0 {
				i += n - 1
			}
			continue
		}
		if i < sc.last || !gates[gateOf[s[i]]].lets(s, i) || !cand(s, i, &sc.cs) {
			continue
		}
		if next := sc.at(i); next > i {
			i = next - 1
		}
	}
}

// markerLen returns the length of the marker that starts at s[i], or 0.
func markerLen(s string, i int) int {
	if !strings.HasPrefix(s[i:], Prefix) {
		return 0
	}
	for j := i + len(Prefix); j < len(s) && j < i+len(Prefix)+40; j++ {
		switch c := s[j]; {
		case c == ']':
			return j + 1 - i
		case c != '-' && !isAlnum(c):
			return 0
		}
	}
	return 0
}

// at runs the rules of the anchor at s[i]. It returns where the scan
// resumes (after what it matched), or 0 when nothing matched.
func (sc *scanner) at(i int) int {
	s := sc.s
	switch s[i] {
	case ':':
		if n := sc.urlAt(i); n > 0 {
			return n
		}
		if n := sc.telegramAt(i); n > 0 {
			return n
		}
		return sc.assignAt(i)
	case '=':
		return sc.assignAt(i)
	case 'J':
		if n := sc.jwtAt(i); n > 0 {
			return n
		}
	case 'B', 'b':
		if n := sc.bearerAt(i); n > 0 {
			return n
		}
	case '/', '+':
		if n := sc.awsAt(i); n > 0 {
			return n
		}
	case '-':
		if n := sc.pemAt(i); n > 0 {
			return n
		}
		if n := sc.flagAt(i); n > 0 {
			return n
		}
		if n := sc.shortFlagAt(i); n > 0 {
			return n
		}
		if n := sc.mailchimpAt(i); n > 0 {
			return n
		}
	case '~':
		if n := sc.azureAt(i); n > 0 {
			return n
		}
	case '.':
		if n := sc.terraformAt(i); n > 0 {
			return n
		}
	case 'd':
		if n := sc.netrcAt(i); n > 0 {
			return n
		}
	}
	return sc.specAt(i)
}

// specAt matches the token shapes anchored at s[i].
func (sc *scanner) specAt(i int) int {
	for _, list := range specsAt(sc.s, i) {
		for _, sp := range list {
			lo := i - sp.at
			if end, failed := sc.specFail[sp.id]; failed && lo < end {
				continue
			}
			lo, hi, ok := specMatch(sp, sc.s, i, false)
			if !ok {
				if sp.max == 0 && lo >= 0 {
					// A long body that failed (too short a word, not
					// mixed): a later candidate in it fails too.
					sc.failSpec(sp, i)
				}
				continue
			}
			if sc.add(lo, hi, sp.kind, cont{in: sp.body}) {
				return hi
			}
		}
	}
	return 0
}

// failSpec remembers where the body of a failed candidate of sp ends.
func (sc *scanner) failSpec(sp *spec, i int) {
	lo := i - sp.at
	if !hasPrefixAt(sc.s, lo, sp.pre) {
		return
	}
	start := lo + len(sp.pre)
	end := start + runOf(sc.s, start, sp.body, len(sc.s))
	if end-start < 64 {
		return // short: reading it again costs little
	}
	if sc.specFail == nil {
		sc.specFail = map[int]int{}
	}
	sc.specFail[sp.id] = end
}

// add records the span s[lo:hi] unless it overlaps the last one or holds
// a marker. (No rule starts a match inside a marker: the scan skips
// markers, keys and prefixes hold no '[', and the two rules that read
// forward across text, URLs and user:password, check from where they
// start reading.)
func (sc *scanner) add(lo, hi int, kind string, c cont) bool {
	if lo < sc.last || hi <= lo || sc.nextMarker(lo) < hi {
		return false
	}
	sc.found++
	sc.last = hi
	if o := sc.out; o != nil {
		if o.done == 0 {
			o.b.Grow(len(sc.s) + 16)
		}
		o.b.WriteString(sc.s[o.done:lo])
		o.b.WriteString(Prefix)
		o.b.WriteString(kind)
		o.b.WriteByte(']')
		o.done = hi
		return true
	}
	sc.spans = append(sc.spans, span{lo: lo, hi: hi, kind: kind, open: hi == len(sc.s), cont: c})
	return true
}

// value records a secret's value s[lo:hi]. The tokens in it keep the
// names of their shapes (password=ghp_… is a github-token); a value with
// none is replaced whole. It returns hi, or 0 when nothing was recorded.
func (sc *scanner) value(lo, hi int, kind string, c cont) int {
	if lo < sc.last || hi <= lo || sc.nextMarker(lo) < hi {
		return 0
	}
	if sc.tokensIn(lo, hi) > 0 {
		return hi
	}
	if !sc.add(lo, hi, kind, c) {
		return 0
	}
	return hi
}

// tokensIn records the tokens in s[lo:hi] by their shapes, and returns
// how many it found; the scan then resumes at hi.
func (sc *scanner) tokensIn(lo, hi int) int {
	if lo < sc.last || !mayContain(sc.s[lo:hi]) {
		return 0
	}
	in := scanner{s: sc.s[:hi], out: sc.out, inner: true, last: lo, spans: sc.spans}
	in.run(lo)
	if in.found == 0 {
		return 0
	}
	if hi < len(sc.s) {
		for k := len(sc.spans); k < len(in.spans); k++ {
			in.spans[k].open = false
		}
	}
	sc.spans = in.spans
	sc.found += in.found
	sc.last = in.last
	return in.found
}

// nextMarker returns where the first marker at or after lo starts, or
// len(s). Its answers are cached, so that asking again and again as the
// scan moves on costs one pass in all.
func (sc *scanner) nextMarker(lo int) int {
	s := sc.s
	switch {
	case sc.markOK && lo >= sc.markFrom && lo <= sc.markAt:
		return sc.markAt
	case sc.markOK && lo < sc.markFrom:
		// A little before the cached range (a key, a token's prefix):
		// look in the gap only.
		end := min(sc.markFrom+len(Prefix)-1, len(s))
		if j := strings.Index(s[lo:end], Prefix); j >= 0 {
			sc.markAt = lo + j
		}
		sc.markFrom = lo
		return sc.markAt
	}
	sc.markOK, sc.markFrom = true, lo
	if j := strings.Index(s[lo:], Prefix); j >= 0 {
		sc.markAt = lo + j
	} else {
		sc.markAt = len(s)
	}
	return sc.markAt
}

// runMemo remembers the end of the last run scanned to a stop byte: no
// stop byte lies in [from, end).
type runMemo struct{ from, end int }

// Stop classes of runMemo.
const (
	stopBare   = iota // the end of an unquoted value
	stopDouble        // the end of a double-quoted value
	stopSingle        // the end of a single-quoted value
	stopEOL           // the end of the line, or a backslash (an escaped
	//                   newline or quote, in JSON nested in a string)
)

// stopAt returns the first byte at or after p that ends a run of the
// class, or len(s).
func (sc *scanner) stopAt(class, p int) int {
	m := &sc.stops[class]
	if m.end > 0 && p >= m.from && p <= m.end {
		return m.end
	}
	s := sc.s
	e := p
	switch class {
	case stopBare:
		for e < len(s) && !stopsBare(s[e]) {
			e++
		}
	case stopDouble:
		for e < len(s) && s[e] != '"' && s[e] != '\\' && s[e] != '\n' {
			e++
		}
	case stopSingle:
		for e < len(s) && s[e] != '\'' && s[e] != '\n' {
			e++
		}
	case stopEOL:
		for e < len(s) && s[e] != '\n' && s[e] != '\\' {
			e++
		}
	}
	m.from, m.end = p, e
	return e
}

// stopsBare reports whether c ends an unquoted value.
func stopsBare(c byte) bool {
	return c <= ' ' || strings.IndexByte("\"'\\,;&<>(){}[]`", c) >= 0
}

// seenWord finds, for a scan moving forward, the last place a word
// appeared before a position: the context of a rule (curl before -u).
type seenWord struct {
	last, next int
	started    bool
}

// Context words of the scanner, by index into scanner.ctx.
var contextWords = [...]string{"curl", "mysql", "mariadb", "machine", "\n"}

const (
	ctxCurl = iota
	ctxMySQL
	ctxMariaDB
	ctxMachine
	ctxNewline
)

// before returns where the context word last started before i, or -1.
// Asked with growing i, it reads the text once.
func (sc *scanner) before(word, i int) int {
	w := &sc.ctx[word]
	s, pat := sc.s, contextWords[word]
	if !w.started {
		w.started, w.last, w.next = true, -1, strings.Index(s, pat)
	}
	for w.next >= 0 && w.next < i {
		w.last = w.next
		if j := strings.Index(s[w.next+1:], pat); j >= 0 {
			w.next += 1 + j
		} else {
			w.next = -1
		}
	}
	return w.last
}

// onLine reports whether a context word appeared on the line of s[i],
// at most 512 bytes before it.
func (sc *scanner) onLine(i int, words ...int) bool {
	nl := sc.before(ctxNewline, i)
	for _, w := range words {
		if p := sc.before(w, i); p >= 0 && p > nl && i-p <= 512 {
			return true
		}
	}
	return false
}
