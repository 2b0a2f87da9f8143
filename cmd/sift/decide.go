package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/textsafe"
)

// runDecide implements `sift decide SESSION --decision D [--turn T]
// [--tool-call C] [--note N] [--reviewer R]`.
func runDecide(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("decide", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	decision := fs.String("decision", "", "reviewed|needs_followup|ignored (required)")
	turn := fs.String("turn", "", "decide on this turn (t1, t2, …)")
	call := fs.String("tool-call", "", "decide on this tool call id")
	note := fs.String("note", "", "a note for the record")
	reviewer := fs.String("reviewer", "", "reviewer id (default: the OS user)")
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return fail(stderr, "decide", fmt.Errorf("%w (usage: sift decide SESSION --decision D)", err))
	}
	kind := review.DecisionKind(*decision)
	if !kind.Valid() {
		return fail(stderr, "decide", fmt.Errorf("--decision %q: want reviewed, needs_followup or ignored", *decision))
	}
	if *reviewer == "" {
		*reviewer = osUser()
	}
	st, err := sf.open()
	if err != nil {
		return fail(stderr, "decide", err)
	}
	defer st.Close()
	ctx := context.Background()
	key, err := st.ResolveSession(ctx, pos[0])
	if err != nil {
		return fail(stderr, "decide", err)
	}
	d := review.Decision{Session: key, TurnID: *turn, ToolCallID: *call, Kind: kind, Note: *note, Reviewer: *reviewer}
	if err := st.Decide(ctx, d); err != nil {
		return fail(stderr, "decide", err)
	}
	target := key.String()
	if *turn != "" {
		target += " turn " + *turn
	}
	if *call != "" {
		target += " tool call " + *call
	}
	fmt.Fprintf(stdout, "recorded %s on %s by %s\n", kind, textsafe.Inert(target), textsafe.Inert(*reviewer))
	return 0
}

// osUser names the user running sift.
func osUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return os.Getenv("USER")
}
