package tui

import "charm.land/bubbles/v2/key"

// KeyMap is every key binding of the app. Screens enable the ones that
// apply to them and list them in their help.
type KeyMap struct {
	// Navigation.
	Up, Down, Top, Bottom, PageUp, PageDown key.Binding
	Enter, Back, Tab                        key.Binding

	// Inbox.
	Filter, Flagged, Undecided, Agent, Group key.Binding
	Sort, SortDefault, SortStarted           key.Binding
	SortDuration, SortCost, SortTokens       key.Binding
	SortStalls, SortErrors, SortApprovals    key.Binding

	// Session. NextMatch and PrevMatch are n and N while a search is
	// active: they follow its matches rather than the flagged turns.
	NextFlagged, PrevFlagged, AllTurns key.Binding
	NextMatch, PrevMatch               key.Binding

	// Tool call.
	Pager, Editor, Copy key.Binding

	// Decisions.
	Decide, Followup, History key.Binding

	// App.
	View, Refresh, Help, Quit, ForceQuit key.Binding
}

// DefaultKeyMap returns the default bindings.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Up:       b("↑/k", "up", "up", "k"),
		Down:     b("↓/j", "down", "down", "j"),
		Top:      b("g", "top", "g", "home"),
		Bottom:   b("G", "bottom", "G", "end"),
		PageUp:   b("pgup", "page up", "pgup", "ctrl+u"),
		PageDown: b("pgdn", "page down", "pgdown", "ctrl+d", "space"),
		Enter:    b("enter", "open", "enter"),
		Back:     b("esc", "back", "esc"),
		Tab:      b("tab", "switch pane", "tab"),

		Filter:        b("/", "search", "/"),
		Flagged:       b("f", "flagged only", "f"),
		Undecided:     b("u", "undecided only", "u"),
		Agent:         b("a", "this agent only", "a"),
		Group:         b("w", "group by work item", "w"),
		Sort:          b("s", "next sort", "s"),
		SortDefault:   b("0", "sort: triage order", "0"),
		SortStarted:   b("1", "sort by start", "1"),
		SortDuration:  b("2", "sort by duration", "2"),
		SortCost:      b("3", "sort by cost", "3"),
		SortTokens:    b("4", "sort by tokens", "4"),
		SortStalls:    b("5", "sort by stalls", "5"),
		SortErrors:    b("6", "sort by errors", "6"),
		SortApprovals: b("7", "sort by approvals", "7"),

		NextFlagged: b("n", "next flagged", "n"),
		PrevFlagged: b("N", "prev flagged", "N"),
		AllTurns:    b("a", "all turns", "a"),
		NextMatch:   b("n", "next match", "n"),
		PrevMatch:   b("N", "prev match", "N"),

		Pager:  b("o", "raw lines in $PAGER", "o"),
		Editor: b("e", "open in $EDITOR", "e"),
		Copy:   b("y", "copy ids", "y"),

		Decide:   b("d", "decide", "d"),
		Followup: b("x", "needs follow-up", "x"),
		History:  b("h", "decision history", "h"),

		View:      b("v", "developer/operator", "v"),
		Refresh:   b("r", "refresh", "r"),
		Help:      b("?", "help", "?"),
		Quit:      b("q", "quit", "q"),
		ForceQuit: b("ctrl+c", "quit", "ctrl+c"),
	}
}
