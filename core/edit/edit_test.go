package edit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/event"
)

// TestDiff builds diffs from the inputs of the edit tools.
func TestDiff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, tool, kind, input string
		ok                      bool
		want                    []string
	}{
		{"Edit", "Edit", "edit", `{"file_path":"/a/b.go","old_string":"x := 1\ny := 2","new_string":"x := 1\ny := 3"}`, true,
			[]string{"--- a/a/b.go", "+++ b/a/b.go", "-y := 2", "+y := 3", " x := 1"}},
		{"replace (gemini)", "replace", "edit", `{"file_path":"f.txt","old_string":"a","new_string":"b","instruction":"x"}`, true,
			[]string{"-a", "+b"}},
		{"MultiEdit", "MultiEdit", "edit", `{"file_path":"m.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d"}]}`, true,
			[]string{"-a", "+b", "-c", "+d"}},
		{"Write", "Write", "edit", `{"file_path":"new.txt","content":"one\ntwo\n"}`, true, []string{"--- /dev/null", "+one", "+two"}},
		{"apply_patch as a string", "apply_patch", "edit", `"*** Begin Patch\n*** Add File: x\n+hi\n*** End Patch"`, true, []string{"*** Begin Patch", "+hi"}},
		{"ApplyPatch (droid)", "ApplyPatch", "edit", `{"input":"*** Begin Patch\n@@\n-a\n+b\n*** End Patch"}`, true, []string{"-a", "+b"}},
		{"not an edit", "Bash", "execute", `{"command":"ls","content":"x","file_path":"y"}`, false, nil},
		{"an edit without old and new", "file_change", "edit", `[{"path":"/x","kind":"add"}]`, false, nil},
	} {
		d, _, ok := Diff(tc.tool, tc.kind, json.RawMessage(tc.input))
		if ok != tc.ok {
			t.Errorf("%s: ok %v, want %v (%q)", tc.name, ok, tc.ok, d)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(d, w) {
				t.Errorf("%s: diff lacks %q:\n%s", tc.name, w, d)
			}
		}
	}
	if a, r := Stat("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+c\n"); a != 2 || r != 1 {
		t.Errorf("Stat = +%d −%d, want +2 −1", a, r)
	}
}

