// Package redact removes secrets from text before it is written down: cloud
// and SaaS API keys and tokens, private-key blocks, JWTs, bearer and basic
// credentials, passwords in URLs and command lines, and the values of
// secret-named keys (password, token, api_key, …) in code, env files, YAML
// and headers. Each secret is replaced by a marker naming its kind,
// `[REDACTED:github-token]`.
//
// Identifiers that link events (toolu_…, call_…, msg_…, item_…, UUIDs, git
// hashes, sha256 digests) never match a rule and pass untouched.
//
// Redaction is built for the capture hot path: a cheap byte scan (see
// prefilter.go) rejects almost every line before any rule runs, a line
// without a secret is returned as the same slice, and the scan that finds
// secrets (scan.go) is linear in the text, whatever the text holds.
//
// Text that arrives in pieces (a model's reply streamed as deltas) goes
// through a Window, which holds back the last DeltaWindow bytes so that a
// secret split across two pieces is still found.
package redact

import "github.com/agentsift/sift/core/internal/view"

// Prefix starts every replacement; a value that already starts with it is
// not redacted twice.
const Prefix = "[REDACTED:"

// marker returns the replacement text for a kind of secret.
func marker(kind string) string { return Prefix + kind + "]" }

// String returns s with every secret replaced by its marker. It returns s
// itself when nothing was found.
func String(s string) string {
	if !mayContain(s) {
		return s
	}
	return redactString(s)
}

// Bytes returns b with every secret replaced by its marker. It returns b
// itself (no copy) when nothing was found.
func Bytes(b []byte) []byte {
	if !mayContain(view.String(b)) {
		return b
	}
	s := string(b)
	if r := redactString(s); r != s {
		return []byte(r)
	}
	return b
}
