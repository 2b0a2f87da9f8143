package config

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentsift/sift/core/search"
)

// Tab is one of the inbox's own tabs, after its built-in ones (all, to
// review, failed, follow-ups, mine): a name and a search query in the
// search's language (`sift help search`), such as
//
//	Tabs:
//	  - {Name: codex, Query: "agent:codex is:undecided"}
//	  - {Name: pricey, Query: "cost>1"}
//
// A tab keeps the sessions its query selects; the inbox's `/` search and
// its quick filters narrow it further.
type Tab struct {
	Name  string `yaml:"Name"`
	Query string `yaml:"Query"`
}

// MaxTabName bounds a tab's name, which the inbox's tab bar shows whole.
const MaxTabName = 24

// validateTabs checks each tab: a name that fits the tab bar, and a query
// the search reads.
func (c Config) validateTabs() error {
	for i, t := range c.Tabs {
		key := fmt.Sprintf("Tabs[%d]", i)
		name := strings.TrimSpace(t.Name)
		switch {
		case name == "":
			return &Error{File: c.file, Key: key + ".Name", Msg: "must not be empty"}
		case utf8.RuneCountInString(name) > MaxTabName || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }):
			return &Error{File: c.file, Key: key + ".Name", Msg: fmt.Sprintf("must be one line of at most %d characters", MaxTabName)}
		}
		// mine needs a reviewer, which the inbox knows; any stands in.
		if _, err := search.Parse(t.Query, search.Options{Reviewer: "reviewer"}); err != nil {
			return &Error{File: c.file, Key: key + ".Query", Msg: err.Error()}
		}
	}
	return nil
}
