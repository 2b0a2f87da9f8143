// Package redact removes secrets from text before it is written down: cloud
// and SaaS API keys, tokens, private-key blocks, bearer credentials,
// passwords in URLs and password/secret/token assignments. Each secret is
// replaced by a marker naming its kind, `[REDACTED:github-token]`.
//
// Identifiers that link events (toolu_…, call_…, msg_…, item_…, UUIDs, git
// hashes, sha256 digests) never match a pattern and pass untouched.
//
// Redaction is built for the capture hot path: a cheap byte scan (see
// prefilter.go) rejects almost every line before any regular expression
// runs, and a line without a secret is returned as the same slice.
package redact

import (
	"regexp"
	"strings"
)

// Prefix starts every replacement; a value that already starts with it is
// not redacted twice.
const Prefix = "[REDACTED:"

// marker returns the replacement text for a kind of secret.
func marker(kind string) string { return Prefix + kind + "]" }

// rule is one secret pattern. When group is 0 the whole match is replaced;
// otherwise only that submatch is, keeping the surrounding text (the word
// "Bearer", the URL's user name).
type rule struct {
	kind  string
	when  mask // the prefilter bit that must be set
	re    *regexp.Regexp
	group int
}

// rules are applied in order: specific token shapes first, so that an
// assignment such as GITHUB_TOKEN=ghp_… is labelled by the token's shape,
// and the generic assignment rule last (it skips values already redacted).
// The compiled expressions are immutable and safe for concurrent use.
var rules = []rule{
	{"private-key", mPrivateKey, regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----(?s:.*?)(?:-----END[A-Z0-9 ]*PRIVATE KEY-----|$)`), 0},
	{"aws-access-key", mAWS, regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}\b`), 0},
	{"github-token", mGitHub, regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})\b`), 0},
	{"anthropic-key", mSK, regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`), 0},
	{"openai-key", mSK, regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`), 0},
	{"google-api-key", mGoogle, regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`), 0},
	{"slack-token", mSlack, regexp.MustCompile(`\b(?:xox[abposre]-[A-Za-z0-9-]{10,}|xapp-[0-9]+-[A-Za-z0-9-]{10,})`), 0},
	{"slack-webhook", mSlackHook, regexp.MustCompile(`https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,}`), 0},
	{"stripe-key", mStripe, regexp.MustCompile(`\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{20,})`), 0},
	{"jwt", mJWT, regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`), 0},
	{"bearer-token", mBearer, regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/-]{8,}=*)`), 1},
	{"basic-auth", mAuth, regexp.MustCompile(`(?i)\bauthorization["'\\]*\s*[:=]\s*["'\\]*(?:basic|token|digest)\s+([A-Za-z0-9._~+/-]{6,}=*)`), 1},
	{"url-password", mURL, regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@"'\\]+:([^\s@/"'\\]+)@`), 1},
}

// String returns s with every secret replaced by its marker. It returns s
// itself when nothing was found.
func String(s string) string {
	m := mayContain(s)
	if m == 0 {
		return s
	}
	return redactString(s, m)
}

// Bytes returns b with every secret replaced by its marker. It returns b
// itself (no copy) when nothing was found.
func Bytes(b []byte) []byte {
	m := mayContain(b)
	if m == 0 {
		return b
	}
	s := string(b)
	if r := redactString(s, m); r != s {
		return []byte(r)
	}
	return b
}

// redactString applies the rules the prefilter's mask allows.
func redactString(s string, m mask) string {
	for _, r := range rules {
		if m&r.when != 0 {
			s = r.apply(s)
		}
	}
	if m&mAssign != 0 {
		s = applyAssignment(s)
	}
	return s
}

// apply replaces the rule's matches in s.
func (r rule) apply(s string) string {
	idx := r.re.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, m := range idx {
		lo, hi := m[2*r.group], m[2*r.group+1]
		if lo < 0 || lo < last || strings.Contains(s[lo:hi], Prefix) || insideMarker(s, lo) {
			continue
		}
		b.WriteString(s[last:lo])
		b.WriteString(marker(r.kind))
		last = hi
	}
	b.WriteString(s[last:])
	return b.String()
}

// insideMarker reports whether s[i] is within a `[REDACTED:kind]` marker,
// so that a second pass never redacts a marker's own text.
func insideMarker(s string, i int) bool {
	j := strings.LastIndex(s[:i], Prefix)
	return j >= 0 && !strings.Contains(s[j:i], "]")
}

