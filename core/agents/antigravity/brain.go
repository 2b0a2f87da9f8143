package antigravity

import (
	"bytes"
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
)

// Google Antigravity keeps one folder per conversation under brain/ in
// each of its app data folders: ~/.gemini/antigravity (the IDE),
// ~/.gemini/antigravity-ide (the IDE's newer builds) and
// ~/.gemini/antigravity-cli (agy, the CLI), the same on Linux and macOS.
// The conversation itself, conversations/<uuid>.pb, is AES-encrypted with
// a key only the user's keychain holds: sift does not read it. Beside it,
// brain/<uuid>/.system_generated/logs/ holds the plaintext step log sift
// reads, one JSON object a step (history.go), in up to four
// copies the harness writes independently:
//
//	transcript_full.jsonl             arguments in their own JSON types, nothing clipped
//	chunks/transcript_full/NNNNNNNN.jsonl  the same cut into pieces (mid-line)
//	transcript.jsonl                  each argument a JSON text in a string; long values clipped
//	chunks/transcript/NNNNNNNN.jsonl       the same cut into pieces
//
// agy resolves no environment variable for these folders that sift knows
// of (its --log-file moves only its log).

// antigravityRoots are the app data folders under ~/.gemini.
var antigravityRoots = []string{"antigravity", "antigravity-cli", "antigravity-ide"}

// antigravityLogs is the folder of a conversation's step logs, under its
// brain folder.
const antigravityLogs = ".system_generated/logs"

// antigravitySources are the copies of a conversation's step log, in the
// order one is preferred to another as complete: a flat file or the
// pieces of a chunks folder, and whether its arguments are JSON texts.
var antigravitySources = []struct {
	name    string
	chunks  bool
	compact bool
}{
	{"transcript_full.jsonl", false, false},
	{"chunks/transcript_full", true, false},
	{"transcript.jsonl", false, true},
	{"chunks/transcript", true, true},
}

// antigravityHistoryDirs are the brain folders of Antigravity's app data
// folders.
func antigravityHistoryDirs(_ func(string) string, home string) []string {
	if home == "" {
		return nil
	}
	dirs := make([]string, 0, len(antigravityRoots))
	for _, r := range antigravityRoots {
		dirs = append(dirs, filepath.Join(home, ".gemini", r, "brain"))
	}
	return dirs
}

// antigravityConversations lists the conversations of a brain folder: one
// session per folder that holds a step log, keyed by its folder, which is
// the conversation's id. Their change token is the size and last write
// of all the log's copies. The project is the workspace the app data
// folder records for the conversation, when it records one.
func antigravityConversations(brain string) ([]agents.StoredSession, func(), error) {
	entries, err := os.ReadDir(brain)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	workspaces := antigravityWorkspaces(filepath.Dir(brain))
	var out []agents.StoredSession
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		conv := filepath.Join(brain, e.Name())
		size, mtime, ok := antigravityToken(conv)
		if !ok {
			// An artifacts folder without a step log (tempmediaStorage).
			continue
		}
		out = append(out, agents.StoredSession{Key: agents.StoredKey(conv, e.Name()), ID: e.Name(), Project: workspaces[e.Name()],
			Size: size, MTime: mtime, Lines: func() ([]byte, error) { return antigravityLines(conv, workspaces) }})
	}
	return out, nil, nil
}

// antigravityToken sums the sizes and takes the latest write of a
// conversation's step log copies; ok is false when it has none.
func antigravityToken(conv string) (size, mtime int64, ok bool) {
	r, err := os.OpenRoot(conv)
	if err != nil {
		return 0, 0, false
	}
	defer r.Close()
	for i := range antigravitySources {
		for _, fi := range antigravityCopy(r, i) {
			size += fi.Size()
			mtime = max(mtime, fi.ModTime().UnixMilli())
			ok = true
		}
	}
	return size, mtime, ok
}

