package export

import (
	"html/template"
	"io"
	"strings"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/core/textsafe"
)

// WriteHTML writes the report as one self-contained HTML page: its style
// is inline, it loads nothing (no scripts, fonts, images or links out),
// and every text is made inert and escaped by html/template. Each run
// left to review has an anchor (RunRef.Anchor, hex digits only), which
// the stalls, follow-ups and decisions link to when it is on the page;
// outcomes are coloured (failed and died red, interrupted amber).
func (r *Report) WriteHTML(w io.Writer) error {
	listed := map[string]bool{}
	for _, e := range r.ToReview {
		for _, run := range e.Runs {
			listed[run.Anchor] = true
		}
	}
	t, err := template.New("report").Funcs(template.FuncMap{
		"inert":    func(s string) string { return textsafe.Inert(strings.Join(strings.Fields(s), " ")) },
		"time":     fmtTime,
		"window":   window,
		"duration": fmtDuration,
		"dur":      fmtDurationOf,
		"cost":     fmtSpendCost,
		"costw":    costWords,
		"usd":      func(v *float64) string { return fmtUSD(*v) },
		"plural":   plural,
		"flags":    flagNames,
		"varied":   func() string { return variedWords },
		"oclass":   outcomeClass,
		"oword":    outcomeWord,
		"listed":   func(a string) bool { return listed[a] },
		"notelbl":  func() string { return review.NoteLabel },
		"add":      func(a, b int) int { return a + b },
		"spends":   func() []spendTable { return spendTables(r) },
	}).Parse(reportHTML)
	if err != nil {
		return err
	}
	return t.Execute(w, r)
}

// outcomeClass is an outcome's class in the page, one of a fixed few
// whatever the stored word.
func outcomeClass(o string) string {
	switch summary.Outcome(o) {
	case summary.OutcomeFailed, summary.OutcomeDiedBeforeStart:
		return "o-failed"
	case summary.OutcomeInterrupted:
		return "o-interrupted"
	case summary.OutcomeCompleted:
		return "o-completed"
	}
	return "o-unknown"
}

