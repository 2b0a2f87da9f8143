package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/layout"
	"github.com/agentsift/sift/core/textsafe"
	"github.com/agentsift/sift/store"

	"github.com/agentsift/sift/core/config"
)

// doctorUsage is the help line of `sift doctor`.
const doctorUsage = "doctor [--db PATH] [--logs DIR] [--config PATH]   print the effective configuration and check the database, logs and history folders"

// runDoctor implements `sift doctor`: it prints the effective
// configuration and where it came from, then the database, the logs folder
// and the agent CLIs' history folders, one line each, with whether each
// exists, its permissions and, for the logs folder, whether sift may sweep
// it. Anything wrong with sift's own files is listed at the end, one
// `problem:` line each, and the exit status is 1; 0 when all is well.
// The history folders are the agent CLIs' own (~/.claude is 0755 as
// Claude Code makes it): what is amiss there is a `warning:` line, which
// fails nothing. It creates nothing.
func runDoctor(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fset.SetOutput(stderr)
	sf := addStoreFlags(fset)
	if _, err := parseArgs(fset, args, 0); err != nil {
		return fail(stderr, "doctor", err)
	}
	d := &doctor{w: stdout}
	if err := sf.Load(); err != nil {
		d.problem("configuration: %v (the lines below use the defaults)", err)
	}
	d.config(sf.Cfg)
	if db, err := sf.DBPath(); err != nil {
		d.problem("database: %v", err)
	} else if store.IsPostgres(db) {
		d.line("database: %s (PostgreSQL)", store.RedactDSN(db))
	} else {
		d.path("database", db, false, true)
	}
	d.logs(sf.Logs)
	// The configuration's project folders: doctor opens no store.
	d.histories(app.HistoryHarnessRoots(app.HistoryRoots(os.Getenv, sf.Cfg.Projects...)))
	for _, w := range d.warnings {
		fmt.Fprintln(stdout, "warning: "+textsafe.Inert(w))
	}
	if len(d.problems) == 0 {
		fmt.Fprintln(stdout, "no problems found")
		return 0
	}
	for _, p := range d.problems {
		fmt.Fprintln(stdout, "problem: "+textsafe.Inert(p))
	}
	return 1
}

// doctor collects the report's lines, problems and warnings.
type doctor struct {
	w                  io.Writer
	problems, warnings []string
}

// line prints one line; paths and config values in it are made inert.
func (d *doctor) line(format string, args ...any) {
	fmt.Fprintln(d.w, textsafe.Inert(fmt.Sprintf(format, args...)))
}

func (d *doctor) problem(format string, args ...any) {
	d.problems = append(d.problems, fmt.Sprintf(format, args...))
}

// warn notes what is amiss with a folder that is not sift's.
func (d *doctor) warn(format string, args ...any) {
	d.warnings = append(d.warnings, fmt.Sprintf(format, args...))
}

// config prints the effective configuration, one key a line. An agent's
// Env shows its variable names only: their values may be secrets.
func (d *doctor) config(c config.Config) {
	from := c.File()
	if from == "" {
		from = "(defaults)"
		if p, err := config.DefaultPath(); err == nil {
			from += "; no file at " + app.QuoteArg(p)
		}
	} else {
		from = app.QuoteArg(from)
	}
	d.line("config: %s", from)
	d.line("config Enabled: %t", c.Enabled)
	d.line("config Path: %s", app.QuoteArg(c.Path))
	d.line("config MaxFileSizeMb: %d", c.MaxFileSizeMb)
	d.line("config RetainedDays: %d", c.RetainedDays)
	d.line("config MaxTotalSizeMb: %d", c.MaxTotalSizeMb)
	d.line("config StallThresholdSeconds: %g", c.StallThresholdSeconds)
	d.line("config ToolStallThresholdSeconds: %g", c.ToolStallThresholdSeconds)
	d.line("config TokenSpikeFactor: %g", c.TokenSpikeFactor)
	d.line("config TokenSpikeMin: %d", c.TokenSpikeMin)
	d.line("config Review.FullEventsHours: %d", c.Review.FullEventsHours)
	d.line("config Review.FlaggedDays: %d", c.Review.FlaggedDays)
	d.line("config Review.SummariesDays: %d", c.Review.SummariesDays)
	if c.History == nil {
		d.line("config History: unset (the inbox imports and watches the histories once the store holds any)")
	} else {
		d.line("config History: %t", *c.History)
	}
	for _, p := range c.Projects {
		d.line("config Projects: %s", app.QuoteArg(p))
	}
	kinds := make([]string, 0, len(c.Agents))
	for k := range c.Agents {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		a := c.Agents[k]
		var env []string
		for name := range a.Env {
			env = append(env, name)
		}
		slices.Sort(env)
		bin, names := "(none)", "(none)"
		if a.Binary != "" {
			bin = app.QuoteArg(a.Binary)
		}
		if len(env) > 0 {
			names = strings.Join(env, " ")
		}
		d.line("config Agents.%s: Binary %s, Env %s", app.QuoteArg(k), bin, app.QuoteArg(names))
	}
}

