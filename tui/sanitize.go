package tui

import "github.com/agentsift/sift/core/textsafe"

// Inert makes untrusted text from a stream safe to draw on one line; it is
// textsafe.Inert, the one sanitizer every output path of sift shares.
func Inert(s string) string { return textsafe.Inert(s) }

// InertLines is Inert for multi-line text: it keeps line breaks (CRLF and
// LF) as line separators and returns the lines.
func InertLines(s string) []string { return textsafe.InertLines(s) }

// inert is Inert, for the package's own short calls.
func inert(s string) string { return textsafe.Inert(s) }
