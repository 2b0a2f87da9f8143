package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentsift/sift/core/export"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/core/textsafe"
	"github.com/agentsift/sift/store"
)

const exportUsage = "export SESSION|--all [--format atif|acp] [--since 24h] [--out DIR]   a run as an ATIF-v1.4 trajectory or ACP v1 session/update lines"

// runExport implements `sift export SESSION [--format atif|acp]` and
// `sift export --all [--since D] --out DIR`.
func runExport(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	format := fs.String("format", "atif", "atif (one JSON trajectory) or acp (JSON-RPC lines)")
	all := fs.Bool("all", false, "export every session active within --since, one file each, into --out")
	since := fs.String("since", "24h", "with --all: sessions active within this duration (90m, 36h, 7d)")
	out := fs.String("out", "", "write into this folder, one file per session (default: standard output)")
	refs, err := parseArgs(fs, args, -1)
	if err != nil {
		return fail(stderr, "export", err)
	}
	if *format != "atif" && *format != "acp" {
		return fail(stderr, "export", fmt.Errorf("unknown --format %q (want atif or acp)", *format))
	}
	switch {
	case *all && len(refs) > 0:
		return fail(stderr, "export", errors.New("--all takes no SESSION"))
	case *all && *out == "":
		return fail(stderr, "export", errors.New("--all needs --out DIR"))
	case !*all && len(refs) != 1:
		return fail(stderr, "export", fmt.Errorf("want one SESSION (or --all), got %d", len(refs)))
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "export", err)
	}
	defer st.Close()
	ctx := context.Background()
	var keys []review.SessionKey
	if *all {
		from, err := parseSinceTime(*since, time.Now())
		if err != nil {
			return fail(stderr, "export", err)
		}
		page, err := st.ListSessions(ctx, review.Query{Since: from})
		if err != nil {
			return fail(stderr, "export", err)
		}
		for i := range page.Sessions {
			keys = append(keys, page.Sessions[i].Key())
		}
	} else {
		k, err := st.ResolveSession(ctx, refs[0])
		if err != nil {
			return fail(stderr, "export", err)
		}
		keys = append(keys, k)
	}
	projects, err := sf.KnownProjects(ctx, st)
	if err != nil {
		return fail(stderr, "export", err)
	}
	roots := sf.StreamRoots(projects...)
	if *out == "" {
		w := bufio.NewWriterSize(stdout, 64<<10)
		if err := exportSession(ctx, st, roots, keys[0], *format, w); err != nil {
			return fail(stderr, "export", err)
		}
		if err := w.Flush(); err != nil {
			return fail(stderr, "export", err)
		}
		return 0
	}
	if err := os.MkdirAll(*out, 0o700); err != nil {
		return fail(stderr, "export", err)
	}
	// Files are written inside the folder only: a name there that is a
	// link to elsewhere is refused, not followed and truncated.
	root, err := os.OpenRoot(*out)
	if err != nil {
		return fail(stderr, "export", err)
	}
	defer root.Close()
	named := map[string]review.SessionKey{}
	for _, k := range keys {
		if other, ok := named[exportName(k, *format)]; ok {
			return fail(stderr, "export", fmt.Errorf("%s and %s would share the file %s", other.Shown(), k.Shown(), exportName(k, *format)))
		}
		named[exportName(k, *format)] = k
		if err := exportToFile(ctx, st, roots, k, *format, root); err != nil {
			return fail(stderr, "export", err)
		}
	}
	fmt.Fprintf(stdout, "exported %d session(s) to %s\n", len(keys), textsafe.Inert(*out))
	return 0
}

// exportToFile writes one session's export into the folder dir, under
// exportName, readable by its owner alone. It writes a new file (O_EXCL)
// and renames it over the name: a file or link already there is
// replaced, never written through.
func exportToFile(ctx context.Context, st *store.Store, roots []string, k review.SessionKey, format string, dir *os.Root) error {
	name := exportName(k, format)
	path := filepath.Join(dir.Name(), name)
	tmp := fmt.Sprintf(".%s.%d.tmp", name, os.Getpid())
	f, err := dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	w := bufio.NewWriterSize(f, 64<<10)
	err = exportSession(ctx, st, roots, k, format, w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = dir.Rename(tmp, name)
	}
	if err != nil {
		dir.Remove(tmp)
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// exportName is the file name of a session's export: its key made safe
// for a file name, and the first 12 hex digits of the key's SHA-256, so
// that two keys that read alike once made safe (a_b, a b, a:b) never
// share a file. The name is made of the key as shown (redacted); the
// hash, of the key itself.
func exportName(k review.SessionKey, format string) string {
	ext := ".atif.json"
	if format == "acp" {
		ext = ".acp.jsonl"
	}
	sum := sha256.Sum256([]byte(k.WorkItemID + "\x00" + k.FileName))
	shown := k.Shown()
	return safeName(shown.WorkItemID) + "__" + safeName(strings.TrimSuffix(shown.FileName, filepath.Ext(shown.FileName))) +
		"-" + hex.EncodeToString(sum[:6]) + ext
}

// safeName keeps a file name made of a work item or stream name to
// letters, digits, '.', '-' and '_': they come from folders and streams.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	if len(b) == 0 || b[0] == '.' {
		return "_" + string(b)
	}
	return string(b)
}

// exportSession writes one session in the format: from its stream file
// when it is still there, else from the review events sift kept, else
// (ATIF only) from its summary.
func exportSession(ctx context.Context, st *store.Store, roots []string, k review.SessionKey, format string, w io.Writer) error {
	sess, err := st.GetSession(ctx, k)
	if err != nil {
		return err
	}
	decisions, err := st.Decisions(ctx, k)
	if err != nil {
		return err
	}
	find := export.Findings{Summary: &sess.Summary, Decisions: decisions, RunArgs: sess.RunArgs}
	sid := sess.SessionID
	if sid == "" {
		sid = k.String()
	}
	f, err := ingest.OpenStream(roots, sess.Path)
	var refused *ingest.RefusedError
	if errors.As(err, &refused) {
		// A row's path is data: what the store kept stands in for a
		// file sift will not open, and the export says why.
		find.Missing = append(find.Missing, "the stream file, refused: "+redact.String(refused.Error()))
		f, err = nil, nil
	}
	if err != nil {
		return err
	}
	if f != nil {
		defer f.Close()
		if format == "acp" {
			return export.StreamACP(f, sess.AgentKind, w, sid)
		}
		t, err := export.StreamTrajectory(f, summary.Options{Agent: sess.AgentKind}, find)
		if err != nil {
			return fmt.Errorf("%s: %w", sess.Path, err)
		}
		return writeTrajectory(w, t)
	}
	evs, err := st.ReviewEvents(ctx, k)
	if err != nil {
		return err
	}
	if format == "acp" {
		if len(evs) == 0 {
			return fmt.Errorf("session %s: its stream file and review events are gone; only --format atif can export its summary", k)
		}
		a := export.NewACPWriter(w, sid)
		for i := range evs {
			for _, ev := range export.ReviewEventsAsEvents(&evs[i]) {
				if err := a.Write(&ev); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if len(evs) > 0 {
		return writeTrajectory(w, export.ReviewTrajectory(evs, find))
	}
	return writeTrajectory(w, export.SummaryTrajectory(find))
}

// writeTrajectory writes a trajectory as one indented, inert JSON
// document.
func writeTrajectory(w io.Writer, t *export.Trajectory) error {
	enc := textsafe.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}
