package edit

import (
	"encoding/json"
	"strings"

	gojson "github.com/goccy/go-json"

	"github.com/aymanbagabas/go-udiff"

	"github.com/agentsift/sift/core/event"
)

// Action is what a call did to a file.
type Action string

// The actions, from the least to the most telling: a file named by an edit
// call whose input says no more, edited, written whole (created or
// replaced), moved away, deleted.
const (
	Edited  Action = "edit"
	Written Action = "write"
	Moved   Action = "move"
	Deleted Action = "delete"
)

// Touch is one file a tool call changes.
type Touch struct {
	Path   string
	Action Action
	// Added and Removed are the lines the call adds and removes; Counted
	// is false when its input does not say (a codex file_change, a shell
	// command, a delete).
	Added, Removed int
	Counted        bool
}

// Touched returns the files a tool call changes, read from its input
// alone: an edit tool's diff (Diff), a patch's files, an edit call's
// locations when its input says no more, and, for a call of kind execute,
// the files its shell command names as written (ShellFiles). It returns
// nil for a call that changes nothing it can tell.
func Touched(name, kind string, raw json.RawMessage, locs []event.Location) []Touch {
	switch {
	case kind == "execute":
		return ShellFiles(commandOf(raw))
	case kind == "delete":
		return located(locs, Deleted)
	case !isEdit(name, kind) && kind != "move":
		return nil
	}
	if out := touchedByInput(raw); len(out) > 0 {
		return out
	}
	return located(locs, Edited)
}

// touchedByInput reads an edit call's input: a patch, old and new strings,
// a whole file, or codex's list of file changes.
func touchedByInput(raw json.RawMessage) []Touch {
	// The input's first byte says which of the shapes it can be: an
	// import reads every edit call's, and a failed decoding scans it whole.
	switch firstByte(raw) {
	case '"':
		var patch string
		if gojson.Unmarshal(raw, &patch) == nil {
			return PatchFiles(patch)
		}
		return nil
	case '[':
		var changes []struct {
			Path string `json:"path"`
			Kind string `json:"kind"`
		}
		if gojson.Unmarshal(raw, &changes) != nil {
			return nil
		}
		var out []Touch
		for _, c := range changes {
			if c.Path == "" {
				continue
			}
			a := Edited
			switch c.Kind {
			case "add":
				a = Written
			case "delete":
				a = Deleted
			}
			out = append(out, Touch{Path: c.Path, Action: a})
		}
		return out
	case '{':
	default:
		return nil
	}
	var in input
	if gojson.Unmarshal(raw, &in) != nil {
		return nil
	}
	path, patch := in.pathAndPatch()
	if patch != "" {
		return PatchFiles(patch)
	}
	add, del, ok := in.stat()
	switch {
	case !ok:
		return nil
	case path == "":
		return nil
	}
	a := Edited
	if in.Content != nil && in.OldString == nil && len(in.Edits) == 0 {
		a = Written
	}
	return []Touch{{Path: path, Action: a, Added: add, Removed: del, Counted: true}}
}

// firstByte is a JSON text's first byte past white space, 0 for none.
func firstByte(raw []byte) byte {
	for _, c := range raw {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c
		}
	}
	return 0
}

// stat counts the lines an edit input adds and removes, as Stat counts
// its Diff, without writing the diff: the lines the old and new texts
// share at their start and end are no change, and only what lies
// between them is diffed. ok is false when the input is no edit.
func (in *input) stat() (added, removed int, ok bool) {
	switch {
	case in.OldString != nil && in.NewString != nil:
		added, removed = lineStat(*in.OldString, *in.NewString)
	case len(in.Edits) > 0:
		for _, e := range in.Edits {
			a, r := lineStat(e.OldString, e.NewString)
			added, removed = added+a, removed+r
		}
	case in.Content != nil:
		added = countLines(*in.Content)
	default:
		return 0, 0, false
	}
	return added, removed, true
}

// lineStat is Stat of the diff of two texts.
func lineStat(old, new string) (added, removed int) {
	a, b := lines(old), lines(new)
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	switch {
	case len(a) == 0 || len(b) == 0:
		return len(b), len(a)
	}
	return Stat(udiff.Unified("a", "b", strings.Join(a, "\n")+"\n", strings.Join(b, "\n")+"\n"))
}

