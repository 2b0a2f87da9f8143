package httpapi

import (
	"bytes"
	"cmp"
	"io"
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/layout"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/review"
)

// streamFile is one captured file in GET /workitems/{id}/agent-streams.
type streamFile struct {
	FileName      string    `json:"fileName"`
	Phase         string    `json:"phase"`
	Iteration     *int      `json:"iteration"`
	AgentKind     string    `json:"agentKind"`
	Size          int64     `json:"size"`
	LastWriteTime time.Time `json:"lastWriteTime"`
	// LineCount is set only with includeLineCount=true.
	LineCount *int `json:"lineCount,omitempty"`
	// Summarized says the store holds a summary of the file as it is now.
	Summarized bool `json:"summarized"`
}

// streamList is the body of GET /workitems/{id}/agent-streams.
type streamList struct {
	WorkItemID string       `json:"workItemId"`
	Files      []streamFile `json:"files"`
	// Total is the number of files of the work item, before paging.
	Total      int  `json:"total"`
	Limit      int  `json:"limit"`
	Offset     int  `json:"offset"`
	NextOffset *int `json:"nextOffset,omitempty"`
}

// handleListStreams serves GET /workitems/{id}/agent-streams: the stream
// files of a work item on disk, oldest write first, with the phase,
// iteration and agent kind the store knows (else read from the file name
// and sniffed from the first lines). The files on disk are the truth; the
// store only adds what it knows about them.
func (s *Server) handleListStreams(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	limit, err := parseLimit(v)
	if err != nil {
		paramFail(w, err)
		return
	}
	offset, err := parseOffset(v)
	if err != nil {
		paramFail(w, err)
		return
	}
	withLines, err := parseBool(v, "includeLineCount")
	if err != nil {
		paramFail(w, err)
		return
	}
	wi := r.PathValue("id")
	infos, err := s.logs.listDir(wi)
	if err != nil {
		s.pathError(w, err)
		return
	}
	slices.SortFunc(infos, func(a, b fs.FileInfo) int {
		return cmp.Or(a.ModTime().Compare(b.ModTime()), strings.Compare(a.Name(), b.Name()))
	})
	// Folder and file names are shown as the inbox shows them: redacted.
	out := streamList{WorkItemID: redact.String(wi), Files: []streamFile{}, Total: len(infos), Limit: limit, Offset: offset}
	if offset >= len(infos) {
		writeJSON(w, http.StatusOK, out)
		return
	}
	page := infos[offset:min(len(infos), offset+limit)]
	if offset+limit < len(infos) {
		next := offset + limit
		out.NextOffset = &next
	}
	known, err := s.store.ListSessions(r.Context(), review.Query{WorkItem: wi})
	if err != nil {
		s.storeError(w, "list sessions of work item", err)
		return
	}
	byName := make(map[string]*review.Session, len(known.Sessions))
	for i := range known.Sessions {
		byName[known.Sessions[i].FileName] = &known.Sessions[i]
	}
	for _, fi := range page {
		f := streamFile{FileName: redact.String(fi.Name()), Size: fi.Size(), LastWriteTime: fi.ModTime().UTC()}
		sum := byName[fi.Name()]
		if sum != nil {
			f.Phase, f.Iteration, f.AgentKind = sum.Phase, sum.Iteration, sum.AgentKind
			f.Summarized = sum.ByteCount == fi.Size()
		} else {
			f.Phase, f.Iteration = phaseOf(fi.Name())
			f.AgentKind = s.sniff(wi, fi.Name())
		}
		if withLines {
			if f.Summarized {
				n := sum.LineCount
				f.LineCount = &n
			} else {
				n, err := s.countLines(wi, fi.Name())
				if err != nil {
					s.internal(w, "count lines", err)
					return
				}
				f.LineCount = &n
			}
		}
		out.Files = append(out.Files, f)
	}
	writeJSON(w, http.StatusOK, out)
}

// phaseOf reads the phase and iteration from a capture's file name,
// `<phase>-<iteration>-<hex>.jsonl` (layout.ParseStreamName: twelve hex
// digits, six in older names); other names are phase work with no
// iteration, as the store's importer reads them.
func phaseOf(name string) (string, *int) {
	phase, n, ok := layout.ParseStreamName(name)
	if !ok {
		return "work", nil
	}
	return phase, &n
}

// sniffBytes is how much of a file the agent sniffer reads.
const sniffBytes = 64 << 10

// sniff names the harness of a stream not yet in the store from its first
// lines; unknown when it cannot tell.
func (s *Server) sniff(workItem, name string) string {
	f, _, err := s.logs.openFile(workItem, name)
	if err != nil {
		return string(agents.Unknown)
	}
	defer f.Close()
	buf := make([]byte, sniffBytes)
	n, _ := io.ReadFull(f, buf)
	var lines [][]byte
	for _, l := range bytes.Split(buf[:n], []byte{'\n'}) {
		if l = bytes.TrimSpace(l); len(l) > 0 && l[0] == '{' {
			lines = append(lines, l)
			if len(lines) == agents.SniffLines {
				break
			}
		}
	}
	return string(s.reg.Sniff(lines))
}

// countLines counts the lines of a stream file as the parser does: every
// line, blank ones included, a last line without a newline too.
func (s *Server) countLines(workItem, name string) (int, error) {
	f, _, err := s.logs.openFile(workItem, name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, last := 0, byte('\n')
	for {
		m, err := f.Read(buf)
		if m > 0 {
			n += bytes.Count(buf[:m], []byte{'\n'})
			last = buf[m-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if last != '\n' {
		n++
	}
	return n, nil
}
