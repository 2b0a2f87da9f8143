// Package tui is sift's review inbox: a Bubble Tea app with one root model
// (App) over three screens (inbox, session, tool call), a decision dialog,
// a decision history and a help overlay. It reads the store only through
// the Store interface declared here.
package tui

import (
	"context"
	"os"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/alecthomas/chroma/v2"

	"github.com/agentsift/sift/core/detail"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/themes"
)

// Mode is who the screens are drawn for.
type Mode uint8

// The two views of the same data.
const (
	// Developer shows raw tool names, input and output JSON, per-turn
	// tokens and error text.
	Developer Mode = iota
	// Operator shows display names, one-line summaries, approval and
	// failure badges and flagged sessions only, and no raw JSON.
	Operator
)

// String names the mode.
func (m Mode) String() string {
	if m == Operator {
		return "operator"
	}
	return "developer"
}

// Common is the state every component shares: passed as one pointer,
// never held in globals.
type Common struct {
	Styles *Styles
	Keys   KeyMap
	Store  Store
	// Detail reads a session's stream file again (Options.OpenStream
	// opens it).
	Detail detail.Reader
	// Now is the clock relative times are drawn against.
	Now  func() time.Time
	Mode Mode
	// Animate schedules spinner and status timers; tests turn it off so
	// that commands return at once.
	Animate bool
	// Reviewer is recorded on decisions and claims.
	Reviewer string
	// Resume builds a follow-up's resume command (Options.Resume).
	Resume func(f *review.Followup) review.Resume
	// ClaimTTL is how long a claim holds (0: review.DefaultClaimTTL).
	ClaimTTL time.Duration
	// lexers memoises chroma lexer lookups by name or file name.
	lexers map[string]chroma.Lexer
}

// component is one screen of the app. Children are pointers updated in
// place, so Update returns only a command; they return strings, and only
// the root returns a tea.View.
type component interface {
	Update(msg tea.Msg) tea.Cmd
	View() string
	SetSize(w, h int)
	help.KeyMap
}

// Options configures the app.
type Options struct {
	Store Store
	// OpenStream opens a session's stream file again (its conversation,
	// a call's detail and raw lines): the program passes one that opens
	// only regular files inside sift's folders (ingest.OpenStream), since
	// a session row's path is data. nil opens regular files anywhere
	// (detail.OpenRegular).
	OpenStream func(path string) (*os.File, error)
	// Theme is a --theme value: auto (from the terminal background),
	// dark, light or high-contrast.
	Theme string
	// Title names the app in the title bar ("sift", "sift demo").
	Title    string
	Mode     Mode
	Now      func() time.Time
	Reviewer string
	// Resume says how to resume a follow-up's agent session: the command
	// as a shell line, or why there is none. The program gives it: the
	// resume command is each harness's; nil knows none.
	Resume func(f *review.Followup) review.Resume
	// ClaimTTL is how long a claim (c) holds; 0 means
	// review.DefaultClaimTTL (config ClaimMinutes).
	ClaimTTL time.Duration
	// NoAnimation turns off spinners' and timers' ticking (tests).
	NoAnimation bool
	// Importing says a background import has started; the status line
	// shows its progress until an ImportProgressMsg says it finished.
	Importing bool
	// Coverage, when set, describes what sift has seen (files found,
	// imported, unchanged, unparseable, removed by retention, the last
	// import and sweep), one line each: the inbox's help shows it, read
	// when the help opens. cmd/sift's `sift status` gives the same lines.
	Coverage func(ctx context.Context) ([]string, error)
	// Rescan, when set, asks the program to look at once for new and
	// grown files it watches (the agent histories): r calls it. It must
	// not block; what it finds reaches the store, and the inbox with the
	// store's next change.
	Rescan func()
	// Tabs are the inbox's own tabs (the configuration's), after
	// BuiltinTabs.
	Tabs []Tab
}

// defaultReviewerID is the reviewer recorded when the app is given none.
const defaultReviewerID = "tui"

// newCommon builds the shared state from options.
func newCommon(o Options, p themes.Palette) *Common {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	rev := o.Reviewer
	if rev == "" {
		rev = defaultReviewerID
	}
	return &Common{
		Styles: NewStyles(p), Keys: DefaultKeyMap(), Store: o.Store, Detail: detail.Reader{Open: o.OpenStream}, Resume: o.Resume,
		Now: now, Mode: o.Mode, Animate: !o.NoAnimation, Reviewer: rev,
		ClaimTTL: o.ClaimTTL, lexers: map[string]chroma.Lexer{},
	}
}
