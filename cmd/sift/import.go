package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/textsafe"
)

// storeFlags are the global flags of the commands that use the store:
// --db, --logs and --config. The configuration supplies the logs folder
// (its Path) when --logs is not given, and the retention settings.
type storeFlags struct {
	app.Env
}

// addStoreFlags registers --db, --logs and --config on a command's flag
// set.
func addStoreFlags(fs *flag.FlagSet) *storeFlags {
	f := &storeFlags{Env: app.NewEnv()}
	fs.StringVar(&f.DB, "db", "", "database: a file, or a postgres:// URL (default $SIFT_DB, the configuration's Database, else $XDG_DATA_HOME/sift/sift.db)")
	fs.Func("logs", "`folder` of captured stream files (default: the configuration's Path, "+f.Logs+")", func(v string) error {
		if strings.TrimSpace(v) == "" {
			return errors.New("must not be empty")
		}
		f.Logs, f.LogsSet = v, true
		return nil
	})
	fs.StringVar(&f.ConfigPath, "config", "", "configuration file (default <user config dir>/sift/config.yaml)")
	return f
}

// signalContext is cancelled by ^C.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// runImport implements `sift import [PATH…]`.
func runImport(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	force := fs.Bool("force", false, "re-summarize unchanged files too")
	workers := fs.Int("workers", 0, "files summarized at once (default: one per CPU)")
	history := fs.Bool("history", false, "import the agent CLIs' own session histories (see cmd/sift/internal/app/history.go)")
	agent := fs.String("agent", "", "read the files as this `kind`'s streams, unsniffed (unknown: as plain text); a file named alone that no sniffer claims needs it; "+
		"with --history, the harnesses whose histories to import, comma-separated: "+strings.Join(app.HistoryHarnesses(), ", ")+" (default: every one found)")
	paths, err := parseArgs(fs, args, -1)
	if err != nil {
		return fail(stderr, "import", err)
	}
	if *history && len(paths) > 0 {
		return fail(stderr, "import", app.ErrHistoryPaths)
	}
	var picked []string
	if *history {
		for n := range strings.SplitSeq(*agent, ",") {
			if n = strings.TrimSpace(n); n != "" {
				picked = append(picked, n)
			}
		}
		if _, err := app.PickHistories(nil, picked); err != nil {
			return fail(stderr, "import", err)
		}
		*agent = ""
	} else if *agent != "" {
		if _, err := agents.Default().Lookup(agents.Kind(*agent)); err != nil {
			return fail(stderr, "import", fmt.Errorf("--agent: %w", err))
		}
	}
	ctx, stop := signalContext()
	defer stop()
	pr := newProgressPrinter(stderr)
	res, err := app.Import(ctx, &sf.Env, app.ImportSpec{Paths: paths, History: *history, Agents: picked, Force: *force,
		Workers: *workers, Agent: *agent, Progress: pr.report})
	pr.done()
	if oe := (*app.OpenError)(nil); errors.As(err, &oe) {
		return fail(stderr, "import", oe.Err)
	}
	return reportImport(stdout, stderr, "import", res, err)
}

// reportImport prints an import's closing line and failures and returns
// the exit status: 1 when a file failed, 2 when the store did.
func reportImport(stdout, stderr io.Writer, cmd string, res ingest.Result, err error) int {
	for _, h := range res.Histories {
		fmt.Fprintln(stdout, historyLine(h))
	}
	fmt.Fprintln(stdout, importLine(res))
	for _, f := range res.Failed {
		// The path and the reason may quote a hostile file name.
		fmt.Fprintf(stderr, "sift %s: failed: %s\n", cmd, textsafe.Inert(f.String()))
	}
	if err != nil {
		return fail(stderr, cmd, err)
	}
	if len(res.Failed) > 0 {
		return 1
	}
	return 0
}

// historyLine is one harness's line of a history import: its folders,
// then its sessions found, imported, unchanged and failed.
func historyLine(h ingest.HistoryCount) string {
	return fmt.Sprintf("%s: %s: %d sessions found, %d imported, %d unchanged, %d failed", h.Agent.Harness(),
		textsafe.Inert(strings.Join(h.Dirs, ", ")), h.Found, h.Imported, h.Unchanged, h.Failed)
}

