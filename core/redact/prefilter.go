package redact

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
//	'\\'                 \u and \/ escapes of a JSON line, behind which
//	                     any anchor may hide

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
func mayContain[T ~string | ~[]byte](b T) bool {
	var st candState
	for i := 0; i < len(b); i++ {
		if class[b[i]]&bAnchor != 0 && cand(b, i, &st) {
			return true
		}
	}
	return false
}

// candState keeps cand linear on long runs: the end of the last run a
// '/' or '+' was measured in.
type candState struct{ runEnd int }

// cand runs the anchor's test at b[i]: whether some rule may match there.
func cand[T ~string | ~[]byte](b T, i int, st *candState) bool {
	c := b[i]
	switch c {
	case ':':
		return urlCand(b, i) || keyBefore(b, i) || telegramCand(b, i)
	case '=':
		return keyBefore(b, i)
	case '\\':
		return i+1 < len(b) && (b[i+1] == 'u' || b[i+1] == '/')
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
		return hi-lo == awsSecretLen || (c == '/' && specCand(b, i))
	case '-':
		if i+1 < len(b) {
			switch b[i+1] {
			case '-':
				return hasPrefixAt(b, i, "-----BEGIN") || flagCand(b, i)
			case 'p', 'u':
				if shortFlagCand(b, i) {
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
		return specCand(b, i) || netrcCand(b, i)
	}
	return specCand(b, i)
}

// boundaryBefore reports whether a word may start at b[k]: the byte
// before is not a letter, digit or '_', or it is the letter of a JSON
// escape such as \n, which stands for a space in the decoded text.
func boundaryBefore[T ~string | ~[]byte](b T, k int) bool {
	if k == 0 || !isWord(b[k-1]) {
		return true
	}
	return escapedAt(b, k-1)
}

// escapedAt reports whether b[j] is the letter of a \n, \t, \r, \b or \f
// escape.
func escapedAt[T ~string | ~[]byte](b T, j int) bool {
	switch b[j] {
	case 'n', 't', 'r', 'b', 'f':
		// An escaped backslash before the letter (\\n) is not an
		// escape, but saying yes there only costs a scan.
		return j > 0 && b[j-1] == '\\'
	}
	return false
}

// hasSuffixAt reports whether word ends just before b[i].
func hasSuffixAt[T ~string | ~[]byte](b T, i int, word string) bool {
	s := i - len(word)
	return s >= 0 && string(b[s:i]) == word
}

// hasPrefixAt reports whether b[i:] starts with word.
func hasPrefixAt[T ~string | ~[]byte](b T, i int, word string) bool {
	return i >= 0 && len(b)-i >= len(word) && string(b[i:i+len(word)]) == word
}

// hasPrefixFold is hasPrefixAt ignoring ASCII case; word is lower case.
func hasPrefixFold[T ~string | ~[]byte](b T, i int, word string) bool {
	return i >= 0 && len(b)-i >= len(word) && equalFold(b[i:i+len(word)], word)
}

// hasSuffixFold is hasSuffixAt ignoring ASCII case; word is lower case.
func hasSuffixFold[T ~string | ~[]byte](b T, i int, word string) bool {
	s := i - len(word)
	return s >= 0 && equalFold(b[s:i], word)
}

// equalFold compares ASCII bytes with a lower-case word.
func equalFold[T ~string | ~[]byte](b T, word string) bool {
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
func runOf[T ~string | ~[]byte](b T, i int, m set, limit int) int {
	n := 0
	for ; i+n < len(b) && n < limit && m.has(b[i+n]); n++ {
	}
	return n
}

// runBack returns how many bytes before b[i] are in m, counting at most
// limit.
func runBack[T ~string | ~[]byte](b T, i int, m set, limit int) int {
	n := 0
	for ; i-n > 0 && n < limit && m.has(b[i-n-1]); n++ {
	}
	return n
}
