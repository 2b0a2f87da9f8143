package redact

import "strings"

// Rules for secrets with more structure than a prefix and a body: key
// blocks, URLs, JWTs, bearer tokens and a few provider shapes. Each has a
// cand function (the prefilter's test, generic) and an At method (the
// scanner's match), which starts with the same test.

// pemAt matches a private-key block from its BEGIN line to its END line,
// or to the end of the text when the END line is missing (a cut output):
// PEM keys of every algorithm, OpenSSH keys and PGP private key blocks.
func (sc *scanner) pemAt(i int) int {
	s := sc.s
	if !hasPrefixAt(s, i, "-----BEGIN") {
		return 0
	}
	end, ok := keyLabel(s, i+len("-----BEGIN"))
	if !ok {
		return 0
	}
	for p := end; ; {
		j := strings.Index(s[p:], "-----END")
		if j < 0 {
			break
		}
		if e, ok := keyLabel(s, p+j+len("-----END")); ok {
			if sc.add(i, e, "private-key", cont{}) {
				return e
			}
			return 0
		}
		p += j + len("-----END")
	}
	if sc.add(i, len(s), "private-key", cont{pem: true}) {
		return len(s)
	}
	return 0
}

// keyLabel reads the label of a BEGIN or END line from s[j]: capitals,
// digits and spaces ending in "PRIVATE KEY" or "PRIVATE KEY BLOCK", then
// five dashes. It returns the end of the dashes.
func keyLabel(s string, j int) (int, bool) {
	k := j
	for k < len(s) && k-j < 48 && (isUpper(s[k]) || isDigit(s[k]) || s[k] == ' ') {
		k++
	}
	label := s[j:k]
	if !strings.HasSuffix(label, "PRIVATE KEY") && !strings.HasSuffix(label, "PRIVATE KEY BLOCK") {
		return 0, false
	}
	if !hasPrefixAt(s, k, "-----") {
		return 0, false
	}
	return k + 5, true
}

