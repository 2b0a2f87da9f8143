package edit

import (
	"path"
	"strings"
)

// ShellFiles returns the files a shell command names as written, read
// without running it, and conservatively: a word the shell would expand
// ($VAR, a glob, `…`, a brace) is never taken for a path. It recognises
// output redirections (> and >>, &>), tee, touch, rm, mv and cp of two
// literal paths, sed -i, and a script run as sh|bash|zsh -c '…'; a cd to a
// literal folder places the relative paths after it. Everything else (a
// program that writes files itself, git, a heredoc's body, a redirection
// of stderr, /dev/null) names nothing.
func ShellFiles(cmd string) []Touch {
	if !mayWrite(cmd) {
		return nil
	}
	return shellFiles(cmd)
}

// shellFiles is ShellFiles without its prefilter.
func shellFiles(cmd string) []Touch {
	var out []Touch
	dir := ""
	for _, sc := range simpleCommands(tokenize(stripHeredocs(cmd))) {
		if d, ok := cdTarget(sc); ok {
			dir = joinDir(dir, d)
			continue
		}
		for _, t := range commandFiles(sc) {
			if !path.IsAbs(t.Path) && dir != "" {
				t.Path = path.Join(dir, t.Path)
			}
			out = append(out, t)
		}
	}
	return out
}

// token is a shell word or operator.
type token struct {
	text string
	op   bool
	// unsure marks a word the shell would expand.
	unsure bool
}

// tokenize splits a command into words and operators, honouring quotes
// and backslashes.
func tokenize(s string) []token {
	var out []token
	var w strings.Builder
	inWord, unsure := false, false
	flush := func() {
		if inWord {
			out = append(out, token{text: w.String(), unsure: unsure})
		}
		w.Reset()
		inWord, unsure = false, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
				unsure = true
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				switch {
				case s[i] == '\\' && i+1 < len(s):
					i++
					w.WriteByte(s[i])
				case s[i] == '$' || s[i] == '`':
					unsure = true
					w.WriteByte(s[i])
				default:
					w.WriteByte(s[i])
				}
			}
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				w.WriteByte(s[i])
				inWord = true
			}
		case c == ' ' || c == '\t':
			flush()
		case strings.IndexByte("\n;&|()<>", c) >= 0:
			// A redirection's file descriptor is part of its operator.
			fd := ""
			if (c == '>' || c == '<') && inWord && isDigits(w.String()) && !unsure {
				fd = w.String()
				w.Reset()
				inWord = false
			}
			flush()
			op := string(c)
			for _, long := range []string{"&&", "||", ">>", "<<", "&>", ">&", ">|", "<&"} {
				if strings.HasPrefix(s[i:], long) {
					op = long
					break
				}
			}
			i += len(op) - 1
			out = append(out, token{text: fd + op, op: true})
		default:
			if strings.IndexByte("$`*?[]{}~", c) >= 0 {
				unsure = true
			}
			w.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return out
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// stripHeredocs drops the bodies of here-documents: their lines are data,
// not commands.
func stripHeredocs(s string) string {
	lines := strings.Split(s, "\n")
	var out []string
	end := ""
	for _, l := range lines {
		if end != "" {
			if strings.TrimSpace(l) == end {
				end = ""
			}
			continue
		}
		out = append(out, l)
		if i := strings.Index(l, "<<"); i >= 0 && !strings.HasPrefix(l[i:], "<<<") {
			word := strings.TrimLeft(l[i+2:], "-~ \t")
			if f := strings.Fields(word); len(f) > 0 {
				end = strings.Trim(f[0], `'"`)
			}
		}
	}
	return strings.Join(out, "\n")
}

