package redact

import (
	"encoding/base64"
	"strings"
)

// keyword is the ending of a secret-named key, compared with the key in
// lower case and without its separators, so that "api_key", "api-key",
// "apiKey" and "X-API-Key" all end in "apikey".
type keyword struct {
	word string
	kind string
	// whole words must start a word of the key: db_pass and dbPass, not
	// compass; pwd, not OLDPWD.
	whole bool
	// check, when set, must accept the value (its text, decoded).
	check func(v string) bool
}

// keywords lists the endings, by their last byte. Keys that end in one
// but name something public (a page token, a token count) are in
// notSecret. Both are filled once, never written after.
var keywords = func() (t [256][]keyword) {
	for _, k := range []keyword{
		{word: "password", kind: "password"},
		{word: "passwd", kind: "password"},
		{word: "passphrase", kind: "password"},
		{word: "pwd", kind: "password", whole: true, check: notPath},
		{word: "pass", kind: "password", whole: true, check: notPath},
		{word: "secret", kind: "secret"},
		{word: "token", kind: "token"},
		{word: "authorization", kind: "authorization"},
		{word: "apikey", kind: "api-key"},
		{word: "appkey", kind: "api-key"},
		{word: "authkey", kind: "api-key"},
		{word: "licensekey", kind: "api-key"},
		{word: "accesskey", kind: "access-key"},
		{word: "secretkey", kind: "secret"},
		{word: "secretkeybase", kind: "secret"},
		{word: "masterkey", kind: "secret"},
		{word: "signingkey", kind: "secret"},
		{word: "encryptionkey", kind: "secret"},
		{word: "privatekey", kind: "private-key"},
		{word: "keydata", kind: "private-key"},
		{word: "accountkey", kind: "azure-storage-key"},
		{word: "auth", kind: "basic-auth", whole: true, check: basicAuthValue},
		{word: "sig", kind: "azure-sas", whole: true, check: sasSignature},
	} {
		c := k.word[len(k.word)-1]
		t[c] = append(t[c], k)
	}
	return t
}()

// keyEnding holds the last two letters of the keywords, last first:
// keyBefore's first test. Filled once, never written after.
var keyEnding = func() (t [256][256]bool) {
	for _, list := range keywords {
		for _, k := range list {
			t[k.word[len(k.word)-1]][k.word[len(k.word)-2]] = true
		}
	}
	return t
}()

// notSecret lists key endings that end in a keyword but hold no secret.
var notSecret = []string{"pagetoken", "nexttoken", "continuationtoken", "synctoken", "paginationtoken", "cursortoken"}

// maxKey bounds how far back a key is read.
const maxKey = 64

// secretKey is a secret-named key found before a separator.
type secretKey struct {
	kind  string
	check func(string) bool
	auth  bool // an Authorization header: the value may start with a scheme
	dash  bool // the key holds a '-' (a header or a flag), not code
}

// keyBefore reports whether a secret-named key ends just before the
// separator at b[i], skipping quotes, backslashes and spaces.
func keyBefore(b string, i int) bool {
	j := skipKeyQuotes(b, i)
	if j < 2 || !keyEnding[lower(b[j-1])][lower(b[j-2])] {
		return false
	}
	_, ok := keyAt(b, keyStart(b, j), j)
	return ok
}

// keyBefore is keyBefore, remembering what it found at i: the scanner's
// rule at the same separator asks next (lastKey).
func (st *candState) keyBefore(b string, i int) bool {
	st.keyAt, st.keyFound = -1, false
	j := skipKeyQuotes(b, i)
	if j < 2 || !keyEnding[lower(b[j-1])][lower(b[j-2])] {
		return false
	}
	k := keyStart(b, j)
	key, ok := keyAt(b, k, j)
	st.key, st.keyAt, st.keyK, st.keyJ, st.keyFound = key, i, k, j, ok
	return ok
}

// lastKey returns the key keyBefore found before the separator at i, if
// it was the last one asked about.
func (st *candState) lastKey(i int) (key secretKey, k, j int, ok bool) {
	if st.keyAt != i || !st.keyFound {
		return secretKey{}, 0, 0, false
	}
	return st.key, st.keyK, st.keyJ, true
}

// skipKeyQuotes returns where the key before the separator at b[i] ends:
// before at most 8 quotes, backslashes and spaces.
func skipKeyQuotes(b string, i int) int {
	j := i
	for k := 0; j > 0 && k < 8; k++ {
		switch b[j-1] {
		case '"', '\'', '\\', ' ', '\t':
			j--
			continue
		}
		break
	}
	return j
}