// applyAssignment redacts the values of secret-named keys: `key = value`,
// `key: "value"`, `"key": "value"` (also with escaped quotes, for JSON
// nested in a string), where the key ends in password, passwd, secret,
// token, api_key, access_key, secret_key or private_key (any case, any
// separator). A bare value (no quotes) counts only after `=`, and only
// when it ends the expression: `token = config["x"]` and `token: str` are
// code, not secrets. It is a scanner rather than a regular expression:
// anchored on the separators, it costs little on long text.
func applyAssignment(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if (s[i] != ':' && s[i] != '=') || keyBefore(s, i) != mAssign {
			continue
		}
		key := keyAt(s, i)
		if key == "" {
			continue
		}
		lo, hi, ok := valueAt(s, i+1, s[i] == '=')
		if !ok {
			continue
		}
		v := s[lo:hi]
		if strings.Contains(v, Prefix) || strings.HasPrefix(v, "$") || insideMarker(s, lo) {
			continue
		}
		b.WriteString(s[last:lo])
		b.WriteString(marker(assignmentKind(key)))
		last = hi
		i = hi - 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// keyAt returns the key that ends before the separator at s[i]: the
// letters, digits and `_.-` before the quotes and spaces keyBefore skips.
func keyAt(s string, i int) string {
	j := i
	for j > 0 && strings.IndexByte("\"'\\ \t", s[j-1]) >= 0 && i-j < 8 {
		j--
	}
	k := j
	for k > 0 && (isAlnum(s[k-1]) || s[k-1] == '_' || s[k-1] == '.' || s[k-1] == '-') {
		k--
	}
	return s[k:j]
}

// valueAt finds the value that starts after a separator at s[i:]: a
// double-quoted value (quotes may be escaped), a single-quoted one, or,
// when bare is allowed, a run of characters that ends the expression.
func valueAt(s string, i int, bare bool) (lo, hi int, ok bool) {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := i
	for j < len(s) && s[j] == '\\' {
		j++
	}
	if j < len(s) && s[j] == '"' {
		lo = j + 1
		hi = lo
		for hi < len(s) && s[hi] != '"' && s[hi] != '\\' && s[hi] != '\n' {
			hi++
		}
		k := hi
		for k < len(s) && s[k] == '\\' {
			k++
		}
		return lo, hi, hi > lo && k < len(s) && s[k] == '"'
	}
	if i < len(s) && s[i] == '\'' {
		lo = i + 1
		hi = lo
		for hi < len(s) && s[hi] != '\'' && s[hi] != '\n' {
			hi++
		}
		return lo, hi, hi > lo && hi < len(s)
	}
	if !bare {
		return 0, 0, false
	}
	hi = i
	for hi < len(s) && !stopsBare(s[hi]) {
		hi++
	}
	return i, hi, hi > i && bareValueEnds(s, hi) && secretLike(s[i:hi])
}

// stopsBare reports whether c ends a bare value.
func stopsBare(c byte) bool {
	return c <= ' ' || strings.IndexByte("\"'\\,;&<>(){}[]`", c) >= 0
}

// bareValueEnds reports whether a bare value ending at i is a whole value
// rather than the start of an expression (a call, an index, a field).
func bareValueEnds(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	switch s[i] {
	case '(', '[', '{', '<':
		return false
	}
	return true
}

// secretLike rejects bare values that are language literals.
func secretLike(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "null", "nil", "none", "undefined":
		return false
	}
	return true
}

// assignmentKind names the secret by the key's last word.
func assignmentKind(key string) string {
	k := strings.ToLower(key)
	switch {
	case strings.Contains(k, "secret") && (strings.Contains(k, "aws") || strings.Contains(k, "access")):
		return "aws-secret-key"
	case strings.HasSuffix(k, "password") || strings.HasSuffix(k, "passwd"):
		return "password"
	case strings.HasSuffix(k, "secret") || strings.HasSuffix(k, "secret_key") || strings.HasSuffix(k, "secret-key") || strings.HasSuffix(k, "secretkey"):
		return "secret"
	case strings.HasSuffix(k, "token"):
		return "token"
	case strings.HasSuffix(k, "private_key") || strings.HasSuffix(k, "private-key") || strings.HasSuffix(k, "privatekey"):
		return "private-key"
	case strings.HasSuffix(k, "access_key") || strings.HasSuffix(k, "access-key") || strings.HasSuffix(k, "accesskey"):
		return "access-key"
	default:
		return "api-key"
	}
}