// antigravityRender renders a conversation again from its key: a key
// whose container is not a folder named by its id under a brain folder is
// not this history's.
func antigravityRender(key string) ([]byte, bool, error) {
	conv, id, ok := agents.SplitStoredKey(key)
	if !ok || filepath.Base(conv) != id || filepath.Base(filepath.Dir(conv)) != "brain" {
		return nil, false, nil
	}
	if _, _, ok := antigravityToken(conv); !ok {
		// The conversation, or its step log, is gone.
		return nil, true, nil
	}
	lines, err := antigravityLines(conv, antigravityWorkspaces(filepath.Dir(filepath.Dir(conv))))
	return lines, true, err
}

// antigravityLines renders a conversation as the lines its history parser
// reads: a first line of sift's own naming it,
// {"conversation": {"id", "cwd", "source", "compactArgs"}} (the log's copy
// read, and whether its arguments are JSON texts), then the steps of the
// most complete copy of its log, ordered by step_index: the harness
// writes a step's result before the step that called it at times. The
// conversation folder is read through an os.Root: a link in it that leads
// out is not followed.
func antigravityLines(conv string, workspaces map[string]string) ([]byte, error) {
	r, err := os.OpenRoot(conv)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var best []byte
	var bestSrc int
	bestN := -1
	for pair := 0; pair < len(antigravitySources); pair += 2 {
		// A file and the pieces cut from it write the same steps the same
		// way: the larger holds more of them, and is the one read.
		i := pair
		if antigravitySize(r, pair+1) > antigravitySize(r, pair) {
			i = pair + 1
		}
		src := antigravitySources[i]
		b, err := antigravityRead(r, path.Join(antigravityLogs, src.name), src.chunks)
		if err != nil {
			return nil, err
		}
		if n := completeLines(b); b != nil && n > bestN {
			best, bestSrc, bestN = b, i, n
		}
	}
	steps := antigravitySteps(best)
	id := filepath.Base(conv)
	cwd := workspaces[id]
	if cwd == "" {
		cwd = antigravityCommandCwd(steps, antigravitySources[bestSrc].compact)
	}
	var out bytes.Buffer
	head, err := json.Marshal(map[string]any{"conversation": map[string]any{"id": id, "cwd": cwd,
		"source": antigravitySources[bestSrc].name, "compactArgs": antigravitySources[bestSrc].compact}})
	if err != nil {
		return nil, err
	}
	out.Write(head)
	out.WriteByte('\n')
	for _, s := range steps {
		out.Write(s.line)
		out.WriteByte('\n')
	}
	return out.Bytes(), nil
}

// antigravityRead reads one copy of a step log through the conversation's
// root: a file, or the pieces of a chunks folder joined in their order
// (a piece ends where its size ran out, mid-line). A copy that is not
// there is nil.
func antigravityRead(r *os.Root, name string, chunks bool) ([]byte, error) {
	if !chunks {
		return antigravityReadFile(r, name)
	}
	entries, err := fs.ReadDir(r.FS(), name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []byte
	for _, e := range entries { // ReadDir sorts by name: 00000000, 00000001, …
		if !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		b, err := antigravityReadFile(r, path.Join(name, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return out, nil
}

// antigravityCopy is what is there of the i-th copy of a step log: its
// file, or its pieces, each a regular file.
func antigravityCopy(r *os.Root, i int) []fs.FileInfo {
	src := antigravitySources[i]
	name := path.Join(antigravityLogs, src.name)
	names := []string{name}
	if src.chunks {
		entries, _ := fs.ReadDir(r.FS(), name)
		names = names[:0]
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".jsonl") {
				names = append(names, path.Join(name, e.Name()))
			}
		}
	}
	var out []fs.FileInfo
	for _, n := range names {
		if fi, err := r.Stat(n); err == nil && fi.Mode().IsRegular() {
			out = append(out, fi)
		}
	}
	return out
}

// antigravitySize is the size of the i-th copy of a step log; -1 when it
// is not there.
func antigravitySize(r *os.Root, i int) int64 {
	fis := antigravityCopy(r, i)
	if len(fis) == 0 {
		return -1
	}
	var size int64
	for _, fi := range fis {
		size += fi.Size()
	}
	return size
}

// antigravityReadFile reads a regular file through the root; nil when it
// is not there or not a regular file (a FIFO would never end).
func antigravityReadFile(r *os.Root, name string) ([]byte, error) {
	fi, err := r.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil
	}
	return r.ReadFile(name)
}

// completeLines counts the records of a copy: its lines that end, and a
// last one that does not but holds a whole JSON value (the harness may be
// writing it).
func completeLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if i := bytes.LastIndexByte(b, '\n'); json.Valid(bytes.TrimSpace(b[i+1:])) {
		n++
	}
	return n
}

