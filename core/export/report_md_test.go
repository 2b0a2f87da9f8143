package export

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// gfm renders Markdown as GitHub does, with cmark-gfm and GitHub's
// extensions; the test skips when cmark-gfm is not installed.
func gfm(t testing.TB, md []byte) string {
	t.Helper()
	bin, err := exec.LookPath("cmark-gfm")
	if err != nil {
		t.Skip("install cmark-gfm (apt-get install cmark-gfm): the Markdown report is checked by rendering it")
	}
	cmd := exec.Command(bin, "--extension", "autolink", "--extension", "table", "--extension", "strikethrough",
		"--extension", "tagfilter", "--extension", "tasklist", "--extension", "footnotes")
	cmd.Stdin = bytes.NewReader(md)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cmark-gfm: %v", err)
	}
	return string(out)
}

// streamReport is a report in which text is every text a stream, a stored
// row or a reviewer gives: the work item, file name, phase, agent and
// outcome of a session, a flag's sentence, the final message (evidence of
// the failed run), a stall's kind and turn, a decision's target, note
// and reviewer, and a follow-up's resume text.
func streamReport(text string) *Report {
	now := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	it, gap := 1, int64(5000)
	final := text
	s := review.Session{Summary: summary.Summary{WorkItemID: text, FileName: text + ".jsonl", Phase: text, Iteration: &it,
		AgentKind: text, Outcome: summary.Outcome(text), FinalAssistantMessage: &final, TotalDurationMs: &gap,
		Flags:     []summary.Flag{summary.FlagHarnessError, summary.FlagRunFailed, summary.FlagStall},
		Flagged:   true,
		FlagNotes: []summary.FlagNote{{Flag: summary.FlagHarnessError, Evidence: summary.Evidence{Sentence: text, Line: 3}}},
		Stalls:    []summary.Stall{{GapMs: gap, Kind: summary.StallKind(text), TurnID: text, Line: 4}}}}
	d := review.Decision{Session: s.Key(), TurnID: text, Kind: review.NeedsFollowup, Note: text, Reviewer: text,
		CreatedAt: now.Add(-time.Hour)}
	fu := review.Followup{Decision: d, Session: s}
	return BuildReport(ReportInput{Now: now, Since: now.Add(-24 * time.Hour), Sessions: []review.Session{s},
		Decisions: []review.Decision{d},
		Followups: []ReportFollowup{{Followup: fu, Resume: review.Resume{Argv: []string{text}, NoteArgv: []string{text}, DirWhy: text}},
			{Followup: fu, Resume: review.Resume{Why: text}}}})
}

var (
	codeElem  = regexp.MustCompile(`(?s)<code>.*?</code>`)
	linkElem  = regexp.MustCompile(`<a[\s>]`)
	strongEl  = regexp.MustCompile(`(?s)<strong>(.*?)</strong>`)
	mentionAt = regexp.MustCompile(`@[\p{L}\p{N}_-]`)
)

// checkInertMarkdown renders r's Markdown with cmark-gfm and fails where
// stream text became live: a link, a mention outside code, emphasis or
// strike-through other than the report's own bold outcomes and
// decisions, a heading or a block other than the report's own.
func checkInertMarkdown(t testing.TB, r *Report) string {
	t.Helper()
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	page := gfm(t, md.Bytes())
	if linkElem.MatchString(page) {
		t.Errorf("the page has a link:\n%s\nfrom:\n%s", page, md.String())
	}
	if m := mentionAt.FindString(codeElem.ReplaceAllString(page, "")); m != "" {
		t.Errorf("the page has a mention %q outside code:\n%s\nfrom:\n%s", m, page, md.String())
	}
	for _, tag := range []string{"<em>", "<del>", "<img", "<input", "<sup"} {
		if strings.Contains(page, tag) {
			t.Errorf("the page has %s:\n%s\nfrom:\n%s", tag, page, md.String())
		}
	}
	// The report's own bold: each entry's outcome, each decision's kind.
	bold := map[string]bool{string(review.Undone): true}
	n := len(r.Decisions) + len(r.ToReview)
	for _, o := range summary.Outcomes() {
		bold[o.Word()] = true
	}
	for _, k := range review.DecisionKinds() {
		bold[string(k)] = true
	}
	strong := strongEl.FindAllStringSubmatch(page, -1)
	if len(strong) != n {
		t.Errorf("the page has %d bold texts, the report writes %d:\n%s\nfrom:\n%s", len(strong), n, page, md.String())
	}
	for _, s := range strong {
		if !bold[s[1]] {
			t.Errorf("bold %q is stream text:\n%s\nfrom:\n%s", s[1], page, md.String())
		}
	}
	// The report's own blocks: its headings, paragraphs, tables and
	// lists; stream text opens none (no quote, rule or code block).
	for _, tag := range []string{"<h3", "<blockquote", "<hr", "<pre", "<ol"} {
		if strings.Contains(page, tag) {
			t.Errorf("the page has %s:\n%s\nfrom:\n%s", tag, page, md.String())
		}
	}
	if h := strings.Count(page, "<h2>"); h != 7 {
		t.Errorf("the page has %d sections, the report 7:\n%s\nfrom:\n%s", h, page, md.String())
	}
	if li := strings.Count(page, "<li>"); li != listItems(r) {
		t.Errorf("the page has %d list items, the report %d:\n%s\nfrom:\n%s", li, listItems(r), page, md.String())
	}
	return page
}

