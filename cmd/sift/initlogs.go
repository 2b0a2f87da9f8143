package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/layout"
	"github.com/agentsift/sift/core/textsafe"
)

// initLogsUsage is the help line of `sift init-logs`.
const initLogsUsage = "init-logs DIR   mark an existing folder as a sift logs folder, so that the retention sweep may delete old stream files in it"

// runInitLogs implements `sift init-logs DIR`: it marks an existing folder
// as a logs root sift owns (layout.MarkRoot), so that the retention sweep
// may delete its capture-layout files. sift marks the folders it creates
// itself; a folder that existed before is swept only once marked. It
// refuses the roots the sweep refuses: /, the home folder and its
// ancestors, a link, a file.
func runInitLogs(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("init-logs", flag.ContinueOnError)
	fset.SetOutput(stderr)
	pos, err := parseArgs(fset, args, -1)
	if err != nil {
		return fail(stderr, "init-logs", err)
	}
	if len(pos) != 1 {
		return fail(stderr, "init-logs", errors.New("want one folder: sift init-logs DIR"))
	}
	dir, err := filepath.Abs(pos[0])
	if err != nil {
		return fail(stderr, "init-logs", err)
	}
	already, err := layout.MarkRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		err = fmt.Errorf("%s does not exist (sift creates and marks a new logs folder itself)", app.QuoteArg(dir))
	}
	if err != nil {
		return fail(stderr, "init-logs", err)
	}
	if already {
		fmt.Fprintf(stdout, "%s is already marked as a sift logs folder\n", textsafe.Inert(dir))
		return 0
	}
	fmt.Fprintf(stdout, "marked %s as a sift logs folder: the retention sweep may now delete "+
		"old <workItem>/<phase>-<iter>-<hex>.jsonl files in it, and nothing else\n", textsafe.Inert(dir))
	return 0
}
