// Package edit reads what a coding agent's tool calls change: the unified
// diff of an edit tool's input (the tools each harness's entry names,
// agents.Harness.EditTools: Claude Code's Edit, MultiEdit and Write,
// codex's apply_patch, droid's ApplyPatch, gemini's replace and
// write_file, qwen's edit) and the files a call touches, with the lines it adds and
// removes (Touched), shell commands included where they name the files
// they write in a form read without running them.
package edit

import (
	"encoding/json"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/agentsift/sift/core/agents"
)

// input is the part of an edit tool's input a diff is built from.
type input struct {
	FilePath  *string `json:"file_path"`
	Path      *string `json:"path"`
	OldString *string `json:"old_string"`
	NewString *string `json:"new_string"`
	Content   *string `json:"content"`
	Edits     []struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	} `json:"edits"`
	// Input, Patch and Diff hold a patch (droid's ApplyPatch, codex's
	// apply_patch).
	Input *string `json:"input"`
	Patch *string `json:"patch"`
	Diff  *string `json:"diff"`
}

// isEdit reports whether a call is one whose input may be an edit: a call
// of kind edit, or of a tool some harness edits files with (its entry's
// EditTools).
func isEdit(name, kind string) bool { return kind == "edit" || agents.IsEditTool(name) }

// Diff returns what an edit tool call changes as a unified diff, from its
// input: old and new strings (Edit, replace, edit), a list of them
// (MultiEdit), a whole file written (Write, write_file: every line
// added), or the patch text itself (apply_patch). ok is false when the
// call is not an edit, or its input is none of these. The hunks' line
// numbers count from the edited text, not from the file, which the input
// does not place.
func Diff(name, kind string, raw json.RawMessage) (diff, path string, ok bool) {
	if !isEdit(name, kind) {
		return "", "", false
	}
	var patch string
	if json.Unmarshal(raw, &patch) == nil {
		return patch, "", LooksPatch(patch)
	}
	var in input
	if json.Unmarshal(raw, &in) != nil {
		return "", "", false
	}
	return in.diff()
}

// pathAndPatch returns the file an input names, and the patch it holds
// ("" for none).
func (in *input) pathAndPatch() (path, patch string) {
	for _, p := range []*string{in.FilePath, in.Path} {
		if p != nil && path == "" {
			path = *p
		}
	}
	for _, p := range []*string{in.Patch, in.Input, in.Diff} {
		if p != nil && LooksPatch(*p) {
			return path, *p
		}
	}
	return path, ""
}

// diff is Diff of a decoded input.
func (in *input) diff() (diff, path string, ok bool) {
	path, patch := in.pathAndPatch()
	if patch != "" {
		return patch, path, true
	}
	label := strings.TrimPrefix(path, "/")
	if label == "" {
		label = "file"
	}
	var b strings.Builder
	switch {
	case in.OldString != nil && in.NewString != nil:
		b.WriteString(udiff.Unified("a/"+label, "b/"+label, withNewline(*in.OldString), withNewline(*in.NewString)))
	case len(in.Edits) > 0:
		for i, e := range in.Edits {
			d := udiff.Unified("a/"+label, "b/"+label, withNewline(e.OldString), withNewline(e.NewString))
			if i > 0 {
				// One file header for all the edits.
				d = strings.Join(strings.SplitN(d, "\n", 3)[2:], "")
			}
			b.WriteString(d)
		}
	case in.Content != nil && path != "":
		b.WriteString(udiff.Unified("/dev/null", "b/"+label, "", withNewline(*in.Content)))
	default:
		return "", "", false
	}
	if b.Len() == 0 {
		return "(no change: the old and new text are the same)", path, true
	}
	return b.String(), path, true
}

// withNewline ends a text with a newline, so that a diff does not mark
// the last line as having none.
func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

// LooksPatch reports whether a text is a patch: apply_patch's envelope or
// a unified diff.
func LooksPatch(s string) bool {
	t := strings.TrimSpace(s)
	return strings.HasPrefix(t, "*** Begin Patch") || strings.HasPrefix(t, "diff --git") ||
		strings.HasPrefix(t, "--- ") || strings.HasPrefix(t, "@@ ")
}

// Stat counts a diff's added and removed lines.
func Stat(diff string) (added, removed int) {
	for l := range strings.SplitSeq(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "*** "):
		case strings.HasPrefix(l, "+"):
			added++
		case strings.HasPrefix(l, "-"):
			removed++
		}
	}
	return added, removed
}
