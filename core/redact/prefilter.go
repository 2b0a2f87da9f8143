package redact

import "strings"

// The prefilter decides, in one pass over the bytes, whether a text may
// hold a secret. It must never say no to a text a rule would change; it
// may say yes to a text none changes (that text then costs one pass of the
// scanner, see scan.go).
//
// Every rule starts its work at an anchor byte, one that is rare in agent
// streams or that a secret cannot do without, and cand runs a short test
// around it. The scanner acts only where cand says yes, so the prefilter
// cannot miss what a rule changes: both call the same test.
//
//	'_' '-' '.' '~' '/'  the separator ending a token prefix (ghp_, sk-,
//	                     ya29., sha256~, 1//), "-----BEGIN", --flags,
//	                     -p and -u, "-usNN" (Mailchimp)
//	'A' 'd' 'E' 'L' 'S' 'G'  token prefixes without a separator (AKIA,
//	                     dapi, EZAK, LTAI, SK, GR1348941); 'd' also ends
//	                     .netrc's "password"
//	'J'                  eyJ (JWT)
//	'B' 'b'              bearer (any case)
//	':' '='              a secret-named key before it, "://", Telegram
//	'~'                  Azure client secrets (…Q~…)
//	'/' '+'              a 40-byte run that may be an AWS secret key
//	'\\'                 \u0020…\u007f and \/ escapes of a JSON line,
//	                     behind which any anchor may hide

// Byte classes, one bit each; a set is an OR of them.
const (
	bUpper uint16 = 1 << iota
	bLower
	bDigit
	bUnder
	bDash
	bDot
	bPlus
	bSlash
	bEq
	bTilde
	bHexL // a-f
	bHexU // A-F
	bSym  // !@#$%^&*()
	bAnchor
	bMarker // '[' may open a marker the scanner skips
)

// set is a set of bytes, an OR of byte classes.
type set uint16

const (
	alnum   = set(bUpper | bLower | bDigit)
	alnumU  = set(bUpper | bDigit)
	letters = set(bUpper | bLower)
	word    = alnum | set(bUnder)
	urlsafe = word | set(bDash)
	hexL    = set(bDigit | bHexL)
	hexAny  = set(bDigit | bHexL | bHexU)
	b64     = alnum | set(bPlus|bSlash|bEq)
)

// class holds the classes of every byte. It is a lookup table filled once
// and never written after.
var class = func() (t [256]uint16) {
	for c := 'A'; c <= 'Z'; c++ {
		t[c] |= bUpper
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= bLower
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= bDigit
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] |= bHexL
		t[c-'a'+'A'] |= bHexU
	}
	for c, b := range map[byte]uint16{'_': bUnder, '-': bDash, '.': bDot, '+': bPlus, '/': bSlash, '=': bEq, '~': bTilde} {
		t[c] |= b
	}
	for _, c := range []byte("!@#$%^&*()") {
		t[c] |= bSym
	}
	for _, c := range []byte("_-.~/+AdELSGJBb:=\\") {
		t[c] |= bAnchor
	}
	t['['] |= bMarker
	return t
}()

func (m set) has(c byte) bool { return class[c]&uint16(m) != 0 }

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isAlnum(c byte) bool { return alnum.has(c) }
func isWord(c byte) bool  { return word.has(c) }

// mayContain reports whether a rule may change b.
func mayContain(b string) bool {
	var st candState
	for i := 0; i < len(b); i++ {
		gi := gateOf[b[i]]
		if gi == 0 {
			continue
		}
		// gates[gi].lets(b, i), written out: this loop is the hot path.
		g := &gates[gi]
		next := i+1 < len(b) && g.next[b[i+1]]
		var ok bool
		switch {
		case next != g.both:
			ok = next
		case i == 0:
		case g.pairs != nil && i >= 2:
			k := int(b[i-2])<<8 | int(b[i-1])
			ok = g.pairs[k/64]&(1<<(k%64)) != 0
		default:
			ok = g.prev[b[i-1]]
		}
		if ok && cand(b, i, &st) {
			return true
		}
	}
	return false
}

// gate is the first, cheapest test at an anchor: which bytes may stand
// before and after it for some rule to match there. cand says yes only
// where the gate lets it be asked (TestGateHoldsCand, FuzzJSONLine).
type gate struct {
	prev, next [256]bool
	both       bool // both neighbours must pass, not either one
	// pairs, when set, holds the two bytes that may stand before the
	// anchor (token prefixes ending in '_', '-' or '.'), in place of prev.
	pairs *pairSet
}

// pairSet is a set of two-byte strings.
type pairSet [65536 / 64]uint64

