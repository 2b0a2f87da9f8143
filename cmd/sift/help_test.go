package main

import (
	"regexp"
	"strings"
	"testing"
)

// flagLine is a flag in a command's help: its name, and a placeholder of
// one word when it takes a value (flag.UnquoteUsage takes a back-quoted
// word of the flag's text as the placeholder: a back-quoted phrase made
// one such as "-pricing sift summary --pricing").
var flagLine = regexp.MustCompile(`^  -[a-z][a-z0-9-]*( [A-Za-z][A-Za-z0-9]*)?$`)

// TestEveryCommandHelp runs --help of every command: it exits 0 and
// prints the command's usage line, with its positional arguments, then
// its flags, each with a one-word placeholder; a command that takes no
// positional argument refuses one (issue 29, item 9: several --help
// pages were bare, "Usage of NAME:", or garbled).
func TestEveryCommandHelp(t *testing.T) {
	t.Parallel()
	positional := map[string]string{
		"parse": " FILE ", "summary": " FILE… ", "run": " ARGS…", "import": " [PATH…] ", "search": " QUERY… ",
		"export": " SESSION|--all ", "claim": " SESSION ", "decide": " SESSION ", "decisions": " import FILE",
		"init-logs": " DIR ", "rebuild": " [PATH…]", "purge": " SESSION ", "workitem": " retry|done ID", "prices": " [MODEL…] ",
	}
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out, errOut, code := siftCmd(t, c.name, "--help")
			help := out + errOut
			lines := strings.Split(strings.TrimSuffix(help, "\n"), "\n")
			if code != 0 || lines[0] != "usage: sift "+c.usage {
				t.Fatalf("--help: exit %d, first line %q; want usage: sift %s", code, lines[0], c.usage)
			}
			synopsis, _, _ := strings.Cut(c.usage, "   ")
			if p, ok := positional[c.name]; ok && !strings.Contains(synopsis+" ", p) {
				t.Errorf("the usage line %q does not name its arguments %q", synopsis, p)
			}
			if c.name == "decisions" {
				for _, sub := range []string{"export", "import"} {
					if out, errOut, code := siftCmd(t, c.name, sub, "--help"); code != 0 || !strings.HasPrefix(out+errOut, "usage: sift "+c.usage+"\nflags:\n") {
						t.Errorf("decisions %s --help: %d %q", sub, code, out+errOut)
					}
				}
				return
			}
			if len(lines) < 3 || lines[1] != "flags:" {
				t.Fatalf("--help lists no flags:\n%s", help)
			}
			for _, l := range lines[2:] {
				if strings.HasPrefix(l, "  -") && !flagLine.MatchString(l) {
					t.Errorf("a garbled flag line: %q", l)
				}
			}
			if _, ok := positional[c.name]; !ok {
				if _, errOut, code := siftCmd(t, c.name, "stray"); code != 2 || !strings.Contains(errOut, "want 0 argument(s), got 1") {
					t.Errorf("%s stray: %d %q; its usage names no argument", c.name, code, errOut)
				}
			}
		})
	}
	// The inbox's, without a command.
	out, errOut, code := siftCmd(t, "--theme", "dark", "--help")
	if code != 0 || !strings.HasPrefix(out+errOut, "usage: sift "+inboxUsage+"\nflags:\n") {
		t.Errorf("sift --theme dark --help: %d %q", code, out+errOut)
	}
}
