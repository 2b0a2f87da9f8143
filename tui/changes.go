package tui

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// What the run changed: the files its calls touched, with the lines their
// inputs add and remove, and the commits before and after the run where
// `sift run` knew the git work tree. The session header and the inbox's
// preview pane show them.

// changedSummary is "3 files +42 −7", "" when the run touched none.
func changedSummary(s *summary.Summary) string {
	n := max(s.FilesTouchedCount, len(s.FilesTouched))
	if n == 0 {
		return ""
	}
	var add, del int
	counted := false
	for _, f := range s.FilesTouched {
		if f.Added != nil {
			add, del, counted = add+*f.Added, del+*f.Removed, true
		}
	}
	out := plural(n, "file")
	if counted {
		out += " +" + strconv.Itoa(add) + " −" + strconv.Itoa(del)
	}
	return out
}

// fileStat is one touched file: "notes.md +3 −1", "a.txt (write)", its
// path relative to dir (filesIn).
func fileStat(f *summary.FileTouched, dir string) string {
	out := f.Path
	if dir != "" {
		out = strings.TrimPrefix(out, dir+"/")
	}
	switch {
	case f.Action == "delete":
		out += " (deleted)"
	case f.Added != nil:
		out += " +" + strconv.Itoa(*f.Added) + " −" + strconv.Itoa(*f.Removed)
	case f.Action == "move":
		out += " (moved)"
	default:
		out += " (" + f.Action + ")"
	}
	return out
}

// filesIn returns the folder the touched files share, "" when none (or
// it is the run's own folder, which relative paths name), and each
// file's stat relative to it.
func filesIn(s *review.Session) (dir string, files []string) {
	var paths []string
	for _, f := range s.FilesTouched {
		paths = append(paths, f.Path)
	}
	dir = commonDir(paths)
	if cwd := filepath.Clean(s.Cwd); s.Cwd != "" && (dir == cwd || strings.HasPrefix(dir, cwd+"/")) {
		// Said relative to the run's folder, as the agent's relative
		// paths are.
		for i := range paths {
			paths[i] = strings.TrimPrefix(paths[i], cwd+"/")
		}
		dir = strings.TrimPrefix(strings.TrimPrefix(dir, cwd), "/")
	}
	for i := range s.FilesTouched {
		f := s.FilesTouched[i]
		f.Path = paths[i]
		files = append(files, fileStat(&f, dir))
	}
	return dir, files
}

// commonDir is the folder every path is in, "" when they share none.
func commonDir(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	dir := strings.Split(paths[0], "/")
	dir = dir[:len(dir)-1]
	for _, p := range paths[1:] {
		parts := strings.Split(p, "/")
		parts = parts[:len(parts)-1]
		n := 0
		for n < len(dir) && n < len(parts) && dir[n] == parts[n] {
			n++
		}
		dir = dir[:n]
	}
	out := strings.Join(dir, "/")
	if out == "" && len(dir) > 0 {
		return "" // Only the root: not worth saying.
	}
	return out
}

// fitLeft cuts a path to w columns from the left, "…" marking the cut:
// its end names the file.
func fitLeft(p string, w int) string {
	r := []rune(p)
	if len(r) <= w || w < 2 {
		return p
	}
	return "…" + string(r[len(r)-w+1:])
}

// gitRange is "git a1b2c3d → e4f5a6b", "git a1b2c3d (no new commit)", ""
// when unknown.
func gitRange(s *review.Session) string {
	short := func(h string) string { return h[:min(len(h), 7)] }
	switch {
	case s.GitBefore == "" && s.GitAfter == "":
		return ""
	case s.GitBefore == s.GitAfter:
		return "git " + short(s.GitBefore) + " (no new commit)"
	case s.GitAfter == "":
		return "git " + short(s.GitBefore) + " → ?"
	case s.GitBefore == "":
		return "git ? → " + short(s.GitAfter)
	}
	return "git " + short(s.GitBefore) + " → " + short(s.GitAfter)
}

// changedLine is the header's line about what the run changed: the count
// and stat, each file, the commits; "" when there is nothing to say.
func changedLine(s *review.Session) string {
	var parts []string
	if sum := changedSummary(&s.Summary); sum != "" {
		dir, files := filesIn(s)
		if dir != "" {
			sum += " in " + dir
		}
		parts = append(parts, sum+": "+strings.Join(files, ", "))
	}
	if g := gitRange(s); g != "" {
		parts = append(parts, g)
	}
	return strings.Join(parts, " · ")
}

// headerNotes are the header's lines after the sparkline: what the run
// changed, why the turns' tokens differ from the session's, and who
// decided the session and who holds its claim (reviewLine).
func (m *sessionView) headerNotes() []string {
	if m.s == nil {
		return nil
	}
	st := m.c.Styles
	var out []string
	if ch := changedLine(m.s); ch != "" {
		out = append(out, fitWidth(" "+st.App.Subtle.Render("changed ")+st.App.Text.Render(Inert(ch)), m.w))
	}
	if note := m.tokens.note(); note != "" {
		out = append(out, fitWidth(" "+st.App.Subtle.Render("tokens  ")+st.Badge.Stall.Render(note), m.w))
	}
	if r := reviewLine(m.s, m.c.clock()); r != "" {
		out = append(out, fitWidth(" "+st.App.Subtle.Render("review  ")+st.App.Text.Render(r), m.w))
	}
	return out
}