func (p *pairSet) add(a, b byte)      { k := int(a)<<8 | int(b); p[k/64] |= 1 << (k % 64) }
func (p *pairSet) has(a, b byte) bool { k := int(a)<<8 | int(b); return p[k/64]&(1<<(k%64)) != 0 }

// gates holds the gate of each anchor byte, by gateOf; both are filled
// once from the token table and the rules' own neighbours, never written
// after.
var gates, gateOf = func() (g []gate, of [256]uint8) {
	g = make([]gate, 1, 24) // gates[0]: not an anchor
	at := func(c byte) *gate {
		if of[c] == 0 {
			of[c] = uint8(len(g))
			g = append(g, gate{})
		}
		return &g[of[c]]
	}
	for c := range 256 {
		if class[c]&bAnchor != 0 {
			at(byte(c))
		}
	}
	for c, t := range byPrev {
		if t != nil {
			for p, list := range t {
				at(byte(c)).prev[p] = at(byte(c)).prev[p] || len(list) > 0
			}
		}
	}
	for c, t := range byNext {
		if t != nil {
			for n, list := range t {
				at(byte(c)).next[n] = at(byte(c)).next[n] || len(list) > 0
			}
		}
	}
	set := func(t *[256]bool, bs string) {
		for i := range len(bs) {
			t[bs[i]] = true
		}
	}
	// A key before ':' or '=': its last letter, or the quotes and spaces
	// keyBefore skips.
	var keyEnds string
	for c, list := range keywords {
		if list != nil {
			keyEnds += string(rune(c)) + string(rune(c-'a'+'A'))
		}
	}
	set(&at(':').prev, keyEnds+"\"'\\ \t0123456789")
	set(&at(':').next, "/")
	set(&at('=').prev, keyEnds+"\"'\\ \t")
	set(&at('\\').next, "u/")
	set(&at('J').prev, "y")
	set(&at('B').next, "eE")
	set(&at('b').next, "eE")
	set(&at('-').next, "-pu")
	set(&at('~').prev, "Q")
	set(&at('.').next, "a")
	set(&at('d').next, " ")
	for _, c := range []byte("/+") {
		gt := at(c)
		gt.both = true
		for b := range 256 {
			gt.prev[b], gt.next[b] = awsSet.has(byte(b)), awsSet.has(byte(b))
		}
	}
	// Separators are common in code and JSON (snake_case, dates, file
	// names): for them the gate reads the two bytes before.
	for _, c := range []byte("_-.") {
		gt := at(c)
		gt.pairs = new(pairSet)
		for i := range specs {
			sp := &specs[i]
			switch {
			case sp.pre[sp.at] != c:
			case sp.at >= 2:
				gt.pairs.add(sp.pre[sp.at-2], sp.pre[sp.at-1])
			case sp.at == 1:
				// One letter before: the byte before it starts a word.
				for x := range 256 {
					if !isWord(byte(x)) || strings.IndexByte("ntrbf", byte(x)) >= 0 {
						gt.pairs.add(byte(x), sp.pre[0])
					}
				}
			}
		}
	}
	return g, of
}()

// gated reports whether the gate of the anchor b[i] lets cand be asked.
func gated(b string, i int) bool { return gates[gateOf[b[i]]].lets(b, i) }

// lets reports whether the gate lets cand be asked at b[i].
func (g *gate) lets(b string, i int) bool {
	if i+1 < len(b) && g.next[b[i+1]] {
		if !g.both {
			return true
		}
	} else if g.both {
		return false
	}
	if i == 0 {
		return false
	}
	if g.pairs != nil && i >= 2 {
		k := int(b[i-2])<<8 | int(b[i-1])
		return g.pairs[k/64]&(1<<(k%64)) != 0
	}
	return g.prev[b[i-1]]
}

// candState keeps cand linear: the end of the last run a '/' or '+' was
// measured in, and whether the text names the commands whose flags
// rules read (found once, when first asked).
type candState struct {
	runEnd int
	words  [3]int8 // by ctxWord: 0 not looked for, 1 present, -1 absent
	// The key keyBefore found last, for the rule that asks next.
	key         secretKey
	keyAt, keyK int // the separator, the key's start
	keyJ        int // the key's end
	keyFound    bool
}

// Words that give a flag its meaning, by index into candState.words.
const (
	wordMySQL   = iota // mysql or mariadb: -pPASSWORD
	wordCurl           // curl: -u and --user user:password
	wordMachine        // .netrc: password VALUE
)

// names reports whether b names the command or file of word anywhere.
func names(st *candState, b string, word int) bool {
	if st.words[word] == 0 {
		found := false
		switch word {
		case wordMySQL:
			found = strings.Contains(b, "mysql") || strings.Contains(b, "mariadb")
		case wordCurl:
			found = strings.Contains(b, "curl")
		default:
			found = strings.Contains(b, "machine")
		}
		st.words[word] = -1
		if found {
			st.words[word] = 1
		}
	}
	return st.words[word] > 0
}