// reportHTML is the page. It has no URL of any kind but fragment links.
const reportHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sift report, {{time .GeneratedAt}}</title>
<style>
:root{--fg:#222;--sub:#666;--bg:#fff;--line:#e4e4e4;--code:#f4f4f4;--red:#b42318;--redbg:#fdecea;--amber:#9a5b00;--amberbg:#fff4de;--green:#1b7f3b;--greenbg:#e7f6ec;--grey:#555;--greybg:#eee}
@media (prefers-color-scheme:dark){:root{--fg:#ddd;--sub:#999;--bg:#151515;--line:#2c2c2c;--code:#262626;--red:#ff8a80;--redbg:#3a1614;--amber:#ffc266;--amberbg:#35260b;--green:#7ddc97;--greenbg:#14301d;--grey:#bbb;--greybg:#2a2a2a}}
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:64em;padding:0 1em;color:var(--fg);background:var(--bg)}
h1{font-size:1.4em;margin-bottom:.1em}h2{font-size:1.15em;margin-top:1.8em;border-bottom:1px solid var(--line)}
.when,.sub{color:var(--sub)}
.totals{display:flex;flex-wrap:wrap;gap:.6em;list-style:none;padding:0}
.totals li{border:1px solid var(--line);border-radius:6px;padding:.35em .8em}.fig{font-size:1.25em;font-weight:600}
.totals .bad{border-color:var(--red);color:var(--red)}.totals .warn{border-color:var(--amber);color:var(--amber)}
nav a{margin-right:1em}
table{border-collapse:collapse}td,th{padding:.2em .7em;border-bottom:1px solid var(--line);text-align:left}td.n,th.n{text-align:right}
code{background:var(--code);padding:0 .25em;word-break:break-all}
.badge{display:inline-block;border-radius:4px;padding:0 .45em;font-weight:600;font-size:.9em}
.o-failed .badge,.badge.o-failed{color:var(--red);background:var(--redbg)}
.o-interrupted .badge,.badge.o-interrupted{color:var(--amber);background:var(--amberbg)}
.o-completed .badge,.badge.o-completed{color:var(--green);background:var(--greenbg)}
.o-unknown .badge,.badge.o-unknown{color:var(--grey);background:var(--greybg)}
article{border-left:4px solid var(--line);padding:.2em 0 .2em .8em;margin:1em 0}
article.o-failed{border-color:var(--red)}article.o-interrupted{border-color:var(--amber)}
article ul{margin:.2em 0;padding-left:1.3em}.runs{list-style:none;padding-left:0!important}
.runs li:target{background:var(--code)}
.flag{font-weight:600}.line,.ev{color:var(--sub)}.ev{font-size:.92em}
</style>
</head>
<body>
<h1>sift report</h1>
<p class="when">{{time .GeneratedAt}}; runs {{window .Since}}</p>
<ul class="totals">
<li><span class="fig">{{.Totals.Runs}}</span> runs</li>
<li{{if .Totals.Failed}} class="bad"{{end}}><span class="fig">{{.Totals.Failed}}</span> failed</li>
{{if .Totals.Interrupted}}<li class="warn"><span class="fig">{{.Totals.Interrupted}}</span> interrupted</li>
{{end}}<li><span class="fig">{{.Totals.ToReview}}</span> left to review</li>
<li>{{if .Totals.CostUSD}}<span class="fig">{{usd .Totals.CostUSD}}</span> spent{{if .Totals.UnknownCost}} <span class="sub">and {{plural .Totals.UnknownCost "run"}} of unknown cost</span>{{end}}{{else}}spend unknown{{end}}</li>
<li><span class="fig">{{.Totals.FollowupsOpen}}</span> follow-ups open</li>
</ul>
<nav><a href="#review">to review</a><a href="#outcomes">outcomes</a><a href="#spend">cost and time</a><a href="#stalls">stalls</a><a href="#followups">follow-ups</a><a href="#decisions">decisions</a></nav>

<h2 id="review">Left to review ({{.Totals.ToReview}})</h2>
{{if .ToReview}}<p class="sub">Failed, died and interrupted runs first, then flagged ones; the most harmful and costliest first.</p>
{{else}}<p>Nothing: every failed, interrupted or flagged run {{window .Since}} is decided.</p>
{{end}}{{range .ToReview}}<article class="{{oclass .Outcome}}">
<p><span class="badge">{{inert (oword .Outcome)}}</span>{{if or (gt (len .Runs) 1) .MoreRuns}} {{add (len .Runs) .MoreRuns}} {{inert .Agent}} runs with the same flags{{end}} <span class="sub">{{dur .DurationMs}}, {{costw .CostUSD .UnknownCost}}</span></p>
<ul class="runs">{{range .Runs}}<li id="{{.Anchor}}"><a href="#{{.Anchor}}">{{inert .Label}}</a> <span class="sub">{{inert .Agent}}</span> <code>{{inert .Session}}</code></li>{{end}}{{if .MoreRuns}}<li class="sub">and {{.MoreRuns}} more</li>{{end}}</ul>
<ul>{{range .Findings}}<li><span class="flag">{{inert (flags .)}}</span>: {{inert .Sentence}}{{if .Line}} <span class="line">line {{.Line}}</span>{{end}}{{if .Evidence}}<ul class="ev">{{range .Evidence}}<li>{{inert .}}</li>{{end}}</ul>{{end}}</li>
{{end}}{{if .Varied}}<li class="sub">{{varied}}</li>
{{end}}</ul>
</article>
{{end}}{{if .MoreToReview}}<p>And {{plural .MoreToReview "more run"}} left to review: <code>sift</code> opens them in this order.</p>
{{end}}
<h2 id="outcomes">Runs by outcome</h2>
{{if .Outcomes}}<table><tr><th>outcome</th><th class="n">runs</th></tr>
{{range .Outcomes}}<tr><td><span class="badge {{oclass .Outcome}}">{{inert (oword .Outcome)}}</span></td><td class="n">{{.Runs}}</td></tr>
{{end}}</table>{{else}}<p>No runs.</p>{{end}}

<h2 id="spend">Cost and time</h2>
{{if .ByAgent}}{{range spends}}<table><tr><th>{{.Col}}</th><th class="n">runs</th><th class="n">time</th><th class="n">cost</th></tr>
{{range .Rows}}<tr><td>{{inert .Key}}</td><td class="n">{{.Runs}}</td><td class="n">{{dur .DurationMs}}</td><td class="n">{{cost .CostUSD .UnknownCost}}</td></tr>
{{end}}</table>{{if .More}}<p class="sub">And {{.More}} more, {{.What}}.</p>{{end}}
<p></p>
{{end}}{{else}}<p>No runs.</p>{{end}}

<h2 id="stalls">Stalls</h2>
{{if .Stalls}}<table><tr><th>run</th><th>agent</th><th class="n">wait</th><th>kind</th><th>turn</th><th class="n">line</th></tr>
{{range .Stalls}}<tr><td>{{template "run" .RunRef}}</td><td>{{inert .Agent}}</td><td class="n">{{duration .GapMs}}</td><td>{{inert .Kind}}</td><td>{{inert .TurnID}}</td><td class="n">{{.Line}}</td></tr>
{{end}}</table>{{if .MoreStalls}}<p class="sub">And {{plural .MoreStalls "more stall"}}, shorter.</p>{{end}}{{else}}<p>None.</p>{{end}}

<h2 id="followups">Open follow-ups ({{.Totals.FollowupsOpen}})</h2>
{{if .Followups}}<ul>{{range .Followups}}<li>since {{time .Since}}{{if .Reviewer}}, {{inert .Reviewer}}{{end}}: {{template "run" .RunRef}} <span class="sub">{{inert .Agent}}</span>, {{inert .Target}}{{if .Note}}: {{inert .Note}}{{end}}
<br>resume: {{if .Resume}}<code>{{inert .Resume}}</code>{{if .ResumeFolder}}<br>folder: {{inert .ResumeFolder}}{{end}}{{if .ResumeWithNote}}<br>or, {{notelbl}}: <code>{{inert .ResumeWithNote}}</code>{{end}}{{else}}{{inert .ResumeUnavailable}}{{end}}</li>
{{end}}</ul>{{if .MoreFollowups}}<p class="sub">And {{.MoreFollowups}} more, newer: <code>sift followups</code> lists them all.</p>{{end}}{{else}}<p>None.</p>{{end}}

<h2 id="decisions">Decisions {{window .Since}}</h2>
{{if .MoreDecisions}}<p class="sub">{{plural .MoreDecisions "decision"}} before these.</p>
{{end}}{{if .Decisions}}<table><tr><th>when</th><th>who</th><th>what</th><th>run</th><th>on</th><th>note</th></tr>
{{range .Decisions}}<tr><td>{{time .At}}</td><td>{{inert .Reviewer}}</td><td><strong>{{inert .Decision}}</strong></td><td>{{template "run" .RunRef}}</td><td>{{inert .Target}}</td><td>{{inert .Note}}</td></tr>
{{end}}</table>{{else}}<p>None.</p>{{end}}
</body>
</html>
{{define "run"}}{{if listed .Anchor}}<a href="#{{.Anchor}}">{{inert .Label}}</a>{{else}}{{inert .Label}}{{end}}{{end}}`

// WriteJSON writes the report as one indented JSON document, inert.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := textsafe.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