// path prints one path's line: whether it exists, what it is and its
// permissions. Every path doctor checks holds agents' prompts and
// outputs, so one that others can read is a problem of sift's own (own)
// and a warning of an agent CLI's, whose folders sift does not make or
// change; dir says it must be a folder.
func (d *doctor) path(what, p string, dir, own bool) {
	problem := d.problem
	if !own {
		problem = d.warn
	}
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.line("%s: %s: absent", what, app.QuoteArg(p))
		return
	case err != nil:
		d.line("%s: %s: %v", what, app.QuoteArg(p), unwrapPathErr(err))
		problem("%s %s: %v", what, app.QuoteArg(p), unwrapPathErr(err))
		return
	}
	d.line("%s: %s: exists, %s", what, app.QuoteArg(p), fi.Mode())
	if dir && !fi.IsDir() {
		problem("%s %s is not a folder", what, app.QuoteArg(p))
		return
	}
	if who := exposedTo(p, fi); who != "" {
		mode := "600"
		if fi.IsDir() {
			mode = "700"
		}
		fix := "chmod " + mode + " it"
		if !own {
			fix = "the agent CLI made it so; sift leaves it alone"
		}
		problem("%s %s can be read by %s (%s): it holds agents' prompts and outputs; %s",
			what, app.QuoteArg(p), who, fi.Mode(), fix)
	}
}

// histories prints, for each harness whose history folder exists, the
// folder's line (its permissions, as the logs'), then how many sessions
// are on disk there and how many could not be listed; the harnesses
// without one are one line. It lists the folders as an import does,
// read-only (a database is read from a copy, removed after).
func (d *doctor) histories(hs []app.HarnessHistory) {
	var roots []ingest.HistoryRoot
	var absent []string
	for _, h := range hs {
		if len(h.Found) == 0 {
			absent = append(absent, h.Name)
			continue
		}
		for _, r := range h.Roots {
			if slices.Contains(h.Found, r.Dir) {
				roots = append(roots, r)
			}
		}
	}
	found := ingest.FindHistory(roots)
	defer found.Close()
	counts := found.Histories()
	for _, h := range hs {
		if len(h.Found) == 0 {
			continue
		}
		for _, dir := range h.Found {
			d.path("history "+h.Name, dir, true, false)
		}
		var n, failed int
		for _, c := range counts {
			if string(c.Agent.Harness()) == h.Name {
				n, failed = n+c.Found, failed+c.Failed
			}
		}
		d.line("history %s: %s on disk, %d unreadable", h.Name, plural(n, "session"), failed)
		if failed > 0 {
			d.warn("history %s: %d sessions or folders could not be read (sift import --history names them)", h.Name, failed)
		}
	}
	if len(absent) > 0 {
		d.line("history not found: %s", strings.Join(absent, ", "))
	}
}

// logs prints the logs folder's line: its path and permissions, and
// whether it is marked as sift's own, and says what keeps the sweep out
// of it.
func (d *doctor) logs(p string) {
	d.path("logs", p, true, true)
	fi, err := os.Lstat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			d.line("logs marked: no; sift creates and marks the folder at the first `sift run` or `sift serve`")
		}
		return
	}
	marked, _ := layout.Marked(p)
	if fi.Mode()&fs.ModeSymlink != 0 {
		marked = false
	}
	d.line("logs marked: %s", map[bool]string{true: "yes (" + layout.MarkerName + ")", false: "no"}[marked])
	if w := app.RootWarning(layout.CheckSweepRoot(p)); w != "" {
		d.problem("%s", w)
	}
}

// exposedTo names who besides the owner can read p ("group", "others",
// "group and others"), or "": a class can read it when p grants it read
// and every folder above grants it passage.
func exposedTo(p string, fi fs.FileInfo) string {
	var who []string
	for _, c := range []struct {
		name        string
		read, enter fs.FileMode
	}{{"group", 0o040, 0o010}, {"others", 0o004, 0o001}} {
		if fi.Mode().Perm()&c.read != 0 && reachable(p, c.enter) {
			who = append(who, c.name)
		}
	}
	return strings.Join(who, " and ")
}

// reachable reports whether every folder above p grants the permission
// bit enter.
func reachable(p string, enter fs.FileMode) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return true
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		fi, err := os.Stat(dir)
		if err == nil && fi.Mode().Perm()&enter == 0 {
			return false
		}
		if dir == filepath.Dir(dir) {
			return true
		}
	}
}

// unwrapPathErr drops a *PathError's path, which the line names already.
func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
