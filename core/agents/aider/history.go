package aider

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
)

// aiderHeader is the line Aider starts each session of its chat history
// with, in local time (aider/io.py InputOutput.__init__ appends
// "\n# aider chat started at %Y-%m-%d %H:%M:%S\n\n").
const aiderHeader = "# aider chat started at "

// aiderTimeLayout is the header's time.
const aiderTimeLayout = "2006-01-02 15:04:05"

// aiderIDRe matches the session ids aiderBlocks gives.
var aiderIDRe = regexp.MustCompile(`^aider-\d{8}-\d{6}(-\d+)?$`)

// aiderBlock is one session of a chat history: its id (from its start
// time, "aider-20240805-193302", with -2, -3… for a second session
// started in the same second), its start, and where its bytes are.
type aiderBlock struct {
	id       string
	start    time.Time
	off, len int64
}

// aiderBlocks splits a chat history into its sessions. A block with no
// work in it (no input, no edit, no command, no commit: an aider started
// and left, a --lint or --show-repo run) is no session, nor is what
// precedes the first header (a file cut by hand). The ids depend only on
// the blocks before: the file only grows, so they are stable.
func aiderBlocks(r io.Reader) ([]aiderBlock, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var out []aiderBlock
	seen := map[string]int{}
	var cur *aiderBlock
	work := false
	var off int64
	atStart := true
	flush := func(end int64) {
		if cur != nil && work {
			cur.len = end - cur.off
			out = append(out, *cur)
		}
	}
	for {
		line, err := br.ReadSlice('\n')
		start := atStart
		atStart = err == nil
		if start && len(line) > 0 {
			if t, ok := aiderStart(line); ok {
				flush(off)
				seen[t.Format("20060102-150405")]++
				id := "aider-" + t.Format("20060102-150405")
				if n := seen[t.Format("20060102-150405")]; n > 1 {
					id += fmt.Sprintf("-%d", n)
				}
				cur, work = &aiderBlock{id: id, start: t, off: off}, false
			} else if cur != nil && !work {
				work = aiderWorkLine(line)
			}
		}
		off += int64(len(line))
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			flush(off)
			return out, nil
		case err != nil:
			return nil, err
		}
	}
}

// aiderStart reads a header line's start time.
func aiderStart(line []byte) (time.Time, bool) {
	rest, ok := bytes.CutPrefix(bytes.TrimRight(line, " \r\n"), []byte(aiderHeader))
	if !ok {
		return time.Time{}, false
	}
	t, err := time.ParseInLocation(aiderTimeLayout, string(rest), time.Local)
	return t, err == nil
}

// aiderWorkLine reports whether a line shows work: the person's prompt,
// or an edit, a shell command or a commit (a command such as /add or
// /exit alone is none).
func aiderWorkLine(line []byte) bool {
	if in, ok := bytes.CutPrefix(line, []byte("#### ")); ok {
		cmd, args, _ := strings.Cut(strings.TrimSpace(string(in)), " ")
		return !strings.HasPrefix(cmd, "/") || aiderPrompts(cmd) || cmd == "/run" && args != ""
	}
	for _, p := range []string{"> Applied edit to ", "> Running ", "> Commit "} {
		if bytes.HasPrefix(line, []byte(p)) {
			return true
		}
	}
	return false
}

// aiderListing is the sessions a chat history listed last, with the size
// and last write it had then: an open inbox lists the histories every
// second, and an unchanged file is not read again.
type aiderListing struct {
	size, mtime int64
	blocks      []aiderBlock
}

var aiderListings = struct {
	mu sync.Mutex
	m  map[string]aiderListing
}{m: map[string]aiderListing{}}

// aiderSessions lists the sessions of the chat history a root names: the
// root itself when it is a file ($AIDER_CHAT_HISTORY_FILE), else the
// .aider.chat.history.md in that project folder. Each is keyed by the
// file and its id, in the project folder the file is in; its change
// token is its length and start, so that a grown file reads again only
// its last session, and the ones it adds.
func aiderSessions(root string) ([]agents.StoredSession, func(), error) {
	path := root
	if fi, err := os.Stat(root); err == nil && fi.IsDir() {
		path = filepath.Join(root, aiderHistoryFile)
	}
	blocks, err := aiderList(path)
	if err != nil || blocks == nil {
		return nil, nil, err
	}
	project := filepath.Dir(path)
	out := make([]agents.StoredSession, 0, len(blocks))
	for _, b := range blocks {
		out = append(out, agents.StoredSession{
			Key: agents.StoredKey(path, b.id), ID: b.id, Project: project,
			Size: b.len, MTime: b.start.UnixMilli(),
			Lines: func() ([]byte, error) { return aiderBlockLines(path, b) },
		})
	}
	return out, nil, nil
}

// aiderList returns a chat history's sessions, from the last listing when
// the file has not changed since. A file that is not there has none.
func aiderList(path string) ([]aiderBlock, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil
	}
	size, mtime := fi.Size(), fi.ModTime().UnixNano()
	aiderListings.mu.Lock()
	l, ok := aiderListings.m[path]
	aiderListings.mu.Unlock()
	if ok && l.size == size && l.mtime == mtime {
		return l.blocks, nil
	}
	blocks, err := aiderBlocks(io.LimitReader(f, size))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	aiderListings.mu.Lock()
	aiderListings.m[path] = aiderListing{size: size, mtime: mtime, blocks: blocks}
	aiderListings.mu.Unlock()
	return blocks, nil
}