// show prints touches as "path action +a -r" (no counts when uncounted).
func show(ts []Touch) string {
	var out []string
	for _, t := range ts {
		s := t.Path + " " + string(t.Action)
		if t.Counted {
			s += fmt.Sprintf(" +%d -%d", t.Added, t.Removed)
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

// TestTouched reads the files of the edit tools' inputs as the recorded
// streams print them.
func TestTouched(t *testing.T) {
	t.Parallel()
	loc := []event.Location{{Path: "/tmp/wt/hi.txt"}}
	for _, tc := range []struct {
		name, tool, kind, input string
		locs                    []event.Location
		want                    string
	}{
		{"Edit counts the changed lines only", "Edit", "edit",
			`{"file_path":"/a/b.go","old_string":"x := 1\ny := 2","new_string":"x := 1\ny := 3\nz := 4"}`, nil, "/a/b.go edit +2 -1"},
		{"Write adds every line", "Write", "edit", `{"file_path":"new.txt","content":"one\ntwo\nthree"}`, nil, "new.txt write +3 -0"},
		{"write_file (gemini)", "write_file", "edit", `{"file_path":"w.py","content":"a\n"}`, nil, "w.py write +1 -0"},
		{"MultiEdit", "MultiEdit", "edit",
			`{"file_path":"m.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d\ne"}]}`, nil, "m.go edit +3 -2"},
		{"the same text is no change", "Edit", "edit", `{"file_path":"s.go","old_string":"a","new_string":"a"}`, nil, "s.go edit +0 -0"},
		{"apply_patch of several files", "apply_patch", "edit",
			`"*** Begin Patch\n*** Add File: new.go\n+package x\n+\n*** Update File: old.go\n@@\n-a\n+b\n+c\n*** Delete File: gone.go\n*** End Patch"`, nil,
			"new.go write +2 -0; old.go edit +2 -1; gone.go delete"},
		{"apply_patch moving a file", "ApplyPatch", "edit",
			`{"input":"*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n@@\n-x\n+y\n*** End Patch"}`, nil, "a.go move +0 -0; b.go write +1 -1"},
		{"a unified diff", "apply_patch", "edit",
			`{"patch":"diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n--- a comment\n+// a comment\n"}`, nil, "x.go edit +1 -1"},
		{"codex file_change: paths, no counts", "file_change", "edit",
			`[{"path":"/w/a.py","kind":"add"},{"path":"/w/b.py","kind":"update"},{"path":"/w/c.py","kind":"delete"}]`, nil,
			"/w/a.py write; /w/b.py edit; /w/c.py delete"},
		{"cursor edit: its location", "edit", "edit", `{"path":"/tmp/wt/hi.txt","streamContent":"hello\n"}`, loc, "/tmp/wt/hi.txt edit"},
		{"a shell call", "Bash", "execute", `{"command":"printf 'a' > \"/p/a.txt\""}`, nil, "/p/a.txt write"},
		{"a shell call as argv", "shell", "execute", `{"command":["bash","-lc","echo hi >> log.txt"]}`, nil, "log.txt edit"},
		{"a read is not a change", "Read", "read", `{"file_path":"/a"}`, loc, ""},
	} {
		got := show(Touched(tc.tool, tc.kind, json.RawMessage(tc.input), tc.locs))
		if got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestShellFiles lists what a shell command is and is not recognised to
// write: only literal paths, only the forms the doc names.
func TestShellFiles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ cmd, want string }{
		// Recognised.
		{`echo hi > out.txt`, "out.txt write"},
		{`printf '\n1234\n' >> output/helloworld.txt`, "output/helloworld.txt edit"},
		{`/bin/sh -lc "set -e
printf '\\n1234\\n' >> output/helloworld.txt
"`, "output/helloworld.txt edit"},
		{`printf 'a' > "/Users/x/vibe-kanban/a.txt"`, "/Users/x/vibe-kanban/a.txt write"},
		{`go test ./... 2>&1 | tee test.log`, "test.log write"},
		{`touch a b && rm -f c`, "a write; b write; c delete"},
		{`mv old.go new.go`, "old.go move; new.go write"},
		{`cp /home/u/tmp/s.png /home/u/out/s.png`, "/home/u/out/s.png write"},
		{`sed -i 's/a/b/' x.go y.go`, "x.go edit; y.go edit"},
		{`sed --in-place -e 's/a/b/' x.go`, ""},
		{`cd /repo && echo x > notes.md`, "/repo/notes.md write"},
		{`cat > f.txt <<'EOF'
rm -rf /
echo > not-this.txt
EOF`, "f.txt write"},
		{`A=1 B=2 touch z`, "z write"},
		// Not recognised.
		{`sed -n '1,200p' README.md`, ""},
		{`python scripts/create_dcf_model.py`, ""},
		{`go build -o bin/sift ./cmd/sift`, ""},
		{`find . -name "*.py" 2>nul | head -100`, ""},
		{`ls > /dev/null 2> err.log`, ""},
		{`rm -rf *.o $TMP/x`, ""},
		{`echo $(date) > "$OUT"`, ""},
		{`cp -r src dst`, ""},
		{`mv a b c/`, ""},
		{`git rm old.go && git mv a b`, ""},
		{`cat file.txt`, ""},
	} {
		if got := show(ShellFiles(tc.cmd)); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.cmd, got, tc.want)
		}
	}
}

// TestStatCountsAsTheDiff: an input's line counts, made without writing
// its diff, are the counts of its diff.
func TestStatCountsAsTheDiff(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		`{"file_path":"a.go","old_string":"x\ny\nz\n","new_string":"x\nY\nz\n"}`,
		`{"file_path":"a.go","old_string":"a\nb\nc\nd\ne\nf\ng\nh","new_string":"a\nB\nc\nd\ne\nF\nG\nh\ni"}`,
		`{"file_path":"a.go","old_string":"same","new_string":"same"}`,
		`{"file_path":"a.go","old_string":"","new_string":"new\nlines\n"}`,
		`{"file_path":"a.go","old_string":"gone\n","new_string":""}`,
		`{"file_path":"a.go","edits":[{"old_string":"1\n2\n3","new_string":"1\n3"},{"old_string":"q","new_string":"r\ns"}]}`,
		`{"file_path":"a.go","content":"one\ntwo\nthree"}`,
		`{"path":"b.go","content":"one\n"}`,
	} {
		var in input
		if err := json.Unmarshal([]byte(raw), &in); err != nil {
			t.Fatal(err)
		}
		d, _, ok := in.diff()
		add, del, sok := in.stat()
		wa, wd := Stat(d)
		if strings.HasPrefix(d, "(no change") {
			wa, wd = 0, 0
		}
		if ok != sok || add != wa || del != wd {
			t.Errorf("%s: stat +%d -%d (%v), the diff's +%d -%d (%v)\n%s", raw, add, del, sok, wa, wd, ok, d)
		}
	}
}