// lines splits a text into its lines, a last line without a newline
// included; none for "".
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// countLines is len(lines(s)), without splitting s.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

// located lists an edit call's locations, uncounted.
func located(locs []event.Location, a Action) []Touch {
	var out []Touch
	for _, l := range locs {
		if l.Path != "" {
			out = append(out, Touch{Path: l.Path, Action: a})
		}
	}
	return out
}

// PatchFiles returns the files a patch changes, each with its added and
// removed lines: apply_patch's envelope (*** Add File, *** Update File,
// *** Delete File, *** Move to) or a unified diff (diff --git, ---/+++).
func PatchFiles(patch string) []Touch {
	var out []Touch
	cur := -1
	start := func(path string, a Action) {
		path = strings.TrimSpace(path)
		if path == "" || path == "/dev/null" {
			cur = -1
			return
		}
		out = append(out, Touch{Path: path, Action: a, Counted: a != Deleted})
		cur = len(out) - 1
	}
	lines := strings.Split(patch, "\n")
	for i, l := range lines {
		next := ""
		if i+1 < len(lines) {
			next = lines[i+1]
		}
		switch {
		case strings.HasPrefix(l, "*** Add File: "):
			start(strings.TrimPrefix(l, "*** Add File: "), Written)
		case strings.HasPrefix(l, "*** Update File: "):
			start(strings.TrimPrefix(l, "*** Update File: "), Edited)
		case strings.HasPrefix(l, "*** Delete File: "):
			start(strings.TrimPrefix(l, "*** Delete File: "), Deleted)
		case strings.HasPrefix(l, "*** Move to: ") && cur >= 0:
			out[cur].Action = Moved
			moved := out[cur]
			start(strings.TrimPrefix(l, "*** Move to: "), Written)
			out[cur].Added, out[cur].Removed = moved.Added, moved.Removed
		case strings.HasPrefix(l, "*** "), strings.HasPrefix(l, "diff --git "):
		case strings.HasPrefix(l, "--- ") && strings.HasPrefix(next, "+++ "):
			// A file header: the new name names the file, the old one
			// a deleted file.
			newName := diffName(strings.TrimPrefix(next, "+++ "))
			if newName == "/dev/null" {
				start(diffName(strings.TrimPrefix(l, "--- ")), Deleted)
			} else if diffName(strings.TrimPrefix(l, "--- ")) == "/dev/null" {
				start(newName, Written)
			} else {
				start(newName, Edited)
			}
		case strings.HasPrefix(l, "+++ ") && i > 0 && strings.HasPrefix(lines[i-1], "--- "):
		case cur < 0:
		case strings.HasPrefix(l, "+"):
			out[cur].Added++
		case strings.HasPrefix(l, "-"):
			out[cur].Removed++
		}
	}
	return out
}

// diffName is a unified diff header's path without its a/ or b/ prefix and
// its timestamp.
func diffName(s string) string {
	s, _, _ = strings.Cut(s, "\t")
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "a/") || strings.HasPrefix(s, "b/") {
		return s[2:]
	}
	return s
}

// commandOf is a shell call's command: a string, or an argv list joined.
func commandOf(raw json.RawMessage) string {
	var in struct {
		Command json.RawMessage `json:"command"`
		Cmd     json.RawMessage `json:"cmd"`
	}
	if gojson.Unmarshal(raw, &in) != nil {
		return ""
	}
	c := in.Command
	if len(c) == 0 {
		c = in.Cmd
	}
	var s string
	if gojson.Unmarshal(c, &s) == nil {
		return s
	}
	var argv []string
	if gojson.Unmarshal(c, &argv) == nil {
		if len(argv) == 3 && isShell(argv[0]) && (argv[1] == "-c" || argv[1] == "-lc") {
			return argv[2]
		}
		return strings.Join(quoteAll(argv), " ")
	}
	return ""
}

// quoteAll quotes each word for a POSIX shell, so that ShellFiles splits
// an argv as it was.
func quoteAll(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return out
}
