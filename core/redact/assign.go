package redact

import "strings"

// Values of secret-named keys, flags and headers. A key counts when it
// ends in a keyword (keys.go) and its value is a value rather than code:
// `token = config["x"]`, `token: str`, `apiKey = process.env.API_KEY` and
// `password: ${DB_PASSWORD}` are kept.

// assignAt matches the value after the separator s[i] (':' or '=') of a
// secret-named key: `key = value`, `key: "value"`, `"key": "value"`
// (quotes may be escaped, for JSON nested in a string), a bare value after
// '=', after a header's ':' (X-API-Key: …) and after a YAML key that
// starts its line (password: …).
func (sc *scanner) assignAt(i int) int {
	if sc.inner {
		return 0
	}
	s := sc.s
	key, k, j, ok := sc.cs.lastKey(i)
	if !ok && !sc.cs.keyBefore(s, i) {
		return 0
	}
	if !ok {
		key, k, j, _ = sc.cs.lastKey(i)
	}
	if key.auth {
		return sc.authAt(i)
	}
	lo, hi, c, ok := sc.valueAt(i, k, key)
	if !ok {
		return 0
	}
	v := s[lo:hi]
	if !secretLike(v, s[k:j]) || (key.check != nil && !key.check(v)) {
		return 0
	}
	return sc.value(lo, hi, key.kind, c)
}

// valueAt finds the value after the separator s[i] of the key that starts
// at s[k]: quoted (quotes may be escaped), or bare where the key allows.
// A quoted value still open at the end of the text counts (more text may
// close it).
func (sc *scanner) valueAt(i, k int, key secretKey) (lo, hi int, c cont, ok bool) {
	s := sc.s
	p := i + 1
	for p < len(s) && (s[p] == ' ' || s[p] == '\t') {
		p++
	}
	q := p
	for q < len(s) && s[q] == '\\' {
		q++
	}
	switch {
	case q < len(s) && s[q] == '"':
		lo = q + 1
		hi = sc.stopAt(stopDouble, lo)
		e := hi
		for e < len(s) && s[e] == '\\' {
			e++
		}
		closed := e < len(s) && s[e] == '"'
		return lo, hi, cont{stop: "\"\\\n"}, hi > lo && (closed || hi == len(s))
	case p < len(s) && s[p] == '\'':
		lo = p + 1
		hi = sc.stopAt(stopSingle, lo)
		closed := hi < len(s) && s[hi] == '\''
		return lo, hi, cont{stop: "'\n"}, hi > lo && (closed || hi == len(s))
	case s[i] == '=' || key.dash:
		hi = sc.stopAt(stopBare, p)
		if hi == p || !bareValueEnds(s, hi) {
			return 0, 0, cont{}, false
		}
		if s[hi-1] == '=' && quoteAt(s, hi) {
			// `password= token=""`: the next key, not a value.
			return 0, 0, cont{}, false
		}
		if s[i] == ':' && !tokenLike(s[p:hi], 8) && hi-p < 24 {
			// A header's value in prose ("X-API-Key: required").
			return 0, 0, cont{}, false
		}
		return p, hi, cont{bare: true}, s[i] == '=' || !typeName(s[p:hi])
	case yamlKey(s, k):
		hi = sc.stopAt(stopEOL, p)
		if c := strings.Index(s[p:hi], " #"); c >= 0 {
			hi = p + c
		}
		for hi > p && (s[hi-1] == ' ' || s[hi-1] == '\t' || s[hi-1] == '\r') {
			hi--
		}
		if hi == p || strings.IndexByte("|>&*!%@`[{#", s[p]) >= 0 || !yamlScalar(s[p:hi]) {
			return 0, 0, cont{}, false
		}
		return p, hi, cont{stop: "\n"}, true
	}
	return 0, 0, cont{}, false
}

// quoteAt reports whether a quote, perhaps escaped, starts at s[i].
func quoteAt(s string, i int) bool {
	for i < len(s) && s[i] == '\\' {
		i++
	}
	return i < len(s) && (s[i] == '"' || s[i] == '\'')
}

// bareValueEnds reports whether a bare value ending at s[i] is a whole
// value rather than the start of an expression (a call, an index).
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

// yamlKey reports whether the key at s[k] starts its line (after spaces,
// a list's "- ", or a quote): a YAML or INI key, whose value may be bare.
func yamlKey(s string, k int) bool {
	p := k
	if p > 0 && (s[p-1] == '"' || s[p-1] == '\'') {
		p--
	}
	for p > 0 && (s[p-1] == ' ' || s[p-1] == '\t') {
		p--
	}
	if p > 1 && s[p-1] == '-' && k-p >= 1 {
		p--
		for p > 0 && (s[p-1] == ' ' || s[p-1] == '\t') {
			p--
		}
	}
	return p == 0 || s[p-1] == '\n' || (s[p-1] == 'n' && escapedAt(s, p-1))
}