// antigravityStep is one line of a step log with its index.
type antigravityStep struct {
	index int64
	line  []byte
}

// antigravitySteps splits a step log into its lines, in step order. A
// line that names no step_index (one cut off, or not JSON) keeps its place
// after the step before it.
func antigravitySteps(b []byte) []antigravityStep {
	var steps []antigravityStep
	last := int64(-1)
	for line := range bytes.SplitSeq(b, []byte{'\n'}) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var s struct {
			StepIndex *int64 `json:"step_index"`
		}
		if json.Unmarshal(line, &s) == nil && s.StepIndex != nil {
			last = *s.StepIndex
		}
		steps = append(steps, antigravityStep{index: last, line: line})
	}
	slices.SortStableFunc(steps, func(a, b antigravityStep) int { return cmp.Compare(a.index, b.index) })
	return steps
}

// antigravityCommandCwd is the first folder a command of the conversation
// ran in (run_command's Cwd), when it is absolute and not one of
// Antigravity's own (its scratch folder under ~/.gemini/antigravity*).
func antigravityCommandCwd(steps []antigravityStep, compact bool) string {
	for _, s := range steps {
		if !bytes.Contains(s.line, []byte(`"Cwd"`)) {
			continue
		}
		var st agyHistoryStep
		if json.Unmarshal(s.line, &st) != nil {
			continue
		}
		for _, c := range st.ToolCalls {
			var args struct {
				Cwd json.RawMessage `json:"Cwd"`
			}
			if json.Unmarshal(agyHistoryArgs(c.Args, compact), &args) != nil {
				continue
			}
			cwd, _ := agents.JSONText(args.Cwd)
			if filepath.IsAbs(cwd) && !strings.Contains(filepath.ToSlash(cwd), "/.gemini/antigravity") {
				return filepath.Clean(cwd)
			}
		}
	}
	return ""
}

// antigravityWorkspaces maps the conversations of an app data folder to
// the workspaces it records for them: history.jsonl's prompts
// ({"display", "timestamp", "workspace", "conversationId"}), and the last
// conversation of each folder (cache/last_conversations.json, {"<cwd>":
// "<conversation id>"}), which agy's --continue resumes.
func antigravityWorkspaces(root string) map[string]string {
	out := map[string]string{}
	r, err := os.OpenRoot(root)
	if err != nil {
		return out
	}
	defer r.Close()
	if b, _ := antigravityReadFile(r, "cache/last_conversations.json"); b != nil {
		var last map[string]string
		if json.Unmarshal(b, &last) == nil {
			for cwd, id := range last {
				if filepath.IsAbs(cwd) {
					out[id] = cwd
				}
			}
		}
	}
	b, _ := antigravityReadFile(r, "history.jsonl")
	for line := range bytes.SplitSeq(b, []byte{'\n'}) {
		var h struct {
			Workspace      string `json:"workspace"`
			ConversationID string `json:"conversationId"`
		}
		if json.Unmarshal(line, &h) == nil && h.ConversationID != "" && filepath.IsAbs(h.Workspace) {
			out[h.ConversationID] = h.Workspace
		}
	}
	return out
}