// simpleCommands splits tokens at the operators that end a command; the
// redirections stay in their command.
func simpleCommands(ts []token) [][]token {
	var out [][]token
	var cur []token
	for _, t := range ts {
		if t.op && isSeparator(t.text) {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func isSeparator(op string) bool {
	switch op {
	case "\n", ";", "&", "&&", "|", "||", "(", ")":
		return true
	}
	return false
}

// nullFiles are the files a redirection to which writes nothing.
var nullFiles = [...]string{"/dev/null", "nul", "NUL", "/dev/stdout", "/dev/stderr"}

// commandFiles reads one simple command: its output redirections and the
// files its program writes.
func commandFiles(sc []token) []Touch {
	var out []Touch
	var words []token
	for i := 0; i < len(sc); i++ {
		t := sc[i]
		if !t.op {
			words = append(words, t)
			continue
		}
		// An operator takes the word after it.
		var target *token
		if i+1 < len(sc) && !sc[i+1].op {
			target = &sc[i+1]
			i++
		}
		a := Action("")
		switch t.text {
		case ">", "1>", ">|", "1>|", "&>":
			a = Written
		case ">>", "1>>":
			a = Edited
		}
		if a != "" && target != nil && isPath(*target) {
			out = append(out, Touch{Path: target.text, Action: a})
		}
	}
	for len(words) > 0 && !words[0].unsure && strings.Contains(words[0].text, "=") && !strings.HasPrefix(words[0].text, "=") {
		words = words[1:] // A=b cmd: the assignments before a command.
	}
	if len(words) == 0 || words[0].unsure {
		return out
	}
	name := path.Base(words[0].text)
	if isShell(name) && len(words) == 3 && (words[1].text == "-c" || words[1].text == "-lc") && !words[2].unsure {
		return append(out, ShellFiles(words[2].text)...)
	}
	args, flags := splitFlags(words[1:])
	switch name {
	case "tee", "touch":
		out = append(out, pathsOf(args, Written)...)
	case "rm":
		out = append(out, pathsOf(args, Deleted)...)
	case "mv":
		if len(args) == 2 && isPath(args[0]) && isPath(args[1]) {
			out = append(out, Touch{Path: args[0].text, Action: Moved}, Touch{Path: args[1].text, Action: Written})
		}
	case "cp":
		if len(args) == 2 && isPath(args[1]) && !strings.ContainsAny(flags, "rRa") {
			out = append(out, Touch{Path: args[1].text, Action: Written})
		}
	case "sed":
		if strings.Contains(flags, "i") && !strings.Contains(flags, "e") && len(args) > 1 {
			out = append(out, pathsOf(args[1:], Edited)...)
		}
	}
	return out
}

// splitFlags separates a command's arguments from its short flags (their
// letters run together); a -- ends the flags.
func splitFlags(ws []token) (args []token, flags string) {
	done := false
	for _, w := range ws {
		switch {
		case done || !strings.HasPrefix(w.text, "-") || w.text == "-":
			args = append(args, w)
		case w.text == "--":
			done = true
		case w.text == "--in-place" || strings.HasPrefix(w.text, "--in-place="):
			flags += "i"
		case strings.HasPrefix(w.text, "--"):
		default:
			flags += w.text[1:]
		}
	}
	return args, flags
}

// pathsOf lists the words that are paths.
func pathsOf(ws []token, a Action) []Touch {
	var out []Touch
	for _, w := range ws {
		if isPath(w) {
			out = append(out, Touch{Path: w.text, Action: a})
		}
	}
	return out
}

// isPath reports whether a word is a literal path to a file.
func isPath(w token) bool {
	if w.op || w.unsure || w.text == "" || strings.HasSuffix(w.text, "/") {
		return false
	}
	for _, n := range nullFiles {
		if w.text == n {
			return false
		}
	}
	return true
}

// isShell reports whether a program is a POSIX shell.
func isShell(name string) bool {
	switch path.Base(name) {
	case "sh", "bash", "zsh", "dash", "ksh":
		return true
	}
	return false
}

// cdTarget reads a cd to a literal folder.
func cdTarget(sc []token) (string, bool) {
	if len(sc) != 2 || sc[0].text != "cd" || sc[0].op || !isPath(sc[1]) {
		return "", false
	}
	return sc[1].text, true
}

// joinDir is the folder a cd to d moves to from dir.
func joinDir(dir, d string) string {
	if path.IsAbs(d) || dir == "" {
		return d
	}
	return path.Join(dir, d)
}

// mayWrite reports whether a command may name a file it writes: an import
// asks it of every shell call, most of which (tests, builds, searches)
// name none. It answers yes for a command ShellFiles could read a file
// from: one holding a redirection that may write (not 2> or >&, not to
// /dev/null) or the name of a program it knows as a word of its own,
// read with the quotes and backslashes, which can spell a word apart
// ("r”m"), left out.
func mayWrite(cmd string) bool {
	if strings.ContainsAny(cmd, `'"\`) {
		cmd = unquoted(cmd)
	}
	for i := strings.IndexByte(cmd, '>'); i >= 0; {
		if redirectsOut(cmd, i) {
			return true
		}
		j := strings.IndexByte(cmd[i+1:], '>')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	for _, w := range [...]string{"tee", "touch", "rm", "mv", "cp", "sed"} {
		if hasWord(cmd, w) {
			return true
		}
	}
	return false
}

// unquoted is a command without its quotes, its backslashes and the
// newlines a backslash continues.
func unquoted(cmd string) string {
	var b strings.Builder
	b.Grow(len(cmd))
	for i := 0; i < len(cmd); i++ {
		switch c := cmd[i]; c {
		case '\\':
			if i+1 < len(cmd) && cmd[i+1] == '\n' {
				i++
			}
		case '\'', '"':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// redirectsOut reports whether the > at i may start a redirection that
// writes a file as ShellFiles reads one: not a descriptor other than 1
// (2>), not a duplication (>&2, 2>&1), not to a null file.
func redirectsOut(cmd string, i int) bool {
	if i > 0 && cmd[i-1] >= '0' && cmd[i-1] <= '9' && cmd[i-1] != '1' {
		return false
	}
	rest := cmd[i+1:]
	if strings.HasPrefix(rest, "&") {
		return false
	}
	rest = strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(rest, ">"), "|"), " \t")
	return !strings.HasPrefix(rest, "/dev/null")
}

// hasWord reports whether w occurs in s as a word of its own: neither
// letter, digit nor one of _ - . next to it.
func hasWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(w)
		if (at == 0 || !wordByte(s[at-1])) && (end == len(s) || !wordByte(s[end])) {
			return true
		}
		i = at + 1
	}
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}
