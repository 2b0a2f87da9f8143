package tui

import (
	"os/exec"

	"github.com/agentsift/sift/core/detail"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

type (
	// openSessionMsg asks the app to open a session; todo, when not 0,
	// selects its first (1) or last (-1) flagged undecided turn once it
	// is loaded.
	openSessionMsg struct {
		key    review.SessionKey
		search review.Query
		todo   int
	}
	// sessionLoadedMsg is sent when a session and its decisions return.
	sessionLoadedMsg struct {
		session   review.Session
		decisions []review.Decision
		search    review.Query
		matches   []search.Match
		todo      int
		err       error
	}
	// openToolCallMsg asks the app to open a tool call of the session.
	openToolCallMsg struct{ id string }
	// detailLoadedMsg is sent when a stream file has been re-parsed.
	detailLoadedMsg struct {
		path   string
		callID string
		fd     *detail.File
		raw    []string
		err    error
	}
	// openDecisionMsg asks the app to open the decision dialog on one
	// target or more (the marked sessions).
	openDecisionMsg struct {
		targets  []decisionTarget
		followup bool
	}
	// decisionMadeMsg is sent by the dialog when the reviewer saves: one
	// decision per target.
	decisionMadeMsg struct {
		targets []decisionTarget
		ds      []review.Decision
	}
	// decisionSavedMsg is sent when the store has recorded the
	// decisions (all, or up to the first error): ds are those recorded,
	// attempted all that were asked for, targets theirs.
	decisionSavedMsg struct {
		targets   []decisionTarget
		ds        []review.Decision
		attempted []review.Decision
		err       error
	}
	// undoMsg asks the app to withdraw the latest decision on a session.
	undoMsg struct{ target decisionTarget }
	// undoneMsg is sent when the store has recorded an undo: d is the
	// decision withdrawn.
	undoneMsg struct {
		target decisionTarget
		d      review.Decision
		err    error
	}
	// openHistoryMsg asks the app to show a session's decisions.
	openHistoryMsg struct{ key review.SessionKey }
	// historyLoadedMsg is sent when a session's decisions return.
	historyLoadedMsg struct {
		key       review.SessionKey
		decisions []review.Decision
		err       error
	}
	// todoMsg asks the app for the next (dir 1) or previous (-1) flagged
	// undecided item, across sessions.
	todoMsg struct{ dir int }
	// todoFoundMsg is sent when the inbox found the next flagged
	// undecided session in its order: index is its row.
	todoFoundMsg struct {
		seq   int
		index int
		key   review.SessionKey
		dir   int
		open  bool
		err   error
	}
	// openFollowupsMsg asks the app to show the open follow-ups.
	openFollowupsMsg struct{}
	// followupsLoadedMsg is sent when the open follow-ups return.
	followupsLoadedMsg struct {
		fs  []review.Followup
		err error
	}
	// openCopyMsg asks the app to offer what of a tool call to copy.
	openCopyMsg struct{ items []copyItem }
	// copyMsg copies text to the clipboard (OSC 52) and says what.
	copyMsg struct{ what, text string }
	// closeOverlayMsg closes the dialog, help, history, follow-ups or
	// the copy menu.
	closeOverlayMsg struct{}
	// statusMsg shows a line in the status bar for a while.
	statusMsg struct{ text string }
	// errMsg reports a failed command in the status bar.
	errMsg struct{ err error }
	// clearStatusMsg clears the status line if it is still the one set.
	clearStatusMsg struct{ seq int }
	// execMsg asks the app to hand the terminal to a program; tmp, when
	// set, is a temporary file of sift's that is removed once the program
	// exits.
	execMsg struct {
		cmd *exec.Cmd
		tmp string
	}
	// execDoneMsg is sent when $PAGER or $EDITOR exits; tmp is the
	// temporary file it was shown, removed now.
	execDoneMsg struct {
		err error
		tmp string
	}
)
