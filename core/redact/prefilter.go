package redact

// The prefilter decides, in one pass over the bytes, whether a line may
// hold a secret. It must never say no to a line a rule would change; it may
// say yes to a line none changes (that line only costs the regexps).
//
// Every rule has an anchor byte that is rare in agent streams, checked
// through a table, and a short test around the anchor:
//
//	'A'  AKIA…/ASIA… (AWS), AIza (Google)
//	'_'  gh?_, github_pat_ (GitHub), sk_/rk_ live/test, whsec_ (Stripe)
//	'-'  sk- (Anthropic, OpenAI), xox?-, xapp- (Slack), -----BEGIN
//	'J'  eyJ (JWT)
//	'B' 'b'  bearer (any case)
//	':' '='  a secret-named key before it (password, token, …), "://"
//	'h'  hooks.slack.com is covered by "://"

// anchor marks the bytes the scan stops at. It and the tables below are
// lookup tables filled once, never written after.
var anchor = func() (t [256]bool) {
	for _, c := range []byte("A_-JBb:=") {
		t[c] = true
	}
	return t
}()

// keyEnd marks the last letters of keyWords and "authorization" (d, t, n,
// y in either case); underEnd the bytes before '_' in a token prefix
// (gh[pousr]_, github_, sk_, rk_, whsec_); dashEnd the bytes before '-' in
// one (sk-, xapp-, xox[abposre]-) and '-' itself (-----BEGIN).
var keyEnd, underEnd, dashEnd = bytesSet("dtnyDTNY"), bytesSet("pousrbkc"), bytesSet("kpabosre-")

func bytesSet(s string) (t [256]bool) {
	for i := range len(s) {
		t[s[i]] = true
	}
	return t
}

// mask says which rules may match: one bit per family of rules.
type mask uint16

const (
	mPrivateKey mask = 1 << iota
	mAWS
	mGitHub
	mSK // Anthropic and OpenAI, sk-…
	mGoogle
	mSlack
	mSlackHook
	mStripe
	mJWT
	mBearer
	mURL
	mAssign // secret-named keys
	mAuth   // Authorization headers
)

// mayContain returns the rules that may match b; 0 when none can.
func mayContain[T ~string | ~[]byte](b T) mask {
	var m mask
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !anchor[c] {
			continue
		}
		// Cheap rejections of the common anchors in JSON before the call:
		// a `"key":` whose key cannot end in a secret word, a snake_case
		// key, a dash in a UUID or a date.
		if i > 1 && i+1 < len(b) {
			switch prev, next := b[i-1], b[i+1]; c {
			case ':':
				if prev == '"' && isAlnum(b[i-2]) && !keyEnd[b[i-2]] && next != '/' {
					continue
				}
			case '_':
				if !underEnd[prev] {
					continue
				}
			case '-':
				if !dashEnd[prev] && next != '-' {
					continue
				}
			case 'A':
				if !isUpper(next) {
					continue
				}
			case 'B', 'b':
				if next != 'e' && next != 'E' {
					continue
				}
			case 'J':
				if prev != 'y' {
					continue
				}
			}
		}
		m |= hit(b, i)
	}
	return m
}

// hit runs the anchor's test at b[i].
func hit[T ~string | ~[]byte](b T, i int) mask {
	switch b[i] {
	case 'A':
		// AKIA, ASIA, … and AIza: a capital A then three letters.
		if i+4 > len(b) {
			return 0
		}
		if string(b[i+1:i+4]) == "Iza" {
			return mGoogle
		}
		// The whole key id, as the rule wants it: the prefix and 16
		// capitals or digits, then no word byte. (Shell text such as `B=AKIA; …` is common in
		// agent commands; the regular expression would only reject it.)
		if awsPrefix(b[i:i+4]) && runOf(b, i+4, isUpperOrDigit) == 16 &&
			(i+20 == len(b) || !isWordByte(b[i+20])) {
			return mAWS
		}
	case '_':
		switch {
		case hasSuffixAt(b, i, "ghp") || hasSuffixAt(b, i, "gho") || hasSuffixAt(b, i, "ghu") ||
			hasSuffixAt(b, i, "ghs") || hasSuffixAt(b, i, "ghr"):
			// As the rule: at least 30 letters or digits after the prefix.
			if runOf(b, i+1, isAlnum) >= 30 {
				return mGitHub
			}
		case hasSuffixAt(b, i, "github"):
			if hasPrefixAt(b, i, "_pat_") && runOf(b, i+5, isWordByte) >= 22 {
				return mGitHub
			}
		case hasSuffixAt(b, i, "sk") || hasSuffixAt(b, i, "rk") || hasSuffixAt(b, i, "whsec"):
			return mStripe
		}
	case '-':
		switch {
		case hasSuffixAt(b, i, "sk"):
			return mSK
		case hasSuffixAt(b, i, "xapp") || (i >= 4 && hasSuffixAt(b, i-1, "xox")):
			return mSlack
		case hasPrefixAt(b, i, "-----BEGIN"):
			return mPrivateKey
		}
	case 'J':
		if hasSuffixAt(b, i, "ey") {
			return mJWT
		}
	case 'B', 'b':
		if hasPrefixFold(b, i, "bearer") {
			return mBearer
		}
	case ':':
		var m mask
		if hasPrefixAt(b, i, "://") {
			if hasPrefixAt(b, i, "://hooks.slack.com/") {
				m |= mSlackHook
			}
			if userInfo(b, i+3) {
				m |= mURL
			}
		}
		return m | keyBefore(b, i)
	case '=':
		return keyBefore(b, i)
	}
	return 0
}