// cand runs the anchor's test at b[i]: whether some rule may match there.
func cand(b string, i int, st *candState) bool {
	c := b[i]
	switch c {
	case ':':
		return urlCand(b, i) || st.keyBefore(b, i) || telegramCand(b, i)
	case '=':
		return st.keyBefore(b, i)
	case '\\':
		return escapedASCII(b, i)
	case 'J':
		return jwtCand(b, i) || specCand(b, i)
	case 'B', 'b':
		return (hasPrefixFold(b, i, "bearer") && boundaryBefore(b, i)) || specCand(b, i)
	case '/', '+':
		if i < st.runEnd {
			return c == '/' && specCand(b, i)
		}
		lo, hi := awsRun(b, i)
		st.runEnd = hi
		return (hi-lo == awsSecretLen && isAlnum(b[lo]) && isAlnum(b[hi-1])) || (c == '/' && specCand(b, i))
	case '-':
		if i+1 < len(b) {
			switch b[i+1] {
			case '-':
				return hasPrefixAt(b, i, "-----BEGIN") || flagCand(b, i, st)
			case 'p':
				if shortFlagCand(b, i) && names(st, b, wordMySQL) {
					return true
				}
			case 'u':
				if shortFlagCand(b, i) && names(st, b, wordCurl) {
					return true
				}
			}
		}
		return specCand(b, i) || mailchimpCand(b, i)
	case '~':
		return specCand(b, i) || azureCand(b, i)
	case '.':
		return specCand(b, i) || hasPrefixAt(b, i, ".atlasv1.")
	case 'd':
		return specCand(b, i) || (netrcCand(b, i) && names(st, b, wordMachine))
	}
	return specCand(b, i)
}

// escapedASCII reports whether b[i] starts a JSON escape of a printable
// ASCII byte, \/ or \u0020 to \u007f, behind which any anchor may hide.
// Escapes of other characters (\u00e9, \u001b) decode to bytes no rule
// reads.
func escapedASCII(b string, i int) bool {
	if i+1 < len(b) && b[i+1] == '/' {
		return true
	}
	if i+5 >= len(b) || b[i+1] != 'u' || b[i+2] != '0' || b[i+3] != '0' {
		return false
	}
	return '2' <= b[i+4] && b[i+4] <= '7' && hexAny.has(b[i+5])
}

// boundaryBefore reports whether a word may start at b[k]: the byte
// before is not a letter, digit or '_', or it is the letter of a JSON
// escape such as \n, which stands for a space in the decoded text.
func boundaryBefore(b string, k int) bool {
	if k == 0 || !isWord(b[k-1]) {
		return true
	}
	return escapedAt(b, k-1)
}

// escapedAt reports whether b[j] is the letter of a \n, \t, \r, \b or \f
// escape.
func escapedAt(b string, j int) bool {
	switch b[j] {
	case 'n', 't', 'r', 'b', 'f':
		// An escaped backslash before the letter (\\n) is not an
		// escape, but saying yes there only costs a scan.
		return j > 0 && b[j-1] == '\\'
	}
	return false
}

// hasSuffixAt reports whether word ends just before b[i].
func hasSuffixAt(b string, i int, word string) bool {
	s := i - len(word)
	return s >= 0 && string(b[s:i]) == word
}

// hasPrefixAt reports whether b[i:] starts with word.
func hasPrefixAt(b string, i int, word string) bool {
	return i >= 0 && len(b)-i >= len(word) && string(b[i:i+len(word)]) == word
}

// hasPrefixFold is hasPrefixAt ignoring ASCII case; word is lower case.
func hasPrefixFold(b string, i int, word string) bool {
	return i >= 0 && len(b)-i >= len(word) && equalFold(b[i:i+len(word)], word)
}

// hasSuffixFold is hasSuffixAt ignoring ASCII case; word is lower case.
func hasSuffixFold(b string, i int, word string) bool {
	s := i - len(word)
	return s >= 0 && equalFold(b[s:i], word)
}

// equalFold compares ASCII bytes with a lower-case word.
func equalFold(b string, word string) bool {
	for k := range len(word) {
		if lower(b[k]) != word[k] {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}

// runOf returns how many bytes from b[i] are in m, counting at most limit.
func runOf(b string, i int, m set, limit int) int {
	n := 0
	for ; i+n < len(b) && n < limit && m.has(b[i+n]); n++ {
	}
	return n
}

// runBack returns how many bytes before b[i] are in m, counting at most
// limit.
func runBack(b string, i int, m set, limit int) int {
	n := 0
	for ; i-n > 0 && n < limit && m.has(b[i-n-1]); n++ {
	}
	return n
}