// importLine is the one closing line of an import.
func importLine(r ingest.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d files, %d sessions, %s in %s (%.1f MB/s), %d skipped", r.Files, r.Sessions,
		mb(r.Bytes), r.Elapsed.Round(time.Millisecond), r.MBps(), r.Skipped)
	if r.Deferred > 0 {
		fmt.Fprintf(&b, ", %d deferred (work item running)", r.Deferred)
	}
	if r.Ignored > 0 {
		fmt.Fprintf(&b, ", %d ignored (not stream files)", r.Ignored)
	}
	if r.Purged > 0 {
		fmt.Fprintf(&b, ", %d purged (sift purge)", r.Purged)
	}
	fmt.Fprintf(&b, ", %d failed", len(r.Failed))
	return b.String()
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// progressPrinter shows an import's progress: a bar redrawn in place on a
// terminal, else a plain line every few seconds. The rate and the ETA
// count from the first file read, not from the find before it, and no ETA
// is shown before a twentieth of the bytes is read: an ETA from the first
// file alone said "1h2m29s" for an import that ended a second later.
// Once done, it prints nothing more.
type progressPrinter struct {
	w     io.Writer
	tty   bool
	now   func() time.Time
	last  time.Time
	every time.Duration
	drawn bool
	// lines counts the plain lines printed; closed is set by done.
	lines  int
	closed bool
	// first is when the first file was read, with the bytes read then;
	// latest is the last progress heard.
	first      time.Time
	firstBytes int64
	latest     ingest.Progress
}

func newProgressPrinter(w io.Writer) *progressPrinter {
	p := &progressPrinter{w: w, every: 3 * time.Second, now: time.Now}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.tty, p.every = true, 100*time.Millisecond
		}
	}
	return p
}

// report implements the progress callback of ingest.Import.
func (p *progressPrinter) report(pr ingest.Progress) {
	if p.closed {
		return
	}
	now := p.now()
	if p.first.IsZero() {
		p.first, p.firstBytes = now, pr.BytesDone
	}
	p.latest = pr
	final := pr.FilesDone == pr.FilesTotal
	if now.Sub(p.last) < p.every && !(final && p.drawn) {
		return
	}
	if !p.tty && (final || pr.Elapsed < p.every) {
		return // done says it
	}
	p.last = now
	line := p.line(pr, now)
	if !p.tty {
		fmt.Fprintln(p.w, "importing: "+line)
		p.lines++
		return
	}
	const width = 24
	frac := 1.0
	if pr.BytesTotal > 0 {
		frac = float64(pr.BytesDone) / float64(pr.BytesTotal)
	}
	n := int(frac * width)
	fmt.Fprintf(p.w, "\r\x1b[K[%s%s] %3.0f%%  %s", strings.Repeat("█", n), strings.Repeat("░", width-n), frac*100, line)
	p.drawn = true
}

// line is one progress report: files, bytes, rate and ETA.
func (p *progressPrinter) line(pr ingest.Progress, now time.Time) string {
	secs := now.Sub(p.first).Seconds()
	read := pr.BytesDone - p.firstBytes
	rate := 0.0
	if secs > 0 {
		rate = float64(read) / 1e6 / secs
	}
	eta := "?"
	if pr.BytesDone*20 >= pr.BytesTotal && read > 0 && secs > 0 {
		left := time.Duration(secs * float64(pr.BytesTotal-pr.BytesDone) / float64(read) * float64(time.Second))
		eta = left.Round(time.Second).String()
	}
	line := fmt.Sprintf("%d/%d files  %s/%s  %.1f MB/s  ETA %s", pr.FilesDone, pr.FilesTotal,
		mb(pr.BytesDone), mb(pr.BytesTotal), rate, eta)
	if pr.Failed > 0 {
		line += fmt.Sprintf("  %d failed", pr.Failed)
	}
	return line
}

// done ends the progress before the closing line: it clears the bar, or,
// when plain lines were printed, prints the last as it ended, so that no
// line left behind says an import is under way. Nothing is printed after.
func (p *progressPrinter) done() {
	if p.closed {
		return
	}
	p.closed = true
	switch {
	case p.tty && p.drawn:
		fmt.Fprint(p.w, "\r\x1b[K")
	case !p.tty && p.lines > 0:
		pr, state := p.latest, "done"
		if pr.FilesDone < pr.FilesTotal {
			state = "stopped"
		}
		fmt.Fprintf(p.w, "importing: %d/%d files  %s/%s  %s\n", pr.FilesDone, pr.FilesTotal, mb(pr.BytesDone), mb(pr.BytesTotal), state)
	}
}