// userInfo reports whether the text after "://" at b[i:] may be
// `user:password@`. It accepts quotes and backslashes, which in an encoded
// JSON string may stand for characters the URL rule accepts.
func userInfo[T ~string | ~[]byte](b T, i int) bool {
	colon := false
	for j := i; j < len(b) && j < i+512; j++ {
		switch b[j] {
		case ' ', '\t', '\n', '\r', '\f', '\v', '/':
			return false
		case ':':
			colon = true
		case '@':
			return colon
		}
	}
	return false
}

// awsPrefix reports whether four bytes are an AWS key id prefix.
func awsPrefix[T ~string | ~[]byte](p T) bool {
	switch string(p) {
	case "AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AIPA", "ANPA", "ANVA", "AROA", "APKA", "ASCA":
		return true
	}
	return false
}

// keyWords are the endings of secret-named keys, lower case, by their last
// letter. The assignment scanner and the JSON key rule use this family.
var keyWords = [4][]string{
	{"password", "passwd"},
	{"secret"},
	{"token"},
	{"apikey", "api_key", "api-key", "access_key", "access-key", "accesskey",
		"secret_key", "secret-key", "secretkey", "private_key", "private-key", "privatekey"},
}

// keyKindBefore returns mAssign when a secret-named key ends at b[j] (and
// mAuth for "authorization"), else 0.
func keyKindBefore[T ~string | ~[]byte](b T, j int) mask {
	var words []string
	switch lower(b[j-1]) {
	case 'd':
		words = keyWords[0]
	case 't':
		words = keyWords[1]
	case 'n':
		if j >= 13 && equalFold(b[j-13:j], "authorization") {
			return mAuth
		}
		words = keyWords[2]
	case 'y':
		words = keyWords[3]
	default:
		return 0
	}
	for _, w := range words {
		if j >= len(w) && equalFold(b[j-len(w):j], w) {
			return mAssign
		}
	}
	return 0
}

// keyBefore returns the mask of a secret-named key that ends just before
// the separator at b[i], skipping quotes, backslashes and spaces.
func keyBefore[T ~string | ~[]byte](b T, i int) mask {
	j := i
	for k := 0; j > 0 && k < 8; k++ {
		c := b[j-1]
		if c != '"' && c != '\'' && c != '\\' && c != ' ' && c != '\t' {
			break
		}
		j--
	}
	if j == 0 {
		return 0
	}
	return keyKindBefore(b, j)
}

// hasSuffixAt reports whether word ends just before b[i] and starts a word
// (the byte before it is not a letter or digit).
func hasSuffixAt[T ~string | ~[]byte](b T, i int, word string) bool {
	s := i - len(word)
	if s < 0 || string(b[s:i]) != word {
		return false
	}
	return s == 0 || !isAlnum(b[s-1])
}

// hasPrefixAt reports whether b[i:] starts with word.
func hasPrefixAt[T ~string | ~[]byte](b T, i int, word string) bool {
	return len(b)-i >= len(word) && string(b[i:i+len(word)]) == word
}

// hasPrefixFold is hasPrefixAt ignoring ASCII case.
func hasPrefixFold[T ~string | ~[]byte](b T, i int, word string) bool {
	return len(b)-i >= len(word) && equalFold(b[i:i+len(word)], word)
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
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// runOf returns how many bytes from b[i] satisfy ok, counting at most 64.
// The rules' bodies are ASCII that JSON never escapes, so the raw bytes of
// an encoded line show them as the decoded text would.
func runOf[T ~string | ~[]byte](b T, i int, ok func(byte) bool) int {
	n := 0
	for ; i+n < len(b) && n < 64 && ok(b[i+n]); n++ {
	}
	return n
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

func isUpper(c byte) bool        { return 'A' <= c && c <= 'Z' }
func isUpperOrDigit(c byte) bool { return isUpper(c) || ('0' <= c && c <= '9') }
func isAlnum(c byte) bool        { return isUpperOrDigit(c) || ('a' <= c && c <= 'z') }
