package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/store"
	"github.com/agentsift/sift/themes"
	"github.com/agentsift/sift/tui"
)

// inboxFlags are the flags of `sift` (the inbox) and `sift demo`.
type inboxFlags struct {
	theme    string
	operator bool
	reviewer string
}

func addInboxFlags(fs *flag.FlagSet) *inboxFlags {
	f := &inboxFlags{}
	fs.StringVar(&f.theme, "theme", "auto", "colour theme: auto (from the terminal background), dark, light or high-contrast")
	fs.BoolVar(&f.operator, "operator", false, "start in the operator view (display names, flagged sessions only)")
	fs.StringVar(&f.reviewer, "reviewer", "", "reviewer id recorded on decisions (default: the configuration's Reviewer, else $USER)")
	return f
}

// check validates the flags.
func (f *inboxFlags) check() error {
	_, err := themes.ByName(f.theme, true)
	return err
}

// options are the app options the flags set; configured is the
// configuration's Reviewer ("" when none).
func (f *inboxFlags) options(st tui.Store, configured string) tui.Options {
	o := tui.Options{Store: st, Theme: f.theme, Reviewer: reviewerOf(f.reviewer, configured), Resume: resumeOf}
	if f.operator {
		o.Mode = tui.Operator
	}
	return o
}

// runInbox implements `sift` with no command: the inbox on the default
// store, after starting an import of the logs folder in the background,
// and of the agent histories when history import is on (historyOf), then
// their watch, followed by the retention sweep (again daily while the
// inbox is open, and when a reloaded configuration changes retention).
func runInbox(args []string, _ io.Reader, _, stderr io.Writer) int {
	fs := flag.NewFlagSet("sift", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	inf := addInboxFlags(fs)
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "inbox", err)
	}
	if err := inf.check(); err != nil {
		return fail(stderr, "inbox", err)
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "inbox", err)
	}
	defer st.Close()
	ctx, cancel := stopContext()
	defer cancel()
	names, watch, err := historyOf(ctx, st, sf)
	if err != nil {
		return fail(stderr, "inbox", err)
	}
	opts := inf.options(app.InboxStore{Store: app.Store{Store: st}, Names: names}, sf.Cfg.Reviewer)
	for _, t := range sf.Cfg.Tabs {
		opts.Tabs = append(opts.Tabs, tui.Tab{Name: t.Name, Query: t.Query})
	}
	projects, err := sf.KnownProjects(ctx, st)
	if err != nil {
		return fail(stderr, "inbox", err)
	}
	roots := sf.StreamRoots(projects...)
	opts.OpenStream = func(path string) (*os.File, error) {
		f, err := ingest.OpenStream(roots, path)
		if f == nil && err == nil {
			return nil, fmt.Errorf("%s: %w", path, iofs.ErrNotExist)
		}
		return f, err
	}
	opts.ClaimTTL = sf.Cfg.ClaimTTL()
	opts.Coverage = func(ctx context.Context) ([]string, error) { return coverage(ctx, st, sf) }
	_, statErr := os.Stat(sf.Logs)
	opts.Importing = statErr == nil || watch != nil
	if watch != nil {
		opts.Rescan = watch.Poke
	}
	inbox, err := tui.NewApp(opts)
	if err != nil {
		return fail(stderr, "inbox", err)
	}
	p := newProgram(inbox, ctx)
	if watch != nil {
		// What the watch imports shows at once, not at the inbox's next
		// poll of the store: within a second of the agent's write.
		watch.OnImport = func() { p.Send(tui.StoreWrittenMsg{}) }
	}
	// The inbox is a long-lived sift process: the import first, then the
	// retention sweep, at start and daily, and the configuration reloaded
	// when its file changes.
	bg := &app.Background{Env: &sf.Env, Store: st, Log: slog.Default(), Runner: "inbox",
		OnSweep: func(res app.SweepReport, err error) {
			p.Send(tui.SweepMsg{Removed: figures(res), Err: err, Warning: res.Warning()})
		}}
	bg.Start(ctx, app.Jobs{Sweep: true, Import: statErr == nil, History: watch, ReapStale: true, Progress: func(ip app.ImportProgress) {
		p.Send(tui.ImportProgressMsg{Files: ip.Files, Total: ip.Total, Sessions: ip.Sessions, Done: ip.Done, Err: ip.Err})
	}})
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return fail(stderr, "inbox", err)
	}
	return 0
}

// historyOf returns how the inbox names history sessions' projects, and
// the watch of the agent histories when history import is on (the
// configuration's History, else whether the store holds history sessions
// already), nil when it is off.
func historyOf(ctx context.Context, st *store.Store, sf *storeFlags) (*app.ProjectNames, *app.HistoryWatch, error) {
	held, err := st.HoldsHistory(ctx)
	if err != nil {
		return nil, nil, err
	}
	names := app.NewProjectNames(st)
	if held {
		if err := names.Load(ctx); err != nil {
			return nil, nil, err
		}
	}
	if !sf.Cfg.HistoryOn(held) {
		return names, nil, nil
	}
	projects, err := sf.KnownProjects(ctx, st)
	if err != nil {
		return nil, nil, err
	}
	watch := app.NewHistoryWatch(st, &sf.Env, app.HistoryRoots(os.Getenv, projects...))
	watch.OnNew = func() {
		if err := names.Load(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("Naming the history projects failed", "err", err)
		}
	}
	return names, watch, nil
}

// stopContext is the inbox's context: cancelled by SIGHUP (its terminal
// closed), SIGTERM or SIGINT, which then stop it as q does, its deferred
// clean-up run (the store closed, the demo's temporary folder removed),
// rather than end the process where it is.
func stopContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), syscall.SIGHUP, syscall.SIGTERM, os.Interrupt)
}

// newProgram makes the Bubble Tea program; NO_COLOR drops colours and
// keeps bold, underline and reverse. The app's log goes to $SIFT_LOG, or
// nowhere: stderr is the screen.
func newProgram(inbox *tui.App, ctx context.Context) *tea.Program {
	var w io.Writer = io.Discard
	if p := os.Getenv("SIFT_LOG"); p != "" {
		if f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
			w = f
		}
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(w, nil)))
	opts := []tea.ProgramOption{tea.WithContext(ctx)}
	if os.Getenv("NO_COLOR") != "" {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	return tea.NewProgram(inbox, opts...)
}
