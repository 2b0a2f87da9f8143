package export

import (
	"html/template"
	"io"
	"strings"

	"github.com/agentsift/sift/core/textsafe"
)

// WriteHTML writes the report as one self-contained HTML page: its style
// is inline, it loads nothing (no scripts, fonts, images or links out),
// and every text is made inert and escaped by html/template.
func (r *Report) WriteHTML(w io.Writer) error {
	t, err := template.New("report").Funcs(template.FuncMap{
		"inert":    func(s string) string { return textsafe.Inert(strings.Join(strings.Fields(s), " ")) },
		"time":     fmtTime,
		"window":   window,
		"duration": fmtDuration,
		"cost":     fmtCost,
		"plural":   plural,
	}).Parse(reportHTML)
	if err != nil {
		return err
	}
	return t.Execute(w, r)
}

// reportHTML is the page. It has no URL of any kind but fragment links.
const reportHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sift report, {{time .GeneratedAt}}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;color:#222;background:#fff}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ddd}h3{font-size:1em;margin-bottom:.2em}
table{border-collapse:collapse}td,th{padding:.2em .7em;border-bottom:1px solid #eee;text-align:left}td.n{text-align:right}
code{background:#f4f4f4;padding:0 .25em;word-break:break-all}.flag{font-weight:600}.ev{color:#555;font-size:.92em}
nav a{margin-right:1em}
@media (prefers-color-scheme:dark){body{color:#ddd;background:#151515}code{background:#262626}h2{border-color:#333}td,th{border-color:#2a2a2a}.ev{color:#aaa}}
</style>
</head>
<body>
<h1>sift report, {{time .GeneratedAt}}</h1>
<p>{{plural .Sessions "run"}} {{window .Since}}.</p>
<nav><a href="#outcomes">outcomes</a><a href="#spend">cost and time</a><a href="#flagged">flagged</a><a href="#stalls">stalls</a><a href="#followups">follow-ups</a><a href="#decisions">decisions</a></nav>

<h2 id="outcomes">Runs by outcome</h2>
{{if .Outcomes}}<table><tr><th>outcome</th><th>runs</th></tr>
{{range .Outcomes}}<tr><td>{{inert .Outcome}}</td><td class="n">{{.Runs}}</td></tr>
{{end}}</table>{{else}}<p>No runs.</p>{{end}}

<h2 id="spend">Cost and time</h2>
{{if .ByAgent}}<table><tr><th>agent</th><th>runs</th><th>time</th><th>cost</th></tr>
{{range .ByAgent}}<tr><td>{{inert .Key}}</td><td class="n">{{.Runs}}</td><td class="n">{{duration .DurationMs}}</td><td class="n">{{cost .}}</td></tr>
{{end}}</table>
<p></p>
<table><tr><th>work item</th><th>runs</th><th>time</th><th>cost</th></tr>
{{range .ByWorkItem}}<tr><td>{{inert .Key}}</td><td class="n">{{.Runs}}</td><td class="n">{{duration .DurationMs}}</td><td class="n">{{cost .}}</td></tr>
{{end}}</table>{{else}}<p>No runs.</p>{{end}}

<h2 id="flagged">Flagged sessions</h2>
{{range .Flagged}}<h3>{{inert .Label}} ({{inert .Agent}}, {{inert .Outcome}})</h3>
<p><code>{{inert .Session}}</code></p>
<ul>{{range .Findings}}<li><span class="flag">{{inert (print .Flag)}}</span>: {{inert .Sentence}}{{if .Evidence}}<ul class="ev">{{range .Evidence}}<li>{{inert .}}</li>{{end}}</ul>{{end}}</li>
{{end}}</ul>
{{else}}<p>None.</p>{{end}}

<h2 id="stalls">Stalls</h2>
{{if .Stalls}}<table><tr><th>session</th><th>wait</th><th>kind</th><th>turn</th><th>line</th></tr>
{{range .Stalls}}<tr><td><code>{{inert .Session}}</code></td><td class="n">{{duration .GapMs}}</td><td>{{inert .Kind}}</td><td>{{inert .TurnID}}</td><td class="n">{{.Line}}</td></tr>
{{end}}</table>{{else}}<p>None.</p>{{end}}

<h2 id="followups">Open follow-ups</h2>
{{if .Followups}}<ul>{{range .Followups}}<li><code>{{inert .Session}}</code>, {{inert .Target}}, since {{time .Since}}{{if .Reviewer}} by {{inert .Reviewer}}{{end}}{{if .Note}}: {{inert .Note}}{{end}}
<br>resume: {{if .Resume}}<code>{{inert .Resume}}</code>{{if .ResumeFolder}}<br>folder: {{inert .ResumeFolder}}{{end}}{{if .ResumeWithNote}}<br>or, sends your note to the agent as the prompt: <code>{{inert .ResumeWithNote}}</code>{{end}}{{else}}{{inert .ResumeUnavailable}}{{end}}</li>
{{end}}</ul>{{else}}<p>None.</p>{{end}}

<h2 id="decisions">Decisions</h2>
{{if .Decisions}}<ul>{{range .Decisions}}<li>{{time .At}}: <strong>{{inert .Decision}}</strong> on <code>{{inert .Session}}</code>, {{inert .Target}}{{if .Reviewer}} by {{inert .Reviewer}}{{end}}{{if .Note}}: {{inert .Note}}{{end}}</li>
{{end}}</ul>{{else}}<p>None {{window .Since}}.</p>{{end}}
</body>
</html>
`

// WriteJSON writes the report as one indented JSON document, inert.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := textsafe.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
