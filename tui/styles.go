package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"

	"github.com/agentsift/sift/themes"
)

// Styles holds every style the app renders with, built once from a palette
// by NewStyles. Components read them; none builds a style on a render path.
type Styles struct {
	Palette themes.Palette

	App struct {
		Title   lipgloss.Style
		Subtle  lipgloss.Style
		Muted   lipgloss.Style
		Text    lipgloss.Style
		Rule    lipgloss.Style
		Accent  lipgloss.Style
		Section lipgloss.Style
	}
	Table struct {
		Header     lipgloss.Style
		HeaderSort lipgloss.Style
		Cell       lipgloss.Style
		Selected   lipgloss.Style
		Cursor     lipgloss.Style
		Group      lipgloss.Style
		Dim        lipgloss.Style
		// Match marks the words a search matched in a row; SelectedMatch
		// in the selected row.
		Match, SelectedMatch lipgloss.Style
	}
	Badge struct {
		Flagged  lipgloss.Style
		Reviewed lipgloss.Style
		Followup lipgloss.Style
		Ignored  lipgloss.Style
		Unknown  lipgloss.Style
		Error    lipgloss.Style
		Approval lipgloss.Style
		Stall    lipgloss.Style
		OK       lipgloss.Style
	}
	Timeline struct {
		Thinking  lipgloss.Style
		Executing lipgloss.Style
		Stall     lipgloss.Style
		Failure   lipgloss.Style
		Spark     lipgloss.Style
	}
	Status struct {
		Info  lipgloss.Style
		Error lipgloss.Style
		Help  lipgloss.Style
	}
	Dialog struct {
		Box      lipgloss.Style
		Title    lipgloss.Style
		Choice   lipgloss.Style
		Selected lipgloss.Style
	}
	Search struct {
		// Match marks the search's matches in a tool call; Current the
		// one n and N are on.
		Match   lipgloss.Style
		Current lipgloss.Style
	}
	Code struct {
		Escape lipgloss.Style
		// Tokens maps a chroma token category to its style. Lookups fall
		// back from a token type to its sub-category and category.
		Tokens map[chroma.TokenType]lipgloss.Style
	}
	Help  help.Styles
	Input textinput.Styles
}

// NewStyles builds the styles of a palette. It uses the palette's tokens
// only, never colour literals.
func NewStyles(p themes.Palette) *Styles {
	s := &Styles{Palette: p}
	fg := lipgloss.NewStyle().Foreground
	s.App.Title = fg(p.Primary).Bold(true)
	s.App.Subtle = fg(p.FgSubtle)
	s.App.Muted = fg(p.FgMuted)
	s.App.Text = fg(p.FgBase)
	s.App.Rule = fg(p.Border)
	s.App.Accent = fg(p.Accent)
	s.App.Section = fg(p.FgMuted).Bold(true)

	s.Table.Header = fg(p.FgMuted).Bold(true)
	s.Table.HeaderSort = fg(p.Primary).Bold(true).Underline(true)
	s.Table.Cell = fg(p.FgBase)
	s.Table.Selected = fg(p.FgBase).Background(p.BgSubtle).Bold(true)
	s.Table.Cursor = fg(p.Accent).Bold(true)
	s.Table.Group = fg(p.Primary).Bold(true)
	s.Table.Dim = fg(p.FgSubtle)
	s.Table.Match = fg(p.Accent).Bold(true).Underline(true)
	s.Table.SelectedMatch = fg(p.Accent).Background(p.BgSubtle).Bold(true).Underline(true)

	s.Badge.Flagged = fg(p.Flagged).Bold(true)
	s.Badge.Reviewed = fg(p.Reviewed)
	s.Badge.Followup = fg(p.Followup).Bold(true)
	s.Badge.Ignored = fg(p.Ignored)
	s.Badge.Unknown = fg(p.FgSubtle)
	s.Badge.Error = fg(p.Error).Bold(true)
	s.Badge.Approval = fg(p.Warn)
	s.Badge.Stall = fg(p.Stall)
	s.Badge.OK = fg(p.Success)

	s.Timeline.Thinking = fg(p.Thinking)
	s.Timeline.Executing = fg(p.Executing)
	s.Timeline.Stall = fg(p.Stall)
	s.Timeline.Failure = fg(p.Failure).Bold(true)
	s.Timeline.Spark = fg(p.Primary)

	s.Status.Info = fg(p.FgMuted)
	s.Status.Error = fg(p.Error).Bold(true)
	s.Status.Help = fg(p.FgSubtle)

	s.Dialog.Box = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Border).
		Background(p.BgBase).Foreground(p.FgBase).Padding(0, 1)
	s.Dialog.Title = fg(p.Primary).Background(p.BgBase).Bold(true)
	s.Dialog.Choice = fg(p.FgMuted).Background(p.BgBase)
	s.Dialog.Selected = fg(p.Accent).Background(p.BgBase).Bold(true)

	s.Search.Match = fg(p.BgBase).Background(p.Warn)
	s.Search.Current = fg(p.BgBase).Background(p.Accent).Bold(true)

	s.Code.Escape = fg(p.CodeEscape).Reverse(true)
	s.Code.Tokens = map[chroma.TokenType]lipgloss.Style{
		chroma.Keyword:           fg(p.CodeKeyword),
		chroma.NameBuiltin:       fg(p.CodeKeyword),
		chroma.NameTag:           fg(p.CodeName),
		chroma.NameAttribute:     fg(p.CodeName),
		chroma.NameFunction:      fg(p.CodeName),
		chroma.NameClass:         fg(p.CodeName),
		chroma.LiteralString:     fg(p.CodeString),
		chroma.LiteralNumber:     fg(p.CodeNumber),
		chroma.Literal:           fg(p.CodeNumber),
		chroma.Comment:           fg(p.CodeComment).Italic(true),
		chroma.GenericInserted:   fg(p.CodeAdded),
		chroma.GenericDeleted:    fg(p.CodeDeleted),
		chroma.GenericSubheading: fg(p.CodeName).Bold(true),
		chroma.GenericHeading:    fg(p.CodeName).Bold(true),
		chroma.Operator:          fg(p.FgMuted),
		chroma.Punctuation:       fg(p.FgMuted),
	}

	s.Help = help.Styles{
		Ellipsis:       fg(p.FgSubtle),
		ShortKey:       fg(p.Accent),
		ShortDesc:      fg(p.FgSubtle),
		ShortSeparator: fg(p.Border),
		FullKey:        fg(p.Accent),
		FullDesc:       fg(p.FgMuted),
		FullSeparator:  fg(p.Border),
	}
	s.Input = textinput.DefaultStyles(p.Dark)
	s.Input.Focused.Prompt = fg(p.Accent)
	s.Input.Focused.Text = fg(p.FgBase)
	s.Input.Focused.Placeholder = fg(p.FgSubtle)
	s.Input.Blurred.Prompt = fg(p.FgSubtle)
	s.Input.Blurred.Text = fg(p.FgMuted)
	s.Input.Blurred.Placeholder = fg(p.FgSubtle)
	// A steady cursor: blinking redraws the screen twice a second for
	// nothing.
	s.Input.Cursor.Blink = false
	return s
}

// token returns the style of a chroma token type, falling back to its
// sub-category and category, and to plain text.
func (s *Styles) token(t chroma.TokenType) lipgloss.Style {
	if st, ok := s.Code.Tokens[t]; ok {
		return st
	}
	if st, ok := s.Code.Tokens[t.SubCategory()]; ok {
		return st
	}
	if st, ok := s.Code.Tokens[t.Category()]; ok {
		return st
	}
	return s.App.Text
}
