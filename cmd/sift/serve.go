package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/cmd/sift/internal/httpapi"
	"github.com/agentsift/sift/core/config"
	"github.com/agentsift/sift/core/layout"
	"github.com/agentsift/sift/core/textsafe"
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
	if _, err := layout.MakeRoot(sf.Logs); err != nil {
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
		Store: app.Store{Store: st}, LogsDir: sf.Logs, Token: token, Loopback: loopback,
		Reviewer: reviewerOf("", sf.Cfg.Reviewer), ClaimTTL: sf.Cfg.ClaimTTL(), Logger: logger, Summary: sf.ImportOptions().Summary,
		Resume: resumeOf,
	})
	if err != nil {
		ln.Close()
		return fail(stderr, "serve", err)
	}
	defer api.Close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	bg := &app.Background{Env: &sf.Env, Store: st, Log: logger, Runner: "sift serve",
		OnReload: func(cfg config.Config) {
			env := sf.Env
			env.Cfg = cfg
			api.SetSummaryOptions(env.ImportOptions().Summary)
		}}
	bg.Start(ctx, app.Jobs{Sweep: true, IndexMissing: true})

	srv := httpapi.HTTPServer(ln.Addr().String(), api)
	fmt.Fprintf(stdout, "sift serve: listening on http://%s\n", ln.Addr())
	if err := app.ServeHTTP(ctx, srv, ln); err != nil {
		return fail(stderr, "serve", err)
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
