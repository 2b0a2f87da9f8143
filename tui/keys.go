package tui

import (
	"slices"
	"strconv"

	"charm.land/bubbles/v2/key"

	"github.com/agentsift/sift/core/review"
)

// KeyMap is every key binding of the app. Screens enable the ones that
// apply to them and list them in their help.
type KeyMap struct {
	// Navigation.
	Up, Down, Top, Bottom, PageUp, PageDown key.Binding
	Left, Right, Enter, Back, Tab           key.Binding

	// Inbox.
	Filter, Flagged, Undecided, Agent, Group key.Binding
	Mark, Preview                            key.Binding
	// NextTab and PrevTab cycle the inbox's tabs (tabs.go); the same keys
	// are the next and previous call on the tool call screen.
	NextTab, PrevTab key.Binding
	// Sort cycles through the orders; Sorts[i] picks review.SortKeys()[i]
	// (key i): one order for both (SortBy).
	Sort  key.Binding
	Sorts []key.Binding

	// Session. NextMatch and PrevMatch (below) are n and N while a
	// search is active: they follow its matches rather than the flagged
	// turns.
	NextFlagged, PrevFlagged, AllTurns key.Binding
	// Expand shows the selected turn's text and thinking in full in
	// place of its calls, and back.
	Expand key.Binding

	// Tool call; NextMatch and PrevMatch also follow a search's matches in
	// a session.
	Pager, Editor, Copy          key.Binding
	Search, NextMatch, PrevMatch key.Binding
	Wrap, PrevCall, NextCall     key.Binding
	// NextError and PrevError step through a call's error lines (lnav's
	// are taken: n/N are the search's, ]/[ the calls).
	NextError, PrevError key.Binding

	// Decisions, on every screen: Decide decides what is selected (the
	// sessions marked, a turn, a tool call), DecideSession the open
	// session; Undo withdraws the session's latest decision; NextTodo and
	// PrevTodo go to the next and previous flagged undecided item, across
	// sessions.
	Decide, DecideSession, Followup, History, Undo key.Binding
	NextTodo, PrevTodo, Followups                  key.Binding
	// Claim claims the session for the reviewer, or releases their own
	// claim (claim.go).
	Claim key.Binding
	// The decision dialog's choices, when they have its focus.
	Reviewed, NeedsFollowup, Ignored key.Binding

	// App. Quit is q: it closes an overlay, backs out one screen from a
	// session or a tool call, and quits from the inbox; QuitBack is how
	// the screens past the inbox list it. ForceQuit quits from anywhere.
	View, Refresh, Help, Quit, ForceQuit, QuitBack key.Binding
}

// DefaultKeyMap returns the default bindings.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	k := KeyMap{
		Up:       b("↑/k", "up", "up", "k"),
		Down:     b("↓/j", "down", "down", "j"),
		Top:      b("g", "top", "g", "home"),
		Bottom:   b("G", "bottom", "G", "end"),
		PageUp:   b("pgup", "page up", "pgup", "ctrl+u"),
		PageDown: b("pgdn", "page down", "pgdown", "ctrl+d", "space"),
		Left:     b("←", "left", "left"),
		Right:    b("→", "right", "right"),
		Enter:    b("enter", "open", "enter"),
		Back:     b("esc", "back", "esc"),
		Tab:      b("tab", "switch pane", "tab"),

		Filter:    b("/", "search", "/"),
		Flagged:   b("f", "flagged only", "f"),
		Undecided: b("u", "undecided only", "u"),
		Agent:     b("a", "this agent only", "a"),
		Group:     b("w", "group by work item", "w"),
		Mark:      b("m", "mark", "m"),
		Preview:   b("p", "preview", "p"),
		Sort:      b("s", "next sort", "s"),
		NextTab:   b("]", "next tab", "]"),
		PrevTab:   b("[", "prev tab", "["),

		NextFlagged: b("n", "next flagged", "n"),
		PrevFlagged: b("N", "prev flagged", "N"),
		AllTurns:    b("a", "all turns", "a"),
		Expand:      b("t", "text in full", "t"),

		Pager:     b("o", "raw lines in $PAGER", "o"),
		Editor:    b("e", "open in $EDITOR", "e"),
		Copy:      b("y", "copy…", "y"),
		Search:    b("/", "search", "/"),
		NextMatch: b("n", "next match", "n"),
		PrevMatch: b("N", "prev match", "N"),
		Wrap:      b("w", "wrap", "w"),
		PrevCall:  b("[", "prev call", "["),
		NextCall:  b("]", "next call", "]"),
		NextError: b("}", "next error line", "}"),
		PrevError: b("{", "prev error line", "{"),

		Decide:        b("d", "decide", "d"),
		DecideSession: b("D", "decide session", "D"),
		Followup:      b("x", "needs follow-up", "x"),
		History:       b("h", "decision history", "h"),
		Undo:          b("z", "undo decision", "z"),
		NextTodo:      b("J", "next undecided", "J"),
		PrevTodo:      b("K", "prev undecided", "K"),
		Followups:     b("F", "follow-ups", "F"),
		Claim:         b("c", "claim / release", "c"),
		Reviewed:      b("r", "reviewed", "r"),
		NeedsFollowup: b("n", "needs follow-up", "n"),
		Ignored:       b("i", "ignored", "i"),

		View:      b("v", "developer/operator", "v"),
		Refresh:   b("r", "refresh", "r"),
		Help:      b("?", "help", "?"),
		Quit:      b("q", "quit", "q"),
		ForceQuit: b("ctrl+c", "quit", "ctrl+c"),
		QuitBack:  b("q", "back (ctrl+c quits)", "q"),
	}
	for i, s := range review.SortKeys() {
		n := strconv.Itoa(i)
		desc := "sort by " + string(s)
		if s == review.SortTriage {
			desc = "sort: triage order"
		}
		k.Sorts = append(k.Sorts, b(n, desc, n))
	}
	return k
}

// SortBy returns the binding that picks an order.
func (k KeyMap) SortBy(s review.SortKey) key.Binding {
	if i := slices.Index(review.SortKeys(), s); i >= 0 && i < len(k.Sorts) {
		return k.Sorts[i]
	}
	return key.NewBinding(key.WithDisabled())
}
