package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/textsafe"
)

// runParse implements `sift parse FILE [--agent KIND] [--stats]`.
func runParse(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("parse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	agent := fs.String("agent", "", "declared agent kind (default: sniff)")
	stats := fs.Bool("stats", false, "print a count per update kind and the attributed agent")
	path, err := parseArgs(fs, args, 1)
	if err != nil {
		return fail(stderr, "parse", err)
	}
	reg := agents.Default()
	if *agent != "" {
		if _, err := reg.Lookup(agents.Kind(*agent)); err != nil {
			return fail(stderr, "parse", err)
		}
	}
	f, err := os.Open(path[0])
	if err != nil {
		return fail(stderr, "parse", err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(stdout, 64<<10)
	defer w.Flush()
	counts := map[event.Kind]int{}
	enc := textsafe.NewEncoder(w)
	var encErr error
	st, err := reg.Parse(f, agents.Options{Agent: agents.Kind(*agent), Redact: redact.JSONLine}, func(ev *event.Event) {
		counts[ev.Update.SessionUpdate]++
		if !*stats && encErr == nil {
			encErr = enc.Encode(ev)
		}
	})
	if err == nil {
		err = encErr
	}
	if err != nil {
		return fail(stderr, "parse", fmt.Errorf("%s: %w", path[0], err))
	}
	if *stats {
		fmt.Fprintf(w, "agent\t%s\n", st.Agent)
		fmt.Fprintf(w, "lines\t%d\nbytes\t%d\n", st.Lines, st.Bytes)
		for _, k := range event.Kinds() {
			if counts[k] > 0 {
				fmt.Fprintf(w, "%s\t%d\n", k, counts[k])
			}
		}
	}
	return 0
}

// parseArgs parses flags that may come before or after the positional
// arguments and checks that exactly n positionals were given (any number
// when n < 0). A bad flag is returned as an error for one line on stderr,
// without the flag package's usage dump; -h prints the usage and returns
// flag.ErrHelp, which fail turns into exit status 0.
func parseArgs(fs *flag.FlagSet, args []string, n int) ([]string, error) {
	acceptGlobals(fs)
	out := fs.Output()
	fs.SetOutput(io.Discard)
	defer fs.SetOutput(out)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printHelp(out, fs)
			}
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	if n >= 0 && len(pos) != n {
		return nil, fmt.Errorf("want %d argument(s), got %d", n, len(pos))
	}
	return pos, nil
}

// inboxUsage is the usage line of sift without a command: the inbox.
const inboxUsage = "[--theme T] [--operator] [--reviewer R]   open the inbox (sift help lists the commands)"

// usageLine is the usage line of a flag set's command, after "sift ":
// its entry in commands (decisions export is decisions'), else the
// inbox's.
func usageLine(name string) string {
	cmd, _, _ := strings.Cut(name, " ")
	for _, c := range commands() {
		if c.name == cmd {
			return c.usage
		}
	}
	return inboxUsage
}

// printHelp prints a command's help: its usage line, with its
// positional arguments, then its flags. The flags' defaults may name
// paths from the environment: every line is printed inert.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	var help strings.Builder
	fmt.Fprintf(&help, "usage: sift %s\nflags:\n", usageLine(fs.Name()))
	out := fs.Output()
	fs.SetOutput(&help)
	fs.PrintDefaults()
	fs.SetOutput(out)
	for _, l := range textsafe.InertLines(strings.TrimSuffix(help.String(), "\n")) {
		fmt.Fprintln(w, l)
	}
}

// globalFlags are the flags every command takes, before or after its
// name: the store, the configuration and the logs folder. A command that
// uses none of them accepts them, unused.
var globalFlags = []string{"db", "config", "logs"}

// acceptGlobals defines on fs the global flags it lacks, unused.
func acceptGlobals(fs *flag.FlagSet) {
	for _, name := range globalFlags {
		if fs.Lookup(name) == nil {
			fs.String(name, "", "global: not used by this command")
		}
	}
}

// splitGlobals takes the global flags off the front of the arguments
// (`sift --db X status`), each with its value, and returns them and the
// rest.
func splitGlobals(args []string) (globals, rest []string) {
	for len(args) > 0 {
		name, _, hasValue := strings.Cut(strings.TrimLeft(args[0], "-"), "=")
		if !strings.HasPrefix(args[0], "-") || !slices.Contains(globalFlags, name) {
			break
		}
		n := 1
		if !hasValue && len(args) > 1 {
			n = 2
		}
		globals, args = append(globals, args[:n]...), args[n:]
	}
	return globals, args
}

// fail prints one error line and returns exit status 2; a request for help
// (already printed) is exit status 0. The error may quote a file name or
// stream text: it is printed inert, on one line.
func fail(stderr io.Writer, cmd string, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintf(stderr, "sift %s: %s\n", cmd, textsafe.Inert(err.Error()))
	return 2
}