// listItems counts the list items the report writes: an entry of the
// to-review list, each finding and evidence line of it, each follow-up
// and its resume lines, each decision.
func listItems(r *Report) int {
	n := len(r.Decisions)
	for _, e := range r.ToReview {
		n++
		if e.Varied {
			n++
		}
		for _, f := range e.Findings {
			n += 1 + len(f.Evidence)
		}
	}
	for _, f := range r.Followups {
		n += 2
		if f.Resume != "" && f.ResumeFolder != "" {
			n++
		}
		if f.Resume != "" && f.ResumeWithNote != "" {
			n++
		}
	}
	return n
}

// hostileMarkdown are stream texts that a Markdown page, GitHub's above
// all, would act on.
var hostileMarkdown = []struct{ name, text, code string }{
	{"bare URL", "see https://evil.example/steal?x=1 now", "https://evil.example/steal?x=1"},
	{"www autolink", "visit www.evil.example today", "www.evil.example"},
	{"upper-case www", "visit WWW.evil.example today", ""},
	{"email", "mail ops@example.com for help", "ops@example.com"},
	{"mailto and xmpp", "mailto:ops@example.com xmpp:bot@example.com", ""},
	{"mention", "ping @octocat please", "@octocat"},
	{"team mention", "cc @github/security-team, thanks", "@github/security-team,"},
	{"mention after punctuation", "(@octocat) and x@y and `@a`", ""},
	{"autolink swallows the escape of an underscore", "www.evil.example/a_b and _this is emphasis_ ok", ""},
	{"autolinks swallow escapes into emphasis", "www.a.example_. the stream chose this www.b.example_", ""},
	{"autolinks swallow escapes into bold", "www.a.example**. bold www.b.example**", ""},
	{"autolink then emphasis", "https://e.example/*x and more* text_ **y**", ""},
	{"emphasis around a link", "*www.evil.example* _https://e.example/_ ~~x@y.z~~", ""},
	{"backticks in a link", "`https://evil.example` and ``@octocat`` and `x`@y `", ""},
	{"backtick at the edges", "`@octocat`", ""},
	{"pipes in a link", "a|https://e.example/|b @x|y", ""},
	{"backslash before a pipe", `a\|@x\\|b`, ""},
	{"markup", `<a href="https://e.example">x</a> [t](https://e.example) ![i](https://e.example/i.png) <https://e.example>`, ""},
	{"reference link", "[x]: https://evil.example", ""},
	{"footnote", "[^1] and [^1]: @octocat", ""},
	{"entities", "&#64;octocat &commat;octocat &lt;a&gt;", ""},
	{"issue reference", "fixes #12 and org/repo#3", ""},
	{"task list", "[ ] x", ""},
	{"list marker", "- 1. > x", "-"},
	{"ordered list", "1. first 2) second", "1."},
	{"block quote", "> quoted", "&gt;"},
	{"thematic break", "--- *** ___", "--- *** ___"},
	{"setext underline", "=== text", "==="},
	{"entity at the end", "a & b&", ""},
	{"plain", "rerun the tests", ""},
	{"empty", "", ""},
}

// TestReportMarkdownIsInert renders the Markdown report of hostile stream
// texts with cmark-gfm: nothing links, mentions or emphasizes, and text
// that could is shown in code as it was.
func TestReportMarkdownIsInert(t *testing.T) {
	for _, tc := range hostileMarkdown {
		t.Run(tc.name, func(t *testing.T) {
			page := checkInertMarkdown(t, streamReport(tc.text))
			if tc.code != "" && !strings.Contains(page, "<code>"+tc.code+"</code>") {
				t.Errorf("%q is not shown in code:\n%s", tc.code, page)
			}
		})
	}
}

// TestReportMarkdownPlainTextStaysText: text that cannot link or mention
// is not put in code, so the report reads as prose.
func TestReportMarkdownPlainTextStaysText(t *testing.T) {
	page := checkInertMarkdown(t, streamReport("rerun the tests, then look at a_b (twice)"))
	if !strings.Contains(page, ": rerun the tests, then look at a_b (twice)</li>") {
		t.Errorf("plain text is not shown as text:\n%s", page)
	}
}

// FuzzReportMarkdown puts fuzzed stream text everywhere a report shows
// one and checks the page cmark-gfm renders stays inert.
func FuzzReportMarkdown(f *testing.F) {
	for _, tc := range hostileMarkdown {
		f.Add(tc.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkInertMarkdown(t, streamReport(text))
	})
}
