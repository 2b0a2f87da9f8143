package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

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
	st, err := sf.open()
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

// parseSinceTime reads --since: a duration back from now, or a date.
func parseSinceTime(s string, now time.Time) (time.Time, error) {
	if d, err := parseSince(s); err == nil {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, time.DateOnly} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--since %q: want a duration (90m, 36h, 7d) or a date (YYYY-MM-DD, RFC 3339)", s)
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
	ds, lines, err := readDecisions(r, name)
	if err != nil {
		return fail(stderr, "decisions", err)
	}
	st, err := sf.open()
	if err != nil {
		return fail(stderr, "decisions", err)
	}
	defer st.Close()
	added, present, err := st.ImportDecisions(context.Background(), ds)
	var bad *store.DecisionImportError
	if errors.As(err, &bad) {
		return fail(stderr, "decisions", fmt.Errorf("%s:%d: %w; nothing was imported", name, lines[bad.Index], bad.Err))
	}
	if err != nil {
		return fail(stderr, "decisions", err)
	}
	fmt.Fprintf(stdout, "imported %s, %d already in the store\n", plural(added, "decision"), present)
	return 0
}

// readDecisions reads JSON lines of decisions, skipping blank lines; lines
// holds each decision's line number. A line that is not a decision is an
// error naming name:line.
func readDecisions(r io.Reader, name string) (ds []store.ExportedDecision, lines []int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxDecisionLine)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var d store.ExportedDecision
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: not a decision: %v", name, n, err)
		}
		ds = append(ds, d)
		lines = append(lines, n)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s:%d: %w", name, n+1, err)
	}
	return ds, lines, nil
}
