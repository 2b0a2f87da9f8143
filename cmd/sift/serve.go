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
	"syscall"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/httpapi"
	"github.com/agentsift/sift/store"
)

// tokenEnv names the environment variable holding the API's bearer token.
const tokenEnv = "SIFT_API_TOKEN"

// runServe implements `sift serve [--addr 127.0.0.1:7777]`: the HTTP API,
// with the retention sweep at start and daily.
func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	addr := fs.String("addr", httpapi.DefaultAddr, "listen address; anything but loopback needs a token for writes")
	tokenFile := fs.String("token-file", "", "file holding the bearer token POST /decisions requires (default: $"+tokenEnv+")")
	days := fs.Int("retained-days", 14, "the daily sweep deletes stream files older than this many days (0 keeps them)")
	maxMb := fs.Int("max-total-size-mb", 2048, "the daily sweep deletes the oldest stream files until under this size (0 disables)")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "serve", err)
	}
	token, err := readToken(*tokenFile)
	if err != nil {
		return fail(stderr, "serve", err)
	}
	if err := os.MkdirAll(sf.logs, 0o755); err != nil {
		return fail(stderr, "serve", fmt.Errorf("logs folder: %w", err))
	}
	st, err := sf.open()
	if err != nil {
		return fail(stderr, "serve", err)
	}
	defer st.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fail(stderr, "serve", err)
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	api, err := httpapi.New(httpapi.Options{
		Store: st, LogsDir: sf.logs, Token: token, Loopback: httpapi.IsLoopbackListener(ln),
		Reviewer: osUser(), Logger: logger,
	})
	if err != nil {
		ln.Close()
		return fail(stderr, "serve", err)
	}
	defer api.Close()
	if !api.WritesAllowed() {
		fmt.Fprintf(stderr, "sift serve: writes are disabled: %s is not a loopback address and no token is set ($%s or --token-file)\n",
			ln.Addr(), tokenEnv)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	retention := store.Retention{LogsRoot: sf.logs, RetainedDays: *days, MaxTotalSizeMb: *maxMb}
	go st.RunRetention(ctx, retention, 24*time.Hour, func(res store.SweepResult, err error) {
		if err != nil {
			logger.Error("Retention sweep failed", "err", err)
			return
		}
		logger.Info("Retention sweep", "filesDeleted", res.FilesDeleted, "bytesDeleted", res.BytesDeleted,
			"summariesSwept", res.SummariesSwept, "elapsed", res.Elapsed.Round(time.Millisecond))
	})

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