// yamlScalar rejects values after a line-start key that are code: a
// type annotation (`token: str`, `password: Optional[str] = None`), a
// TypeScript field (`password: string;`), a dict entry (`"token": tok,`).
func yamlScalar(v string) bool {
	if typeName(v) || strings.IndexByte(v, '[') >= 0 || strings.IndexByte(v, '(') >= 0 || strings.Contains(v, " = ") {
		return false
	}
	switch v[len(v)-1] {
	case ';', ',', ')':
		return false
	}
	return true
}

// typeName reports whether v names a type, as an annotation's value does.
func typeName(v string) bool {
	v = strings.TrimSuffix(v, "?")
	return len(v) <= 11 && equalFoldAny(v, "str", "string", "int", "integer", "bool", "boolean", "number", "float",
		"any", "object", "bytes", "secretstr", "secretbytes", "unknown", "optional", "text", "varchar", "char")
}

// secretLike reports whether v, the value of key, may be a secret: not
// empty, not a literal, a reference ($VAR, %VAR%, ${…}, {{…}}, <…>), a
// mask (****), a small number, the key's own name or a reference to code
// (process.env.API_KEY, req.headers.authorization).
func secretLike(v, key string) bool {
	if v == "" || v[0] == '$' || strings.HasPrefix(v, Prefix) {
		return false
	}
	if len(v) <= 9 && equalFoldAny(v, "true", "false", "null", "nil", "none", "undefined", "yes", "no", "on", "off") {
		return false
	}
	masked, digits := true, true
	for i := range len(v) {
		switch c := v[i]; {
		case c == '*' || c == 'x' || c == 'X' || c == '.':
			digits = false
		case isDigit(c):
			masked = false
		default:
			masked, digits = false, false
		}
	}
	if masked || (digits && len(v) < 6) {
		return false
	}
	last := v[len(v)-1]
	if (v[0] == '<' && last == '>') || (v[0] == '%' && last == '%' && len(v) > 2) || strings.HasPrefix(v, "{{") {
		return false
	}
	if len(v) <= len(key) && equalKey(v, key) {
		return false
	}
	return !codeRef(v)
}

// equalKey reports whether v is the key itself, its quotes and dashes
// aside (password = password passes a variable on).
func equalKey(v, key string) bool {
	lo, hi := 0, len(key)
	for lo < hi && strings.IndexByte("\"'\\ -", key[lo]) >= 0 {
		lo++
	}
	for hi > lo && strings.IndexByte("\"'\\ -", key[hi-1]) >= 0 {
		hi--
	}
	return hi-lo == len(v) && strings.EqualFold(v, key[lo:hi])
}

// codeRef reports whether v is a dotted chain of identifiers starting
// with a small-letter name: a field or variable of code, not a secret.
func codeRef(v string) bool {
	parts, start := 0, 0
	for i := 0; i <= len(v); i++ {
		if i < len(v) && v[i] != '.' {
			continue
		}
		p := v[start:i]
		if p == "" || !ident(p) || (parts == 0 && !smallName(p)) {
			return false
		}
		parts++
		start = i + 1
	}
	return parts >= 2
}