// TestMayWriteHidesNoWrite: the prefilter ShellFiles asks first says no
// only of commands its full reading finds no file in: the table's, tricky
// spellings, and every shell command of the recorded streams.
func TestMayWriteHidesNoWrite(t *testing.T) {
	t.Parallel()
	cmds := []string{
		`'r'm x`, `r\m x`, `"tee" f`, `echo a 1> f`, `echo a &> f`, `x >| f`, `echo a>>f`,
		`bash -c "echo a > f"`, "r\\\nm x", `/bin/rm a`, `(rm x)`, `a;rm x`, `a|tee f`,
		`echo >/dev/null; echo > f`, `ls 2>/dev/null >out`, `echo 2>&1 >f`, `s"e"d -i 's/a/b/' f.go`,
	}
	files, _ := filepath.Glob("../../testdata/streams/*/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no recorded streams in testdata/streams")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			var v any
			if json.Unmarshal(line, &v) == nil {
				cmds = commandsIn(v, cmds)
			}
		}
	}
	found := 0
	for _, c := range cmds {
		if len(shellFiles(c)) == 0 {
			continue
		}
		found++
		if !mayWrite(c) {
			t.Errorf("mayWrite(%q) = false, but it writes %s", c, show(shellFiles(c)))
		}
	}
	if found < 20 {
		t.Fatalf("only %d of %d commands write a file: the test reads too few", found, len(cmds))
	}
}

// commandsIn appends the shell commands of a decoded JSON value: the
// strings, or argv lists, under a "command" or "cmd" key at any depth.
func commandsIn(v any, out []string) []string {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			switch c := x.(type) {
			case string:
				if k == "command" || k == "cmd" {
					out = append(out, c)
				}
			case []any:
				if k == "command" || k == "cmd" {
					var argv []string
					for _, a := range c {
						if s, ok := a.(string); ok {
							argv = append(argv, s)
						}
					}
					out = append(out, strings.Join(quoteAll(argv), " "))
				}
			}
			out = commandsIn(x, out)
		}
	case []any:
		for _, x := range v {
			out = commandsIn(x, out)
		}
	}
	return out
}

// TestCountLines: countLines counts the lines lines splits.
func TestCountLines(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "\n", "a", "a\n", "a\n\n", "\n\na", "a\nb", "a\nb\n", "a\r\nb"} {
		if got, want := countLines(s), len(lines(s)); got != want {
			t.Errorf("countLines(%q) = %d, want %d", s, got, want)
		}
	}
}
