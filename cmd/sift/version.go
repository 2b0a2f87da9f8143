package main

import (
	"flag"
	"fmt"
	"io"
	"runtime/debug"
)

// runVersion implements `sift version` and `sift --version`: the module
// version, the commit it was built from and its time, whether the tree
// had changes, and the Go version, as the build recorded them.
func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "version", err)
	}
	fmt.Fprintln(stdout, versionLine())
	return 0
}

// versionLine is sift's version in one line.
func versionLine() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "sift (no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	line := "sift " + v
	var rev, at, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	if rev != "" {
		line += " · commit " + rev[:min(len(rev), 12)] + dirty
	}
	if at != "" {
		line += " · " + at
	}
	return line + " · " + bi.GoVersion
}
