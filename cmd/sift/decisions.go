package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/core/textsafe"
	"github.com/agentsift/sift/store"
)

// decisionsUsage is the usage line of `sift decisions`.
const decisionsUsage = "decisions export [--since D] | import FILE   decisions as JSON lines, the one thing the stream files cannot rebuild; an import adds only those the store lacks"

// maxDecisionLine bounds one line of a decisions file: a decision with a
// long note.
const maxDecisionLine = 4 << 20

// runDecisions implements `sift decisions export|import`.
func runDecisions(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprintf(stdout, "usage: sift %s\n(sift decisions export -h and sift decisions import -h list their flags)\n", decisionsUsage)
		return 0
	}
	if len(args) == 0 || (args[0] != "export" && args[0] != "import") {
		return fail(stderr, "decisions", fmt.Errorf("want export or import (usage: sift %s)", decisionsUsage))
	}
	if args[0] == "export" {
		return runDecisionsExport(args[1:], stdout, stderr)
	}
	return runDecisionsImport(args[1:], stdin, stdout, stderr)
}

// runDecisionsExport writes the decisions as JSON lines, oldest first.
func runDecisionsExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("decisions export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	sinceArg := fs.String("since", "", "only decisions made since then: a duration (90m, 36h, 7d) or a date (YYYY-MM-DD, RFC 3339)")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "decisions", err)
	}
	var since time.Time
	if *sinceArg != "" {
		t, err := parseSinceTime(*sinceArg, time.Now())
		if err != nil {
			return fail(stderr, "decisions", err)
		}
		since = t
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "decisions", err)
	}
	defer st.Close()
	w := bufio.NewWriter(stdout)
	enc := textsafe.NewEncoder(w)
	err = st.ExportDecisions(context.Background(), since, func(d store.ExportedDecision) error { return enc.Encode(d) })
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return fail(stderr, "decisions", err)
	}
	return 0
}

// parseSinceTime reads --since: a duration back from now, a date or an
// RFC 3339 time (search.Since); a duration past a hundred years means all
// time, the zero time.
func parseSinceTime(s string, now time.Time) (time.Time, error) {
	if t, err := search.Since(s, now); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation(time.RFC3339Nano, s, time.Local); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("--since %q: want a duration (90m, 36h, 7d, 2w) or a date (YYYY-MM-DD, RFC 3339)", s)
}

// runDecisionsImport reads decisions written by `sift decisions export`
// and adds those the store lacks, all or none.
func runDecisionsImport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("decisions import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return fail(stderr, "decisions", fmt.Errorf("%w (usage: sift %s)", err, decisionsUsage))
	}
	name := pos[0]
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return fail(stderr, "decisions", err)
		}
		defer f.Close()
		r = f
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "decisions", err)
	}
	defer st.Close()
	res, err := (app.Store{Store: st}).ImportDecisions(context.Background(), func(add func(store.ExportedDecision) error) error {
		return readDecisions(r, name, add)
	})
	if err != nil {
		return fail(stderr, "decisions", fmt.Errorf("%w; nothing was imported", err))
	}
	fmt.Fprintf(stdout, "imported %s, %d already in the store\n", plural(res.Added, "decision"), res.Present)
	me := reviewerOf("", sf.Cfg.Reviewer)
	for _, r := range res.NewReviewers {
		you := ""
		if r == me {
			you = " (that is you: they read as your own decisions)"
		}
		fmt.Fprintf(stderr, "sift decisions: new reviewer %s%s\n", textsafe.Inert(r), you)
	}
	if res.Unknown > 0 {
		names := make([]string, len(res.FirstUnknown))
		for i, k := range res.FirstUnknown {
			names[i] = textsafe.Inert(k.String())
		}
		more := ""
		if res.Unknown > len(names) {
			more = fmt.Sprintf(" and %d more", res.Unknown-len(names))
		}
		fmt.Fprintf(stderr, "sift decisions: %s this store does not hold, kept for when it does: %s%s\n",
			plural(res.Unknown, "session"), strings.Join(names, ", "), more)
	}
	return 0
}

// readDecisions reads JSON lines of decisions one at a time, skipping
// blank lines, and hands each to add. An error, a line that is not a
// decision or one longer than maxDecisionLine among them, names name:line.
func readDecisions(r io.Reader, name string, add func(store.ExportedDecision) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, err := readLine(br, maxDecisionLine)
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return nil
		}
		if errors.Is(err, errLongLine) {
			return fmt.Errorf("%s:%d: a line longer than %d bytes is not a decision", name, n, maxDecisionLine)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if line = bytes.TrimSpace(line); len(line) == 0 {
			continue
		}
		var d store.ExportedDecision
		if err := json.Unmarshal(line, &d); err != nil {
			return fmt.Errorf("%s:%d: not a decision: %v", name, n, err)
		}
		if err := add(d); err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
}

// errLongLine is readLine's error for a line past its bound.
var errLongLine = errors.New("line too long")

// readLine reads one line without its newline, at most max bytes of it:
// a longer line is read to its end and dropped, with errLongLine. At the
// end of the input it returns what is left with io.EOF.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	long := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !long {
			if len(line)+len(chunk) > max+1 {
				long, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if long {
			return nil, errLongLine
		}
		return bytes.TrimSuffix(line, []byte("\n")), err
	}
}
