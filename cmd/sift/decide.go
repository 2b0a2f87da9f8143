package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"
	"strings"
	"text/tabwriter"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/textsafe"
)

// runDecide implements `sift decide SESSION --decision D [--turn T]
// [--tool-call C] [--note N] [--reviewer R]`, `sift decide SESSION --undo`
// (withdraw the session's latest decision) and `sift decide SESSION
// --history`.
func runDecide(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("decide", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	decision := fs.String("decision", "", "reviewed|needs_followup|ignored (required)")
	turn := fs.String("turn", "", "decide on this turn (t1, t2, …)")
	call := fs.String("tool-call", "", "decide on this tool call id")
	note := fs.String("note", "", "a note for the record")
	reviewer := fs.String("reviewer", "", "reviewer id (default: the configuration's Reviewer, else $USER)")
	undo := fs.Bool("undo", false, "withdraw the session's latest decision (on it, a turn or a tool call) as a new event")
	history := fs.Bool("history", false, "print the session's decisions, undos included, oldest first")
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return fail(stderr, "decide", fmt.Errorf("%w (usage: sift decide SESSION --decision D)", err))
	}
	kind := review.DecisionKind(*decision)
	switch {
	case (*undo || *history) && (*decision != "" || *turn != "" || *call != "" || *note != ""):
		return fail(stderr, "decide", fmt.Errorf("--undo and --history take no --decision, --turn, --tool-call or --note"))
	case *undo && *history:
		return fail(stderr, "decide", fmt.Errorf("give --undo or --history, not both"))
	case !*undo && !*history && !kind.Valid():
		return fail(stderr, "decide", fmt.Errorf("--decision %q: want reviewed, needs_followup or ignored", *decision))
	case !*undo && !*history && review.CheckNote(kind, *note) != nil:
		return fail(stderr, "decide", fmt.Errorf("%w (give it with --note)", review.ErrFollowupNeedsNote))
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "decide", err)
	}
	defer st.Close()
	*reviewer = reviewerOf(*reviewer, sf.Cfg.Reviewer)
	ctx := context.Background()
	key, err := st.ResolveSession(ctx, pos[0])
	if err != nil {
		return fail(stderr, "decide", err)
	}
	switch {
	case *history:
		hist, err := st.Decisions(ctx, key)
		if err != nil {
			return fail(stderr, "decide", err)
		}
		writeHistory(stdout, hist)
		return 0
	case *undo:
		d, err := (app.Store{Store: st}).Undo(ctx, key, *reviewer)
		if err != nil {
			return fail(stderr, "decide", err)
		}
		fmt.Fprintf(stdout, "undid %s on %s by %s\n", d.Kind, textsafe.Inert(target(key, d.TurnID, d.ToolCallID)), textsafe.Inert(*reviewer))
		return 0
	}
	d := review.Decision{Session: key, TurnID: *turn, ToolCallID: *call, Kind: kind, Note: *note, Reviewer: *reviewer}
	if err := (app.Store{Store: st}).Decide(ctx, d); err != nil {
		return fail(stderr, "decide", err)
	}
	fmt.Fprintf(stdout, "recorded %s on %s by %s\n", kind, textsafe.Inert(target(key, *turn, *call)), textsafe.Inert(*reviewer))
	return 0
}

// target names a decision's target: the session, and its turn and tool
// call when given.
func target(k review.SessionKey, turn, call string) string {
	t := k.String()
	if turn != "" {
		t += " turn " + turn
	}
	if call != "" {
		t += " tool call " + call
	}
	return t
}

// writeHistory prints a session's decisions, oldest first: an undo names
// the decision it withdrew, and a withdrawn decision says so.
func writeHistory(w io.Writer, hist []review.Decision) {
	if len(hist) == 0 {
		fmt.Fprintln(w, "no decisions")
		return
	}
	gone := review.Withdrawn(hist)
	kinds := map[int64]review.DecisionKind{}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTIME\tDECISION\tTARGET\tREVIEWER\tNOTE")
	for _, d := range hist {
		kinds[d.ID] = d.Kind
		what := string(d.Kind)
		switch {
		case d.Kind == review.Undone:
			what = fmt.Sprintf("undone (#%d %s)", d.Supersedes, kinds[d.Supersedes])
		case gone[d.ID]:
			what += " (undone)"
		}
		where := "session"
		if d.TurnID != "" || d.ToolCallID != "" {
			where = strings.TrimSpace(d.TurnID + " " + d.ToolCallID)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", d.ID, d.CreatedAt.Local().Format("2006-01-02 15:04"), what,
			textsafe.Inert(where), textsafe.Inert(orDash(d.Reviewer)), textsafe.Inert(d.Note))
	}
	tw.Flush()
}

// reviewerOf is the reviewer recorded on decisions: the --reviewer flag,
// else the configuration's Reviewer, else $USER, else the OS user's name;
// redacted, as the store keeps it.
func reviewerOf(flag, configured string) string { return redact.String(reviewerName(flag, configured)) }

// reviewerName is reviewerOf before redaction.
func reviewerName(flag, configured string) string {
	switch {
	case flag != "":
		return flag
	case configured != "":
		return configured
	case os.Getenv("USER") != "":
		return os.Getenv("USER")
	}
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return ""
}