// urlCand is the test of "://" at b[i]: a webhook's host, or a user and
// password before an '@'.
func urlCand(b string, i int) bool {
	if !hasPrefixAt(b, i, "://") || i == 0 || !letters.has(b[i-1]) {
		return false
	}
	if webhookLen(b, i+3) > 0 {
		return true
	}
	colon := false
	for j := i + 3; j < len(b) && j < i+512; j++ {
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

// urlAt matches a webhook URL whole, or the password of a URL's user
// (postgres://app:PASSWORD@db, redis://:PASSWORD@cache).
func (sc *scanner) urlAt(i int) int {
	s := sc.s
	if !urlCand(s, i) {
		return 0
	}
	if n := webhookLen(s, i+3); n > 0 {
		k := i - runBack(s, i, letters, 16)
		if sc.add(k, i+3+n, webhookKind(s, i+3), cont{in: urlsafe | set(bSlash)}) {
			return i + 3 + n
		}
		return 0
	}
	if sc.inner {
		return 0
	}
	u := i + 3
	j := u
	for j < len(s) && j-u <= 256 && !stopsUser(s[j]) {
		j++
	}
	if j >= len(s) || s[j] != ':' {
		return 0
	}
	p := j + 1
	q := p
	for q < len(s) && !stopsPass(s[q]) {
		q++
	}
	if q == p || q >= len(s) || s[q] != '@' || sc.nextMarker(u) < q {
		return 0
	}
	// The user may be a token too (https://ghp_…:x-oauth-basic@github.com).
	sc.tokensIn(u, j)
	return sc.value(p, q, "url-password", cont{})
}

// stopsUser reports whether c ends the user or password of a URL.
func stopsUser(c byte) bool {
	return c <= ' ' || strings.IndexByte(":/@\"'\\", c) >= 0
}

// stopsPass reports whether c ends the password of a URL (which may hold
// a ':').
func stopsPass(c byte) bool {
	return c <= ' ' || strings.IndexByte("/@\"'\\", c) >= 0
}

// webhookLen returns the length of a webhook URL's rest at b[j] (after
// "://"): Slack, Discord and Microsoft Teams incoming webhooks, whose URL
// is the credential.
func webhookLen(b string, j int) int {
	path := urlsafe | set(bSlash)
	switch {
	case hasPrefixAt(b, j, "hooks.slack.com/services/"):
		if n := runOf(b, j+25, path, len(b)); n >= 20 {
			return 25 + n
		}
	case hasPrefixAt(b, j, "discord.com/api/webhooks/"), hasPrefixAt(b, j, "discordapp.com/api/webhooks/"):
		k := j + len("discord.com/api/webhooks/")
		if b[j+7] == 'a' {
			k += len("app")
		}
		d := runOf(b, k, set(bDigit), 24)
		if d >= 10 && k+d < len(b) && b[k+d] == '/' {
			if n := runOf(b, k+d+1, urlsafe, len(b)); n >= 60 {
				return k + d + 1 + n - j
			}
		}
	default:
		h := runOf(b, j, set(bLower|bDigit|bDot|bDash), 128)
		if hasSuffixAt(b, j+h, ".webhook.office.com") && hasPrefixAt(b, j+h, "/webhookb2/") {
			if n := runOf(b, j+h+11, alnum|set(bDash|bUnder|bDot|bSlash)|set(bSym), len(b)); n >= 40 {
				return h + 11 + n
			}
		}
	}
	return 0
}

// webhookKind names the webhook at s[j].
func webhookKind(s string, j int) string {
	switch s[j] {
	case 'h':
		return "slack-webhook"
	case 'd':
		return "discord-webhook"
	}
	return "teams-webhook"
}

// telegramCand is the test of a Telegram bot token's ':' at b[i]: 8 to
// 10 digits before it (at a word's start, or after "bot" in an API URL),
// 35 letters, digits, '_' and '-' after it.
func telegramCand(b string, i int) bool {
	d := runBack(b, i, set(bDigit), 11)
	if d < 8 || d > 10 {
		return false
	}
	k := i - d
	if !boundaryBefore(b, k) && !hasSuffixAt(b, k, "bot") {
		return false
	}
	return runOf(b, i+1, urlsafe, 36) == 35
}

// telegramAt matches a Telegram bot token.
func (sc *scanner) telegramAt(i int) int {
	s := sc.s
	if !telegramCand(s, i) || (i+36 < len(s) && isAlnum(s[i+36])) || !mixedBody(s[i+1:i+36]) {
		return 0
	}
	k := i - runBack(s, i, set(bDigit), 11)
	if sc.add(k, i+36, "telegram-bot-token", cont{in: urlsafe}) {
		return i + 36
	}
	return 0
}

// jwtCand is the test of a JWT's 'J' at b[i]: "eyJ" starting a word, and
// more of the header after it.
func jwtCand(b string, i int) bool {
	return i >= 2 && b[i-2] == 'e' && b[i-1] == 'y' && boundaryBefore(b, i-2) &&
		i+1 < len(b) && urlsafe.has(b[i+1])
}

// jwtAt matches a JSON web token: header and payload (each eyJ and at
// least 8 more bytes) and a signature, which may be empty.
func (sc *scanner) jwtAt(i int) int {
	s := sc.s
	if i < sc.jwtFail || !jwtCand(s, i) {
		return 0
	}
	h := i + 1 + runOf(s, i+1, urlsafe, len(s))
	if h-i-1 < 8 || h >= len(s) || s[h] != '.' || !hasPrefixAt(s, h+1, "eyJ") {
		// Every candidate up to h ends its header at h too.
		sc.jwtFail = h
		return 0
	}
	p := h + 4 + runOf(s, h+4, urlsafe, len(s))
	if p-h-4 < 8 || p >= len(s) || s[p] != '.' {
		sc.jwtFail = p
		return 0
	}
	e := p + 1 + runOf(s, p+1, urlsafe, len(s))
	if sc.add(i-2, e, "jwt", cont{in: urlsafe | set(bDot)}) {
		return e
	}
	return 0
}

// bearerSet holds the bytes of a bearer token (RFC 6750's b64token).
const bearerSet = alnum | set(bDot|bUnder|bTilde|bPlus|bSlash|bDash)

// bearerAt matches the token after "Bearer ": at least 8 bytes that look
// like a token (a digit in them, or 20 bytes in mixed case), so that
// "Bearer authentication" is prose.
func (sc *scanner) bearerAt(i int) int {
	s := sc.s
	if sc.inner || !hasPrefixFold(s, i, "bearer") || !boundaryBefore(s, i) {
		return 0
	}
	j := i + len("bearer")
	n := 0
	for j < len(s) && n < 4 && (s[j] == ' ' || s[j] == '\t') {
		j++
		n++
	}
	if n == 0 {
		return 0
	}
	k := j + runOf(s, j, bearerSet, len(s))
	for k < len(s) && s[k] == '=' {
		k++
	}
	if !tokenLike(s[j:k], 8) {
		return 0
	}
	return sc.value(j, k, "bearer-token", cont{in: bearerSet | set(bEq)})
}

// tokenLike reports whether v, of at least min bytes, looks generated
// rather than written: it holds a digit, or it is long and in mixed case.
func tokenLike(v string, min int) bool {
	if len(v) < min {
		return false
	}
	upper, low := false, false
	for i := range len(v) {
		switch c := v[i]; {
		case isDigit(c):
			return true
		case isUpper(c):
			upper = true
		case 'a' <= c && c <= 'z':
			low = true
		}
	}
	return len(v) >= 20 && upper && low
}

// awsSecretLen is the length of an AWS secret access key.
const awsSecretLen = 40

// awsSet holds the bytes of an AWS secret access key.
const awsSet = alnum | set(bPlus|bSlash)

// awsRun returns the run of awsSet bytes around b[i], reading at most 41
// bytes back (a longer run is not a key). A letter that ends a JSON
// escape (\n) is not part of it.
func awsRun(b string, i int) (lo, hi int) {
	lo = i
	for lo > 0 && i-lo <= awsSecretLen && awsSet.has(b[lo-1]) && !escapedAt(b, lo-1) {
		lo--
	}
	hi = i + 1
	for hi < len(b) && awsSet.has(b[hi]) {
		hi++
	}
	return lo, hi
}

// awsAt matches an AWS secret access key without a label: 40 bytes of
// base64 with a '/' or '+' (the anchor), in mixed case with digits, and
// not a path (no part of it is a word).
func (sc *scanner) awsAt(i int) int {
	s := sc.s
	lo, hi := awsRun(s, i)
	if hi-lo != awsSecretLen || !isAlnum(s[lo]) || !isAlnum(s[hi-1]) {
		return 0
	}
	if hi < len(s) && strings.IndexByte("=._-", s[hi]) >= 0 || lo > 0 && strings.IndexByte("._-", s[lo-1]) >= 0 {
		return 0
	}
	if !randomKey(s[lo:hi]) {
		return 0
	}
	if sc.add(lo, hi, "aws-secret-key", cont{in: awsSet}) {
		return hi
	}
	return 0
}

// randomKey reports whether a 40-byte run reads as random base64 rather
// than a path: capitals, small letters and digits, at least 20 distinct
// bytes, and no part between '/' and '+' that is a word (lower case, or
// capitalised) of three letters or more.
func randomKey(v string) bool {
	var seen [256]bool
	distinct := 0
	upper, low, digit := false, false, false
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '/' || r == '+' }) {
		if len(part) >= 3 && wordLike(part) {
			return false
		}
	}
	for i := range len(v) {
		c := v[i]
		if !seen[c] {
			seen[c] = true
			distinct++
		}
		upper = upper || isUpper(c)
		low = low || ('a' <= c && c <= 'z')
		digit = digit || isDigit(c)
	}
	return upper && low && digit && distinct >= 20
}

