package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/export"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/textsafe"
)

// followupsUsage is the usage line of `sift followups`.
const followupsUsage = "followups [--json]   the open needs_followup decisions, each with its note, failing call and a command to resume the agent's session"

// resumeOf is how to resume a follow-up's agent session: the one command
// sift followups, sift report, the inbox and the API give.
func resumeOf(f *review.Followup) review.Resume { return app.ResumeOf(f) }

// runFollowups implements `sift followups [--json]`.
func runFollowups(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("followups", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "followups", err)
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "followups", err)
	}
	defer st.Close()
	fus, err := st.Followups(context.Background())
	if err != nil {
		return fail(stderr, "followups", err)
	}
	out := make([]export.FollowupItem, len(fus))
	for i := range fus {
		out[i] = export.FollowupOf(&fus[i], resumeOf(&fus[i]))
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	if *asJSON {
		enc := textsafe.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return fail(stderr, "followups", err)
		}
		return 0
	}
	writeFollowups(w, out)
	return 0
}

// writeFollowups prints the follow-ups, one block each. Everything from a
// stream or a note is inert; the resume command is quoted for a shell.
func writeFollowups(w io.Writer, fs []export.FollowupItem) {
	if len(fs) == 0 {
		fmt.Fprintln(w, "no open follow-ups")
		return
	}
	for i, f := range fs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		target := f.WorkItemID + "/" + f.FileName
		if f.TurnID != "" {
			target += " turn " + f.TurnID
		}
		if f.ToolCallID != "" {
			target += " tool call " + f.ToolCallID
		}
		fmt.Fprintf(w, "%s (%s)\n", textsafe.Inert(target), textsafe.Inert(f.AgentKind))
		fmt.Fprintf(w, "  note:    %s\n", textsafe.Inert(f.Note))
		fmt.Fprintf(w, "  by:      %s, %s\n", textsafe.Inert(orDash(f.ReviewerID)), f.CreatedAt.Local().Format("2006-01-02 15:04"))
		if c := f.FailingCall; c != nil {
			line := c.Name + " " + c.ID
			switch {
			case c.Why != "":
				line += ": " + c.Why
			case c.Error != nil:
				first, _, _ := strings.Cut(strings.TrimSpace(*c.Error), "\n")
				line += ": " + first
			}
			fmt.Fprintf(w, "  failed:  %s\n", textsafe.Inert(line))
		}
		r := f.Resume
		if r == nil {
			fmt.Fprintf(w, "  resume:  %s\n", textsafe.Inert(f.ResumeUnavailable))
			continue
		}
		fmt.Fprintf(w, "  resume:  %s\n", textsafe.Inert(r.Command))
		switch {
		case r.DirUnknown != "":
			fmt.Fprintf(w, "  folder:  %s\n", textsafe.Inert(r.DirUnknown))
		case r.DirFrom == review.DirFromStream:
			fmt.Fprintf(w, "  folder:  from the stream\n")
		}
		if n := r.WithNote; n != nil {
			fmt.Fprintf(w, "  or:      %s\n           (%s)\n", textsafe.Inert(n.Command), n.Label)
		}
	}
}
