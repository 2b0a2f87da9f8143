package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/core/textsafe"
)

const searchUsage = "search QUERY… [--limit N] [--json] [--sort KEY] [--asc]   one line per match: session, turn, call, where, snippet (sift help search)"

// snippetBytes is the length of a snippet `sift search` prints.
const snippetBytes = 100

// searchLine is one match as `sift search --json` prints it.
type searchLine struct {
	WorkItemID string `json:"workItemId"`
	FileName   string `json:"fileName"`
	AgentKind  string `json:"agentKind"`
	search.Match
}

// runSearch implements `sift search QUERY…`: the query language of the
// inbox's `/` (sift help search), one line per match, newest sessions
// first. Words of the query may start with - (exclusions): only the
// command's own flags are read as flags.
func runSearch(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	limit := fs.Int("limit", 50, "at most this many matches (lines)")
	asJSON := fs.Bool("json", false, "print a JSON array of matches")
	sort := fs.String("sort", "started", "order of the sessions: "+sortNames())
	asc := fs.Bool("asc", false, "ascending order")
	reviewer := fs.String("reviewer", "", "who the filter mine means (default: the configuration's Reviewer, else $USER)")
	flags, words := splitSearchArgs(fs, args)
	if _, err := parseArgs(fs, flags, 0); err != nil {
		return fail(stderr, "search", err)
	}
	q := review.Query{Search: strings.Join(words, " "), Sort: review.SortKey(*sort), Asc: *asc, Limit: max(*limit, 1)}
	switch {
	case strings.TrimSpace(q.Search) == "":
		return fail(stderr, "search", fmt.Errorf("no query (sift help search)"))
	case !validSort(q.Sort):
		return fail(stderr, "search", fmt.Errorf("unknown --sort %q (want %s)", *sort, sortNames()))
	case *limit < 1:
		return fail(stderr, "search", fmt.Errorf("--limit must be at least 1"))
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "search", err)
	}
	defer st.Close()
	q.Reviewer = reviewerOf(*reviewer, sf.Cfg.Reviewer)
	ctx, stop := signalContext()
	defer stop()
	if n, err := st.IndexMissing(ctx); err != nil {
		return fail(stderr, "search", err)
	} else if n > 0 {
		// Once after an upgrade: sessions stored before the index, or
		// with documents an earlier sift placed at wrong calls.
		fmt.Fprintf(stderr, "sift search: indexed %s stored by an earlier sift\n", plural(n, "session"))
	}
	lines, err := searchLines(ctx, st, q)
	if pe := (*search.ParseError)(nil); errors.As(err, &pe) {
		return fail(stderr, "search", errors.New(pe.Problem()))
	} else if err != nil {
		return fail(stderr, "search", err)
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	if *asJSON {
		if err := writeSearchJSON(w, lines); err != nil {
			return fail(stderr, "search", err)
		}
		return 0
	}
	writeSearchTable(w, lines)
	return 0
}

// matcher is what `sift search` asks of the store.
type matcher interface {
	ListSessions(ctx context.Context, q review.Query) (review.Page, error)
	Matches(ctx context.Context, k review.SessionKey, q review.Query, snippetBytes int) ([]search.Match, error)
}

// searchLines returns the matches of a search, at most q.Limit: each
// session's in its order, the sessions in the query's. A session that
// only filters selected (no word to match) is one line of its names.
func searchLines(ctx context.Context, st matcher, q review.Query) ([]searchLine, error) {
	page, err := st.ListSessions(ctx, q)
	if err != nil {
		return nil, err
	}
	var out []searchLine
	for i := range page.Sessions {
		s := &page.Sessions[i]
		ms, err := st.Matches(ctx, s.Key(), q, snippetBytes)
		if err != nil {
			return nil, err
		}
		if len(ms) == 0 {
			ms = []search.Match{{Where: search.InSession, Snippet: s.AgentKind + " · " + review.Label(s.WorkItemID, s.Phase, s.Iteration), Marks: [][2]int{}}}
		}
		for _, m := range ms {
			if len(out) == q.Limit {
				return out, nil
			}
			k := s.Key().Shown()
			out = append(out, searchLine{WorkItemID: k.WorkItemID, FileName: k.FileName, AgentKind: s.AgentKind, Match: m})
		}
	}
	return out, nil
}

// splitSearchArgs separates the command's own flags (with their values)
// from the words of the query, which may start with -; everything after
// "--" is query.
func splitSearchArgs(fs *flag.FlagSet, args []string) (flags, words []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return flags, append(words, args[i+1:]...)
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if !strings.HasPrefix(a, "-") || f == nil && name != "h" && name != "help" {
			words = append(words, a)
			continue
		}
		flags = append(flags, a)
		if f == nil || hasValue || i+1 == len(args) {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, words
}

// marked returns a snippet with its matches between « and », inert.
func marked(m search.Match) string {
	var b strings.Builder
	at := 0
	for _, s := range m.Marks {
		b.WriteString(m.Snippet[at:s[0]])
		b.WriteString("«" + m.Snippet[s[0]:s[1]] + "»")
		at = s[1]
	}
	b.WriteString(m.Snippet[at:])
	return textsafe.Inert(b.String())
}

// noMatches is what a table of sift search or sift list says for an empty
// result, rather than a header alone.
const noMatches = "no matches"

// writeSearchTable prints the matches as aligned columns; every cell is
// stream text, printed inert.
func writeSearchTable(w io.Writer, lines []searchLine) {
	if len(lines) == 0 {
		fmt.Fprintln(w, noMatches)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tTURN\tCALL\tWHERE\tMATCH")
	for _, l := range lines {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", textsafe.Inert(l.WorkItemID+"/"+l.FileName), orDash(textsafe.Inert(l.TurnID)),
			orDash(textsafe.Inert(l.ToolCallID)), l.Where, marked(l.Match))
	}
	tw.Flush()
}

// writeSearchJSON prints the matches as an indented JSON array, through
// textsafe's encoder.
func writeSearchJSON(w io.Writer, lines []searchLine) error {
	if lines == nil {
		lines = []searchLine{}
	}
	enc := textsafe.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(lines)
}

// runHelp implements `sift help [COMMAND]`: every command, or one
// command's usage; `sift help search` prints the query language.
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printCommands(stdout)
		return 0
	}
	if args[0] == "search" {
		fmt.Fprintln(stdout, "usage: sift "+searchUsage)
		fmt.Fprintln(stdout)
		for _, l := range search.Help() {
			fmt.Fprintln(stdout, l)
		}
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			fmt.Fprintf(stdout, "usage: sift %s\n(sift %s -h lists its flags)\n", c.usage, c.name)
			return 0
		}
	}
	fmt.Fprintf(stderr, "sift help: unknown command %q (see sift help)\n", textsafe.Inert(args[0]))
	return 2
}
