package pricing

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/agentsift/sift/core/pricing/internal/snapshot"
)

// ruleOp is the kind of a match rule.
type ruleOp uint8

const (
	opEquals ruleOp = iota
	opPrefix
	opSuffix
	opContains
	opRegex
	opAnd
	opOr
	opNot
)

// level is how well a name matches a rule.
type level uint8

const (
	// miss: the rule does not name it.
	miss level = iota
	// family: the name extends a literal of the rule by a variant word
	// ("claude-opus-4-5-thinking" of starts_with "claude-opus-4-5").
	family
	// exact: the name is a literal of the rule, or its regex matches.
	exact
)

// mode is how a rule is read.
type mode uint8

const (
	// guarded reads literals as sift does: a name that goes on past a
	// literal must go on with a variant word, not a version number
	// ("claude-sonnet-5-5" is not starts_with "claude-sonnet-5").
	guarded mode = iota
	// folded is guarded with dots and underscores read as dashes on both
	// sides (the name is folded by the caller); regexes do not match.
	folded
	// plain reads rules as the catalog does (for provider claims and
	// exclusions): any prefix, suffix or substring hit is exact.
	plain
)

// rule is a compiled match rule. Literals are lowercased: names are
// matched lowercased.
type rule struct {
	op   ruleOp
	lit  string
	fold string
	re   *regexp.Regexp
	sub  []rule
}

// compile checks and compiles a snapshot match rule.
func compile(m snapshot.Match) (rule, error) {
	lits := []struct {
		op ruleOp
		s  string
	}{{opEquals, m.Equals}, {opPrefix, m.StartsWith}, {opSuffix, m.EndsWith}, {opContains, m.Contains}}
	var r rule
	set := 0
	for _, l := range lits {
		if l.s != "" {
			r = rule{op: l.op, lit: strings.ToLower(l.s), fold: foldName(strings.ToLower(l.s))}
			set++
		}
	}
	if m.Regex != "" {
		re, err := regexp.Compile(m.Regex)
		if err != nil {
			return rule{}, fmt.Errorf("regex %q: %w", m.Regex, err)
		}
		r, set = rule{op: opRegex, re: re}, set+1
	}
	for _, g := range []struct {
		op   ruleOp
		list []snapshot.Match
	}{{opAnd, m.And}, {opOr, m.Or}} {
		if g.list == nil {
			continue
		}
		r, set = rule{op: g.op}, set+1
		for _, s := range g.list {
			c, err := compile(s)
			if err != nil {
				return rule{}, err
			}
			r.sub = append(r.sub, c)
		}
	}
	if m.Not != nil {
		c, err := compile(*m.Not)
		if err != nil {
			return rule{}, err
		}
		r, set = rule{op: opNot, sub: []rule{c}}, set+1
	}
	if set != 1 {
		return rule{}, fmt.Errorf("a match rule sets %d fields, want 1", set)
	}
	return r, nil
}

// test returns how well name (lowercased; folded in folded mode) matches
// the rule, and the leaf rule that decided it.
func (r *rule) test(name string, md mode) (level, *rule) {
	lit := r.lit
	if md == folded {
		lit = r.fold
	}
	switch r.op {
	case opEquals:
		if name == lit {
			return exact, r
		}
	case opPrefix:
		if rest, ok := strings.CutPrefix(name, lit); ok {
			return r.hit(rest == "" || md == plain, extends(lit, rest)), r
		}
	case opSuffix:
		if head, ok := strings.CutSuffix(name, lit); ok {
			return r.hit(head == "" || md == plain, bounded(head, lit)), r
		}
	case opContains:
		best := miss
		for i := 0; i+len(lit) <= len(name); i++ {
			j := strings.Index(name[i:], lit)
			if j < 0 {
				break
			}
			i += j
			head, rest := name[:i], name[i+len(lit):]
			best = max(best, r.hit((head == "" && rest == "") || md == plain, bounded(head, lit) && extends(lit, rest)))
		}
		return best, r
	case opRegex:
		if md != folded && r.re.MatchString(name) {
			return exact, r
		}
	case opNot:
		inner := plain
		if l, _ := r.sub[0].test(name, inner); l == miss {
			return exact, r
		}
	case opAnd:
		lv, leaf := exact, (*rule)(nil)
		for i := range r.sub {
			l, lf := r.sub[i].test(name, md)
			if l == miss {
				return miss, nil
			}
			if r.sub[i].op != opNot && (leaf == nil || l < lv) {
				leaf = lf
			}
			lv = min(lv, l)
		}
		if leaf == nil {
			leaf = r
		}
		return lv, leaf
	case opOr:
		lv, leaf := miss, (*rule)(nil)
		for i := range r.sub {
			if l, lf := r.sub[i].test(name, md); l > lv {
				lv, leaf = l, lf
			}
		}
		return lv, leaf
	}
	return miss, nil
}

// hit is the level of a literal hit: exact when whole, family when the
// rest is a variant word, else a miss.
func (r *rule) hit(whole, variant bool) level {
	switch {
	case whole:
		return exact
	case variant:
		return family
	}
	return miss
}

// extends reports whether rest, which follows lit in a name, goes on
// with a variant rather than another version: a literal that ends in a
// separator ("gemini-3-flash-preview-") opens a namespace; otherwise the
// rest must be a separator and a word (not a separator alone), and a literal ending in a number must
// not go on with a number ("claude-opus-4-5" goes on with "-thinking",
// "@20250929" or ":free", not "-1" or ".1"; "…-preview" may go on with
// "-09-2025").
func extends(lit, rest string) bool {
	switch {
	case rest == "":
		return true
	case lit != "" && !alnum(lit[len(lit)-1]):
		return true
	case alnum(rest[0]) || strings.IndexFunc(rest, func(r rune) bool { return r < 128 && alnum(byte(r)) }) < 0:
		return false
	case strings.IndexByte("-._", rest[0]) >= 0 && digit(rest[1]) && digit(lit[len(lit)-1]):
		return false
	}
	return true
}

func digit(c byte) bool { return c >= '0' && c <= '9' }

// bounded reports whether a literal that follows head in a name starts
// at a word boundary.
func bounded(head, lit string) bool {
	return head == "" || (lit != "" && !alnum(lit[0])) || !alnum(head[len(head)-1])
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// foldName reads dots and underscores as dashes: providers write one
// version both ways ("claude-haiku-4.5", "claude-haiku-4-5").
func foldName(s string) string {
	if strings.IndexAny(s, "._") < 0 {
		return s
	}
	return strings.NewReplacer(".", "-", "_", "-").Replace(s)
}

// String describes the rule as the catalog writes it, for `sift prices`.
func (r *rule) String() string {
	switch r.op {
	case opEquals:
		return fmt.Sprintf("equals %q", r.lit)
	case opPrefix:
		return fmt.Sprintf("starts_with %q", r.lit)
	case opSuffix:
		return fmt.Sprintf("ends_with %q", r.lit)
	case opContains:
		return fmt.Sprintf("contains %q", r.lit)
	case opRegex:
		return fmt.Sprintf("regex %q", r.re.String())
	case opNot:
		return "not " + r.sub[0].String()
	}
	parts := make([]string, len(r.sub))
	for i := range r.sub {
		parts[i] = r.sub[i].String()
	}
	op := " and "
	if r.op == opOr {
		op = " or "
	}
	return "(" + strings.Join(parts, op) + ")"
}
