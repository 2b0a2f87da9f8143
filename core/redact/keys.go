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
	// The key's letters and digits in lower case, from its end, with
	// where each came from.
	var norm [maxKey]byte
	var from [maxKey]int
	n := 0
	dash := false
	for p := j - 1; p >= k; p-- {
		c := b[p]
		if c == '-' {
			dash = true
		}
		if isAlnum(c) {
			norm[n], from[n] = lower(c), p
			n++
		}
	}
	if n == 0 {
		return secretKey{}, false
	}
	// norm is reversed: norm[0] is the last letter.
	ends := func(w string) bool {
		if len(w) > n {
			return false
		}
		for q := range len(w) {
			if norm[q] != w[len(w)-1-q] {
				return false
			}
		}
		return true
	}
	for _, kw := range keywords[norm[0]] {
		if !ends(kw.word) {
			continue
		}
		if kw.word == "token" {
			for _, w := range notSecret {
				if ends(w) {
					return secretKey{}, false
				}
			}
		}
		if kw.whole && !wordStart(b, k, from[len(kw.word)-1]) {
			continue
		}
		key := secretKey{kind: kw.kind, check: kw.check, dash: dash}
		rev := string(norm[:n])
		switch {
		case kw.kind == "authorization":
			key.auth = true
		case (kw.kind == "secret" || kw.kind == "access-key") && strings.Contains(rev, "terces") &&
			(strings.Contains(rev, "swa") || strings.Contains(rev, "ssecca")):
			// aws_secret_access_key, AWS_SECRET, SecretAccessKey.
			key.kind = "aws-secret-key"
		}
		return key, true
	}
	return secretKey{}, false
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
