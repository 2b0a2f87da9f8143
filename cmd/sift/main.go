// Command sift is a terminal review inbox for coding-agent runs.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"

	// Every harness sift knows registers its entry (core/agents.Register).
	_ "github.com/agentsift/sift/core/agents/all"
)

func main() {
	os.Exit(profiled(func() int { return run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr) }))
}

// profiled runs f, writing a CPU profile to $SIFT_CPUPROFILE when set (for
// measuring a whole command, start-up included).
func profiled(f func() int) int {
	path := os.Getenv("SIFT_CPUPROFILE")
	if path == "" {
		return f()
	}
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		fmt.Fprintf(os.Stderr, "sift: SIFT_CPUPROFILE: %v\n", err)
		return 2
	}
	defer out.Close()
	if err := pprof.StartCPUProfile(out); err != nil {
		fmt.Fprintf(os.Stderr, "sift: SIFT_CPUPROFILE: %v\n", err)
		return 2
	}
	defer pprof.StopCPUProfile()
	return f()
}

// command is one subcommand: it gets its arguments and the standard
// streams, and returns the process exit status.
type command struct {
	name  string
	usage string
	run   func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands lists the subcommands in the order help shows them.
func commands() []command {
	return []command{
		{"parse", "parse FILE [--agent KIND] [--stats]   print the normalized events as JSON lines", runParse},
		{"summary", "summary FILE… [--agent K] [--start T --end T] [--exit-code N] [--model M] [--json] [--pricing FILE] [--stall 30s]   print run summaries", runSummary},
		{"run", runUsage, runRun},
		{"import", "import [PATH…] [--force] [--history] [--agent KIND]   ingest stream files and folders into the store (--agent: read them as KIND's, unsniffed)", runImport},
		{"search", searchUsage, runSearch},
		{"list", "list [--sort KEY] [--asc] [--flagged] [--undecided] [--agent K] [--work-item W] [--since D] [--limit N] [--json [--full]]   the inbox (--full: with tool calls, stalls and turns)", runList},
		{"export", exportUsage, runExport},
		{"report", reportUsage, runReport},
		{"claim", "claim SESSION [--reviewer R] [--minutes N] | --release SESSION   claim a session you review (the others see it; your decision on it or --release ends it)", runClaim},
		{"decide", "decide SESSION --decision reviewed|needs_followup|ignored [--turn T] [--tool-call C] [--note N] [--reviewer R] | --undo | --history", runDecide},
		{"followups", followupsUsage, runFollowups},
		{"decisions", decisionsUsage, runDecisions},
		{"sweep", "sweep [--dry-run] [--status] [--retained-days N] [--max-total-size-mb N]   one retention pass (--dry-run: list what would go)", runSweep},
		{"status", statusUsage, runStatus},
		{"init-logs", initLogsUsage, runInitLogs},
		{"doctor", doctorUsage, runDoctor},
		{"rebuild", "rebuild [PATH…]   re-import everything from the stream files, keeping decisions", runRebuild},
		{"purge", purgeUsage, runPurge},
		{"migrate", migrateUsage, runMigrate},
		{"redact", redactUsage, runRedact},
		{"workitem", "workitem retry|done ID   invalidate or complete a work item's summaries", runWorkItem},
		{"prices", pricesUsage, runPrices},
		{"usage", usageUsage, runUsageCmd},
		{"demo", "demo [--db PATH] [--theme T] [--operator]   the inbox on a store of sample streams (plain `sift [--db PATH]` opens yours)", runDemo},
		{"serve", "serve [--addr 127.0.0.1:7777] [--token-file F]   the HTTP API (token also from $SIFT_API_TOKEN)", runServe},
		{"version", "version   sift's version: module version, commit and its time, Go version (also --version)", runVersion},
	}
}

// run dispatches to a subcommand. The global flags may come before the
// command's name (`sift --db X status`): they are handed to it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	globals, rest := splitGlobals(args)
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") && len(globals) > 0 {
		args = append(append([]string{rest[0]}, globals...), rest[1:]...)
	}
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		return runVersion(args[1:], stdin, stdout, stderr)
	}
	if len(args) == 0 || (strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help") {
		return runInbox(args, stdin, stdout, stderr)
	}
	if args[0] == "help" {
		return runHelp(args[1:], stdout, stderr)
	}
	if args[0] == "-h" || args[0] == "--help" {
		printCommands(stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "sift: unknown command %q (see sift help)\n", args[0])
	return 2
}

// printCommands prints the commands and their usage lines.
func printCommands(w io.Writer) {
	fmt.Fprintln(w, "sift: a terminal review inbox for coding-agent runs\n\nusage:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  sift %s\n", c.usage)
	}
}
