package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/core/textsafe"
)

// runList implements `sift list`: the inbox as a table or JSON. The JSON
// rows are the sessions' summaries without their tool calls, stalls and
// turns, which grow with the session (a session of 300,000 tool calls is
// 100 MB of them); --full adds them.
func runList(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	sort := fs.String("sort", "started", "order: "+sortNames())
	asc := fs.Bool("asc", false, "ascending order")
	flagged := fs.Bool("flagged", false, "only flagged sessions (or with an open needs_followup)")
	undecided := fs.Bool("undecided", false, "only sessions without a decision")
	agent := fs.String("agent", "", "only this agent kind")
	workItem := fs.String("work-item", "", "only this work item")
	since := fs.String("since", "", "only sessions active within this duration (90m, 36h, 7d)")
	limit := fs.Int("limit", 50, "at most this many rows (0: all)")
	offset := fs.Int("offset", 0, "skip this many rows")
	text := fs.String("text", "", "only sessions whose ids, model or final message contain this")
	asJSON := fs.Bool("json", false, "print a JSON array of summaries (without toolCalls, stalls and turns)")
	full := fs.Bool("full", false, "with --json: include each summary's toolCalls, stalls and turns")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "list", err)
	}
	if *full && !*asJSON {
		return fail(stderr, "list", fmt.Errorf("--full needs --json"))
	}
	q := review.Query{Sort: review.SortKey(*sort), Asc: *asc, Flagged: *flagged, Undecided: *undecided,
		Agent: *agent, WorkItem: *workItem, Limit: *limit, Offset: *offset, Text: *text,
		Full: *full, Decisions: *asJSON}
	if !validSort(q.Sort) {
		return fail(stderr, "list", fmt.Errorf("unknown --sort %q (want %s)", *sort, sortNames()))
	}
	if *since != "" {
		t, err := parseSinceTime(*since, time.Now())
		if err != nil {
			return fail(stderr, "list", err)
		}
		q.Since = t
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "list", err)
	}
	defer st.Close()
	page, err := st.ListSessions(context.Background(), q)
	if err != nil {
		return fail(stderr, "list", err)
	}
	rows := page.Sessions
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	if *asJSON {
		if err := writeRowsJSON(w, rows); err != nil {
			return fail(stderr, "list", err)
		}
		return 0
	}
	switch {
	case len(rows) > 0:
		writeTable(w, rows, terminalWidth(stdout))
	case *flagged || *undecided || *agent != "" || *workItem != "" || *since != "" || *text != "" || *offset > 0:
		fmt.Fprintln(w, noMatches)
	default:
		fmt.Fprintln(w, noMatches+" (no sessions stored: sift import PATH, or sift demo for a sample inbox)")
	}
	return 0
}

// rowEncoder is what writeRowsJSON encodes each row with; the indent is
// that of an array's element.
type rowEncoder interface {
	Encode(v any) error
	SetIndent(prefix, indent string)
}

// newRowEncoder returns the JSON encoder of list rows: textsafe's, which
// keeps control characters of stream text inert.
func newRowEncoder(w io.Writer) rowEncoder { return textsafe.NewEncoder(w) }

// writeRowsJSON writes the rows as an indented JSON array, the bytes an
// encoder with SetIndent("", "  ") writes for the slice, one row at a
// time: with --full a row can be tens of MB of JSON, and the array's is
// never held whole.
func writeRowsJSON(w io.Writer, rows []review.Session) error {
	if len(rows) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	var buf bytes.Buffer
	enc := newRowEncoder(&buf)
	enc.SetIndent("  ", "  ")
	sep := "[\n  "
	for i := range rows {
		buf.Reset()
		if err := enc.Encode(rows[i].Shown()); err != nil {
			return err
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if _, err := w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))); err != nil {
			return err
		}
		sep = ",\n  "
	}
	_, err := io.WriteString(w, "\n]\n")
	return err
}

func validSort(k review.SortKey) bool { return slices.Contains(review.SortKeys(), k) }

// sortNames lists the sort keys for --sort: a|b|c.
func sortNames() string {
	var ns []string
	for _, s := range review.SortKeys() {
		ns = append(ns, string(s))
	}
	return strings.Join(ns, "|")
}

// writeTable prints the inbox as aligned columns, fitted to width (0:
// no limit; table.write says how). Ids, names and kinds come from folder and file
// names and from streams: every cell is inert, which also keeps a tab in
// a name from breaking the columns.
func writeTable(w io.Writer, rows []review.Session, width int) {
	t := table{cols: listColumns(), rows: make([][]string, 0, len(rows))}
	for _, r := range rows {
		started := "-"
		switch {
		case r.StartedAt != nil:
			started = r.StartedAt.Local().Format("2006-01-02 15:04")
		case r.ActiveAt != nil:
			// No start recorded: its end, else its file's time, as the
			// started order places it.
			started = "~" + r.ActiveAt.Local().Format("2006-01-02 15:04")
		}
		dur := "-"
		if r.TotalDurationMs != nil {
			dur = (time.Duration(*r.TotalDurationMs) * time.Millisecond).Round(time.Second).String()
		}
		cost := "-"
		if r.EstimatedUSD != nil {
			cost = fmt.Sprintf("$%.4f", *r.EstimatedUSD)
			if r.CostSource == summary.CostEstimate {
				cost = "~" + cost
			}
		}
		tokens := "-"
		if r.InputTokens != nil || r.OutputTokens != nil {
			var n int64
			for _, v := range []*int64{r.InputTokens, r.OutputTokens} {
				if v != nil {
					n = event.AddCount(n, *v)
				}
			}
			tokens = strconv.FormatInt(n, 10)
		}
		flags := make([]string, len(r.Flags))
		for i, f := range r.Flags {
			flags[i] = string(f)
		}
		// The review state: the session's decision, or its flagged
		// turns' decisions rolled up.
		decision := orDash(string(r.State))
		t.rows = append(t.rows, []string{textsafe.Inert(r.Key().String()), textsafe.Inert(r.AgentKind),
			textsafe.Inert(r.Outcome.Word()), started, dur, cost, tokens, strconv.Itoa(r.ToolCallCount),
			strconv.Itoa(r.StallCount), strconv.Itoa(r.ErrorCount), strconv.Itoa(r.ApprovalCount),
			textsafe.Inert(orDash(strings.Join(flags, ","))), textsafe.Inert(decision)})
	}
	t.write(w, width)
}

// listColumns are sift list's columns. On a narrow terminal the flags
// are cut to 20 cells and the session to 40, then the counts go, then
// tokens, duration and the start; the session, agent, outcome, cost,
// flags and decision stay, the flags and the session cut further when
// they must.
func listColumns() []tableColumn {
	return []tableColumn{{title: "SESSION", cut: 2, soft: 40, least: 16}, {title: "AGENT"}, {title: "OUTCOME"},
		{title: "STARTED", drop: 7}, {title: "DURATION", drop: 6}, {title: "COST"}, {title: "TOKENS", drop: 5},
		{title: "TOOLS", drop: 2}, {title: "STALLS", drop: 3}, {title: "ERRORS", drop: 4}, {title: "APPROVALS", drop: 1},
		{title: "FLAGS", cut: 1, soft: 20, least: 8}, {title: "DECISION"}}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