// aiderRender renders a session of a chat history again by its key; a
// key whose id is not one aiderBlocks gives is not this history's. A
// session no longer in the file renders as nothing.
func aiderRender(key string) ([]byte, bool, error) {
	path, id, ok := agents.SplitStoredKey(key)
	if !ok || !aiderIDRe.MatchString(id) {
		return nil, false, nil
	}
	aiderListings.mu.Lock()
	delete(aiderListings.m, path) // the file is read again, whole
	aiderListings.mu.Unlock()
	blocks, err := aiderList(path)
	if err != nil {
		return nil, true, err
	}
	for _, b := range blocks {
		if b.id == id {
			lines, err := aiderBlockLines(path, b)
			return lines, true, err
		}
	}
	return nil, true, nil
}

// aiderBlockLines reads one session of a chat history and renders it as
// the lines its parser reads (aiderRenderBlock).
func aiderBlockLines(path string, b aiderBlock) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, b.len)
	if _, err := f.ReadAt(buf, b.off); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	first, _, _ := bytes.Cut(buf, []byte("\n"))
	if _, ok := aiderStart(first); !ok {
		return nil, fmt.Errorf("read %s: session %s is no longer where it was listed", path, b.id)
	}
	return aiderRenderBlock(buf, b.id, filepath.Dir(path))
}

// aiderRecord is one rendered line: the session, then each input of the
// person, reply of the model and message of Aider's own, in order.
type aiderRecord struct {
	Session   *aiderSessionRecord `json:"session,omitempty"`
	User      *string             `json:"user,omitempty"`
	Assistant *string             `json:"assistant,omitempty"`
	Note      *string             `json:"note,omitempty"`
}

// aiderSessionRecord is the session a block is: its id, start (as the
// header writes it, local time), folder, and the Aider version and model
// its first lines report.
type aiderSessionRecord struct {
	ID      string `json:"id"`
	Started string `json:"started"`
	Project string `json:"project"`
	Version string `json:"version,omitempty"`
	Model   string `json:"model,omitempty"`
}

// aiderVersionRe and aiderModelRe read the lines Aider starts a session
// with: "Aider v0.47.2-dev", and the model as 0.47's "Models: X with diff
// edit format, weak model Y", 0.50's "Main model: X with …" or a single
// "Model: X with …" (aider/coders/base_coder.py get_announcements).
var (
	aiderVersionRe = regexp.MustCompile(`^Aider (v\d+\.\d+\S*)$`)
	aiderModelRe   = regexp.MustCompile(`^(?:Main model|Models|Model): (\S+) (?:with|using) `)
)

// aiderRenderBlock renders one session's Markdown as JSON lines. The
// chat history writes (aider/io.py): the person's input as "#### " lines
// after a blank line (user_input, every line of it prefixed), the
// model's reply as plain text after a blank line (ai_output), and each
// message of Aider's own as a "> " line (tool_output, tool_error,
// tool_warning, confirm_ask). Input and messages end in the two spaces
// of a Markdown line break (append_chat_history's linebreak); a reply
// does not. So within a reply only a marked line is taken for input or a
// message (a reply may hold Markdown headings and quotes of its own),
// and a "> " line without the mark is a message of several lines that
// goes on to the line that carries it (Aider 0.47 wrote a multi-line
// message with the prefix on its first line only; a confirmation's
// subject of several lines is still written so).
func aiderRenderBlock(block []byte, id, project string) ([]byte, error) {
	lines := strings.Split(strings.ReplaceAll(string(block), "\r\n", "\n"), "\n")
	head := aiderSessionRecord{ID: id, Project: project}
	head.Started = strings.TrimSpace(strings.TrimPrefix(lines[0], aiderHeader))
	var recs []aiderRecord
	const (
		none = iota
		user
		reply
		note
	)
	prev, blank, open := none, true, false
	var text []string
	flush := func() {
		if len(text) == 0 {
			return
		}
		s := strings.Join(text, "\n")
		switch prev {
		case user:
			recs = append(recs, aiderRecord{User: &s})
		case reply:
			if s = strings.Trim(s, "\n"); s != "" {
				recs = append(recs, aiderRecord{Assistant: &s})
			}
		case note:
			recs = append(recs, aiderRecord{Note: &s})
			if m := aiderVersionRe.FindStringSubmatch(s); m != nil && head.Version == "" {
				head.Version = m[1]
			}
			if m := aiderModelRe.FindStringSubmatch(s); m != nil && head.Model == "" {
				head.Model = m[1]
			}
		}
		text = text[:0]
	}
	for _, line := range lines[1:] {
		marked := strings.HasSuffix(line, "  ")
		if open {
			// A message of several lines with its prefix on the first
			// only goes on to the line that carries its mark.
			text[len(text)-1] += "\n" + strings.TrimSuffix(line, "  ")
			open = !marked
			continue
		}
		inReply := prev == reply
		switch {
		case strings.HasPrefix(line, "#### ") && (blank || prev == user) && (!inReply || marked):
			if prev != user {
				flush()
			}
			in := strings.TrimSuffix(strings.TrimPrefix(line, "#### "), "  ")
			if in == "<blank>" {
				in = ""
			}
			text, prev = append(text, in), user
		case strings.HasPrefix(line, "> ") && (!inReply || marked):
			flush()
			text, prev, open = append(text, strings.TrimSuffix(strings.TrimPrefix(line, "> "), "  ")), note, !marked
		case strings.TrimSpace(line) == "":
			// A blank line ends an input or a message (an input's own
			// empty lines are "#### " lines); a reply goes on past it.
			if prev == reply {
				text = append(text, "")
			} else {
				flush()
				prev = none
			}
			blank = true
			continue
		default:
			if prev != reply {
				flush()
				prev = reply
			}
			text = append(text, line)
		}
		blank = false
	}
	flush()
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(aiderRecord{Session: &head}); err != nil {
		return nil, err
	}
	for i := range recs {
		if err := enc.Encode(recs[i]); err != nil {
			return nil, err
		}
	}
	return out.Bytes(), nil
}
