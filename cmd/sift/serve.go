package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/cmd/sift/internal/httpapi"
	"github.com/agentsift/sift/core/capture"
	"github.com/agentsift/sift/core/config"
	"github.com/agentsift/sift/core/textsafe"
	"github.com/agentsift/sift/store"
)

// tokenEnv names the environment variable holding the API's bearer token.
const tokenEnv = "SIFT_API_TOKEN"

// runServe implements `sift serve [--addr 127.0.0.1:7777]`: the HTTP API,
// with the retention sweep at start and daily and the configuration
// reloaded when its file changes. It serves until ^C or SIGTERM.
func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, stdout, stderr)
}

// serve runs the API until ctx ends, then shuts down gracefully.
func serve(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	addr := fs.String("addr", httpapi.DefaultAddr, "listen address; anything but loopback needs a token, for every request")
	tokenFile := fs.String("token-file", "", "file holding the bearer token (default: $"+tokenEnv+")")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "serve", err)
	}
	token, err := readToken(*tokenFile)
	if err != nil {
		return fail(stderr, "serve", err)
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "serve", err)
	}
	defer st.Close()
	// A logs folder serve creates is sift's own: MakeRoot marks it.
	if _, err := capture.MakeRoot(sf.Logs); err != nil {
		return fail(stderr, "serve", fmt.Errorf("logs folder: %w", err))
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fail(stderr, "serve", err)
	}
	loopback := httpapi.IsLoopbackListener(ln)
	if !loopback && token == "" {
		ln.Close()
		return fail(stderr, "serve", fmt.Errorf("%s is not a loopback address: set a bearer token ($%s or --token-file), "+
			"which every request will need, or listen on 127.0.0.1", textsafe.Inert(*addr), tokenEnv))
	}
	logger := serveLogger(stderr)
	api, err := httpapi.New(httpapi.Options{
		Store: st, LogsDir: sf.Logs, Token: token, Loopback: loopback,
		Reviewer: reviewerOf("", sf.Cfg.Reviewer), ClaimTTL: sf.Cfg.ClaimTTL(), Logger: logger, Summary: sf.ImportOptions().Summary,
	})
	if err != nil {
		ln.Close()
		return fail(stderr, "serve", err)
	}
	defer api.Close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	bg := newBackground(sf, st, api, logger)
	go bg.retention(ctx)
	go bg.watchConfig(ctx)
	go indexMissing(ctx, st, logger)

	srv := httpapi.HTTPServer(ln.Addr().String(), api)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "sift serve: listening on http://%s\n", ln.Addr())
	select {
	case err := <-done:
		if !errors.Is(err, http.ErrServerClosed) {
			return fail(stderr, "serve", err)
		}
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			srv.Close()
		}
	}
	return 0
}

// serveLogger is the log of sift serve: slog's text format, which quotes
// any value holding a control, a C1 or a bidirectional character and
// escapes it there, so a path or stream text in a logged error stays
// inert (TestServeLogLinesAreInert).
func serveLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// background is the work a long-lived sift process (`sift serve`, the
// inbox) does besides its own: the retention sweep and configuration hot
// reload. The current configuration is swapped atomically on reload; the
// logs folder stays the one the process started with.
type background struct {
	sf  *storeFlags
	st  *store.Store
	api *httpapi.Server // nil outside sift serve
	log *slog.Logger
	// report, when set, also hears each sweep (the inbox shows it).
	report  func(app.SweepReport, error)
	cfg     atomic.Pointer[config.Config]
	resweep chan struct{}
	// refused is the last warning about a logs folder the sweep refused,
	// logged once rather than daily; only retention touches it.
	refused string
}

func newBackground(sf *storeFlags, st *store.Store, api *httpapi.Server, log *slog.Logger) *background {
	b := &background{sf: sf, st: st, api: api, log: log, resweep: make(chan struct{}, 1)}
	cfg := sf.Cfg
	b.cfg.Store(&cfg)
	return b
}

// retention sweeps at start, then daily, and again at once when a reload
// changes a retention setting. Each pass uses the current configuration.
func (b *background) retention(ctx context.Context) {
	t := time.NewTicker(24 * time.Hour)
	defer t.Stop()
	for {
		flags := *b.sf
		flags.Cfg = *b.cfg.Load()
		res, err := app.Sweep(ctx, b.st, &flags.Env, b.runner())
		if b.report != nil && ctx.Err() == nil {
			b.report(res, err)
		}
		if w := sweepWarning(res); w != "" && w != b.refused {
			b.log.Warn(w)
		}
		b.refused = sweepWarning(res)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			b.log.Error("Retention sweep failed", "err", err)
		default:
			b.log.Info("Retention sweep", "filesDeleted", res.FilesDeleted, "bytesDeleted", res.BytesDeleted,
				"filesBySize", res.FilesBySize, "summariesSwept", res.Data.SummariesSwept,
				"eventSessionsSwept", res.Data.EventsDeleted, "elapsed", res.Elapsed.Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-b.resweep:
		}
	}
}

// runner names the process that sweeps, in the record of its sweeps.
func (b *background) runner() string {
	if b.api != nil {
		return "sift serve"
	}
	return "inbox"
}

// watchConfig reloads the configuration file when it changes: the sweep's
// settings and the thresholds of on-demand summaries follow it; a changed
// Path is reported and ignored until restart.
func (b *background) watchConfig(ctx context.Context) {
	path := b.sf.ConfigPath
	if path == "" {
		p, err := config.DefaultPath()
		if err != nil {
			return
		}
		path = p
	}
	config.NewWatcher(path, *b.cfg.Load(), 0).Run(ctx, func(u config.Update) {
		if u.Err != nil {
			b.log.Error("Configuration not reloaded", "err", u.Err)
			return
		}
		b.log.Info(u.Notice())
		old := b.cfg.Swap(&u.Config)
		flags := *b.sf
		flags.Cfg = u.Config
		if b.api != nil {
			b.api.SetSummaryOptions(flags.ImportOptions().Summary)
		}
		if old.RetainedDays != u.Config.RetainedDays || old.MaxTotalSizeMb != u.Config.MaxTotalSizeMb || old.Review != u.Config.Review {
			select {
			case b.resweep <- struct{}{}:
			default:
			}
		}
	})
}

// readToken reads the bearer token from a file, else from the
// environment; empty when neither is set. A token given on the command
// line would show in the process list, so there is no flag for it.
func readToken(file string) (string, error) {
	if file == "" {
		return strings.TrimSpace(os.Getenv(tokenEnv)), nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	t := strings.TrimSpace(string(b))
	if t == "" {
		return "", fmt.Errorf("token file %s is empty", file)
	}
	return t, nil
}