// smallName reports whether p is small letters and '_' only.
func smallName(p string) bool {
	for i := range len(p) {
		if c := p[i]; c != '_' && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}

// ident reports whether p is an identifier.
func ident(p string) bool {
	for i := range len(p) {
		c := p[i]
		if !(letters.has(c) || c == '_' || c == '$' || (i > 0 && isDigit(c))) {
			return false
		}
	}
	return true
}

// authAt matches the credentials of an Authorization header: after a
// scheme (Basic, Token, Digest, Bot, Bearer), or a bare token.
func (sc *scanner) authAt(i int) int {
	s := sc.s
	p := i + 1
	for n := 0; p < len(s) && n < 8 && strings.IndexByte(" \t\"'\\", s[p]) >= 0; n++ {
		p++
	}
	w := runOf(s, p, letters, 8)
	j := p + w
	for n := 0; j < len(s) && n < 4 && (s[j] == ' ' || s[j] == '\t'); n++ {
		j++
	}
	if j > p+w && w > 0 {
		scheme := s[p : p+w]
		switch {
		case equalFoldAny(scheme, "basic", "token", "digest", "bot"):
			k := tokenEnd(s, j)
			if k-j < 6 {
				return 0
			}
			return sc.value(j, k, "basic-auth", cont{in: bearerSet | set(bEq)})
		case equalFoldAny(scheme, "bearer"):
			// After an Authorization key any token counts, digits or
			// not; bearerAt alone asks for a token-like one.
			k := tokenEnd(s, j)
			if k-j < 8 || codeRef(s[j:k]) {
				return 0
			}
			return sc.value(j, k, "bearer-token", cont{in: bearerSet | set(bEq)})
		}
	}
	k := tokenEnd(s, p)
	if !tokenLike(s[p:k], 8) || codeRef(s[p:k]) {
		return 0
	}
	return sc.value(p, k, "authorization", cont{in: bearerSet | set(bEq)})
}

// tokenEnd returns the end of the token (bearerSet, then '=' padding) at
// s[j].
func tokenEnd(s string, j int) int {
	k := j + runOf(s, j, bearerSet, len(s))
	for k < len(s) && s[k] == '=' {
		k++
	}
	return k
}

func equalFoldAny(v string, words ...string) bool {
	for _, w := range words {
		if len(v) == len(w) && equalFold(v, w) {
			return true
		}
	}
	return false
}

// flagCand is the test of a command-line flag's "--" at b[i]: a
// secret-named flag (--password, --api-key, --token) followed by a space
// and its value, or curl's --user.
func flagCand(b string, i int, st *candState) bool {
	if !boundaryBefore(b, i) || (i > 0 && b[i-1] == '-') {
		return false
	}
	e := i + 2 + runOf(b, i+2, urlsafe, maxKey)
	if e == i+2 || e >= len(b) || b[e] != ' ' {
		return false // --password=… is an assignment
	}
	if e-i-2 == 4 && equalFold(b[i+2:e], "user") {
		return names(st, b, wordCurl)
	}
	_, ok := keyAt(b, i+2, e)
	return ok
}

// flagAt matches the value of a secret-named flag, and the password in
// curl's --user user:password.
func (sc *scanner) flagAt(i int) int {
	s := sc.s
	if sc.inner || i+1 >= len(s) || s[i+1] != '-' || !flagCand(s, i, &sc.cs) {
		return 0
	}
	e := i + 2 + runOf(s, i+2, urlsafe, maxKey)
	p := e
	for p < len(s) && s[p] == ' ' {
		p++
	}
	lo, hi := sc.shellWord(p)
	if e-i-2 == 4 && equalFold(s[i+2:e], "user") {
		if !sc.onLine(i, ctxCurl) {
			return 0
		}
		return sc.userPassword(lo, hi)
	}
	key, _ := keyAt(s, i+2, e)
	v := s[lo:hi]
	if v == "" || v[0] == '-' || !secretLike(v, s[i+2:e]) || (key.check != nil && !key.check(v)) {
		return 0
	}
	return sc.value(lo, hi, key.kind, cont{bare: true})
}

// shortFlagCand is the test of "-p" (mysql's attached password) and "-u"
// (curl's user:password) at b[i].
func shortFlagCand(b string, i int) bool {
	if i+2 >= len(b) || !boundaryBefore(b, i) || (i > 0 && b[i-1] == '-') {
		return false
	}
	if b[i+1] == 'p' {
		return b[i+2] > ' ' && b[i+2] != '-'
	}
	return b[i+1] == 'u'
}

// shortFlagAt matches mysql -pPASSWORD and curl -u user:password, on a
// line that names the command.
func (sc *scanner) shortFlagAt(i int) int {
	s := sc.s
	if sc.inner || !shortFlagCand(s, i) {
		return 0
	}
	if s[i+1] == 'p' {
		if !sc.onLine(i, ctxMySQL, ctxMariaDB) {
			return 0
		}
		lo, hi := sc.shellWord(i + 2)
		if v := s[lo:hi]; !secretLike(v, "p") {
			return 0
		}
		return sc.value(lo, hi, "password", cont{bare: true})
	}
	if !sc.onLine(i, ctxCurl) {
		return 0
	}
	p := i + 2
	for p < len(s) && s[p] == ' ' {
		p++
	}
	return sc.userPassword(sc.shellWord(p))
}

// userPassword matches the password of user:password in s[lo:hi].
func (sc *scanner) userPassword(lo, hi int) int {
	c := strings.IndexByte(sc.s[lo:hi], ':')
	if c <= 0 || lo+c+1 >= hi || sc.s[lo+c+1] == '$' || sc.nextMarker(lo) < hi {
		return 0
	}
	return sc.value(lo+c+1, hi, "basic-auth", cont{bare: true})
}

// shellWord returns the word of a command line at s[p]: quoted, or up to
// a space or a shell operator.
func (sc *scanner) shellWord(p int) (lo, hi int) {
	s := sc.s
	q := p
	for q < len(s) && s[q] == '\\' {
		q++ // an escaped quote, in JSON nested in a string
	}
	switch {
	case q >= len(s):
		return p, p
	case s[q] == '"':
		return q + 1, sc.stopAt(stopDouble, q+1)
	case s[q] == '\'':
		return q + 1, sc.stopAt(stopSingle, q+1)
	}
	return p, sc.stopAt(stopBare, p)
}

// netrcCand is the test of .netrc's "password VALUE" at its 'd', b[i].
func netrcCand(b string, i int) bool {
	return i+1 < len(b) && b[i+1] == ' ' && hasSuffixFold(b, i+1, "password") && boundaryBefore(b, i-7)
}

// netrcAt matches the password of a .netrc entry: "password VALUE" within
// 512 bytes after "machine".
func (sc *scanner) netrcAt(i int) int {
	s := sc.s
	if sc.inner || !netrcCand(s, i) {
		return 0
	}
	if m := sc.before(ctxMachine, i); m < 0 || i-m > 512 {
		return 0
	}
	p := i + 1
	for p < len(s) && s[p] == ' ' {
		p++
	}
	lo, hi := sc.shellWord(p)
	if !secretLike(s[lo:hi], "password") {
		return 0
	}
	return sc.value(lo, hi, "password", cont{bare: true})
}