// keyStart returns where the key that ends at b[j] starts: after the
// letters, digits and _ . - before it, at most maxKey of them.
func keyStart(b string, j int) int {
	k := j
	for k > 0 && j-k < maxKey && (urlsafeDot.has(b[k-1])) {
		k--
	}
	return k
}

// keyAt reports whether b[k:j] is a secret-named key.
func keyAt(b string, k, j int) (secretKey, bool) {
	last := j - 1
	for last >= k && !isAlnum(b[last]) {
		last--
	}
	if last < k {
		return secretKey{}, false
	}
	for _, kw := range keywords[lower(b[last])] {
		start, ok := endsIn(b, k, j, kw.word)
		if !ok {
			continue
		}
		if kw.word == "token" && start > k && notSecretKey(b, k, j) {
			return secretKey{}, false
		}
		if kw.whole && !wordStart(b, k, start) {
			continue
		}
		key := secretKey{kind: kw.kind, check: kw.check, dash: strings.IndexByte(b[k:j], '-') >= 0}
		switch {
		case kw.kind == "authorization":
			key.auth = true
		case (kw.kind == "secret" || kw.kind == "access-key") && containsFold(b[k:j], "secret") &&
			(containsFold(b[k:j], "aws") || containsFold(b[k:j], "access")):
			// aws_secret_access_key, AWS_SECRET, SecretAccessKey.
			key.kind = "aws-secret-key"
		}
		return key, true
	}
	return secretKey{}, false
}

// endsIn reports whether the key b[k:j] ends in word, its letters and
// digits compared in lower case and its separators skipped; start is
// where the word's first letter is.
func endsIn(b string, k, j int, word string) (start int, ok bool) {
	p := j - 1
	for q := len(word) - 1; q >= 0; q-- {
		for p >= k && !isAlnum(b[p]) {
			p--
		}
		if p < k || lower(b[p]) != word[q] {
			return 0, false
		}
		p--
	}
	return p + 1, true
}

// notSecretKey reports whether a key that ends in "token" names a cursor
// rather than a credential.
func notSecretKey(b string, k, j int) bool {
	p := j - 1
	for n := 0; n < len("token"); p-- {
		if isAlnum(b[p]) {
			n++
		}
	}
	for p >= k && !isAlnum(b[p]) {
		p--
	}
	// The letter before "token": every word of notSecret ends in one of
	// these before it.
	if p < k || strings.IndexByte("etncr", lower(b[p])) < 0 {
		return false
	}
	for _, w := range notSecret {
		if _, ok := endsIn(b, k, j, w); ok {
			return true
		}
	}
	return false
}

// containsFold reports whether s holds word (lower case) in any case.
func containsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		if equalFold(s[i:i+len(word)], word) {
			return true
		}
	}
	return false
}

// wordStart reports whether a word of the key b[k:] starts at b[p]: at the
// key's start, after a separator or a digit, or at a capital after a small
// letter (camelCase).
func wordStart(b string, k, p int) bool {
	if p == k {
		return true
	}
	prev := b[p-1]
	if !letters.has(prev) {
		return true
	}
	return isUpper(b[p]) && !isUpper(prev)
}

// notPath rejects values of pass and pwd that are paths or numbers: PWD
// is the working folder in every shell environment.
func notPath(v string) bool {
	if len(v) < 4 || strings.ContainsAny(v[:1], "/~.") || strings.Contains(v, "/") {
		return false
	}
	return strings.Trim(v, "0123456789") != ""
}

// basicAuthValue accepts the value of an auth key that is base64 of
// user:password, as docker's config.json and .npmrc keep it.
func basicAuthValue(v string) bool {
	if len(v) < 8 || len(v) > 1024 {
		return false
	}
	d, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		d, err = base64.RawStdEncoding.DecodeString(v)
	}
	return err == nil && strings.IndexByte(string(d), ':') > 0
}

// sasSignature accepts the value of a sig parameter that looks like an
// Azure SAS signature: URL-encoded base64 of 32 bytes.
func sasSignature(v string) bool {
	if len(v) < 20 {
		return false
	}
	for i := range len(v) {
		if !b64.has(v[i]) && v[i] != '%' {
			return false
		}
	}
	return true
}