// wordLike reports whether p is letters only, all small or capitalised.
func wordLike(p string) bool {
	for i := range len(p) {
		c := p[i]
		if !('a' <= c && c <= 'z') && !(i == 0 && isUpper(c)) {
			return false
		}
	}
	return true
}

// azureSet holds the bytes of an Azure AD client secret.
const azureSet = alnum | set(bUnder|bTilde|bDot|bDash)

// azureCand is the test of an Azure AD client secret's '~' at b[i]: three
// bytes, a digit and 'Q' before it, 31 to 34 bytes after it.
func azureCand(b string, i int) bool {
	if i < 5 || b[i-1] != 'Q' || !isDigit(b[i-2]) || runBack(b, i-2, azureSet, 3) != 3 {
		return false
	}
	if i > 5 && azureSet.has(b[i-6]) {
		return false
	}
	n := runOf(b, i+1, azureSet, 35)
	return n >= 31 && n <= 34
}

// azureAt matches an Azure AD client secret.
func (sc *scanner) azureAt(i int) int {
	if !azureCand(sc.s, i) {
		return 0
	}
	hi := i + 1 + runOf(sc.s, i+1, azureSet, 35)
	if sc.add(i-5, hi, "azure-client-secret", cont{in: azureSet}) {
		return hi
	}
	return 0
}

// mailchimpCand is the test of a Mailchimp key's '-' at b[i]: 32 hex
// digits before it, "us" and the data centre's number after it.
func mailchimpCand(b string, i int) bool {
	if !hasPrefixAt(b, i+1, "us") {
		return false
	}
	d := runOf(b, i+3, set(bDigit), 3)
	if d < 1 || d > 2 || (i+3+d < len(b) && isAlnum(b[i+3+d])) {
		return false
	}
	return runBack(b, i, hexL, 33) == 32 && boundaryBefore(b, i-32)
}

// mailchimpAt matches a Mailchimp API key.
func (sc *scanner) mailchimpAt(i int) int {
	if !mailchimpCand(sc.s, i) {
		return 0
	}
	hi := i + 3 + runOf(sc.s, i+3, set(bDigit), 3)
	if sc.add(i-32, hi, "mailchimp-key", cont{in: set(bDigit)}) {
		return hi
	}
	return 0
}

// terraformAt matches a Terraform Cloud token, 14 letters and digits,
// ".atlasv1." and a long body.
func (sc *scanner) terraformAt(i int) int {
	s := sc.s
	if !hasPrefixAt(s, i, ".atlasv1.") || runBack(s, i, alnum, 15) != 14 || !boundaryBefore(s, i-14) {
		return 0
	}
	n := runOf(s, i+9, b64url, len(s))
	if n < 60 {
		return 0
	}
	if sc.add(i-14, i+9+n, "terraform-token", cont{in: b64url}) {
		return i + 9 + n
	}
	return 0
}
