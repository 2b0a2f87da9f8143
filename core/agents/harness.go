package agents

import (
	"path/filepath"
	"regexp"
	"slices"
)

// Harness is everything sift knows about one agent CLI, as data and
// functions: its parsers, how sift run launches it, the model an
// invocation asks for, how it resumes a session, the tools it edits files
// with, where it prints its run total, its delta lines and where it keeps
// its history. Each harness's entry is built in its own folder
// (core/agents/<harness>, its Harness function) and registered by
// core/agents/all (Register); capture, edit, summary, ingest and the
// program ask an entry rather than switching on a kind.
type Harness struct {
	// Kind names the harness; its stream parser's kind.
	Kind Kind
	// Parser reads the stream the CLI prints on stdout; nil for a
	// harness sift only reads the history of (an editor's extension),
	// which has no CLI either.
	Parser Parser
	// History, when set, reads the sessions the CLI keeps on disk.
	History *History
	// CLI is how sift run launches it.
	CLI CLI
	// Model reads the model an invocation asks for from its arguments,
	// environment and configuration files (InvocationModel); nil when
	// sift reads none.
	Model func(Launch) (Model, error)
	// Resume is how its CLI resumes a session with a new prompt; nil
	// when sift has not checked its resume flags.
	Resume *Resume
	// EditTools are the tools whose input is an edit a diff shows (an
	// old and a new text, a whole file, or a patch).
	EditTools []string
	// RunTotal names where the harness's stream gives its own token
	// total of a run ("result line", "stats"), which a summary checks the
	// calls' sum against; "" reads as "run total".
	RunTotal string
	// Deltas recognises the lines of a reply streamed as it is
	// generated (deltas.go); nil when the CLI prints none.
	Deltas DeltaShape
}

// CLI is how sift run launches an agent CLI with its streaming flags (the
// flags follow testdata/streams/FORMATS.md).
type CLI struct {
	// Binary is the default executable name, looked up on PATH; sift run
	// takes it for the harness's name too (cursor-agent, agy).
	Binary string
	// Sub is a subcommand the non-interactive mode needs (codex exec,
	// opencode run, droid exec); it is kept when capture is disabled.
	Sub string
	// Stream are the flags that make the CLI print its JSON stream.
	Stream []string
	// Probe says how sift decides whether the installed CLI has them.
	Probe Probe
}

// Probe says how sift decides whether an agent CLI's streaming flags work.
type Probe uint8

// The probes.
const (
	// NoProbe: the flags are known to work.
	NoProbe Probe = iota
	// NoStream: the CLI has no structured mode; it is captured as
	// plaintext.
	NoStream
	// ProbeHelp: its --help must advertise the flags (gemini).
	ProbeHelp
	// ProbeHelpAndRun: its --help must mention --output-format, then a
	// trivial run must print only JSON lines; the verdict is cached per
	// version (agy).
	ProbeHelpAndRun
)

// Harnesses returns the entry of every harness, in sniffing order. The
// entries are shared: a caller must not change them.
func Harnesses() []Harness { return table() }

// LookupHarness returns the entry of the harness of a stream's kind (a
// history's kind names none: ask for its Kind.Harness).
func LookupHarness(k Kind) (Harness, bool) {
	hs := table()
	for i := range hs {
		if hs[i].Kind == k {
			return hs[i], true
		}
	}
	return Harness{}, false
}

// IsEditTool reports whether a tool is one some harness edits files with
// (Harness.EditTools).
func IsEditTool(name string) bool {
	hs := table()
	for i := range hs {
		if slices.Contains(hs[i].EditTools, name) {
			return true
		}
	}
	return false
}

// Resume is how an agent CLI resumes one of its sessions by id, checked
// against its pinned CLI's --help (core/capture TestResumeFlagsAreTheCLIs).
type Resume struct {
	// ID matches a session id of the harness: an id that does not is
	// never put on a command line.
	ID *regexp.Regexp
	// Args returns the arguments after the binary that resume the session
	// interactively, for an id that matched ID.
	Args func(id string) []string
	// Prompt returns those that send it a prompt instead (the CLI answers
	// and exits). The prompt goes after `--` (or in `--prompt=`), so that
	// a note starting with a dash is never read as a flag.
	Prompt func(id, prompt string) []string
}

// UUIDID matches a session id that is a UUID (claude's session_id,
// codex's thread_id, gemini's session_id).
func UUIDID() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
}

// History is the sessions an agent CLI keeps on disk: where, and how a
// file there names its session.
type History struct {
	// Parser reads one session file; its kind is the history's.
	Parser Parser
	// Dirs returns the folders the CLI keeps its sessions in, honouring
	// the variables the CLI itself reads: getenv reads the environment,
	// home is the user's home folder ("" when unknown).
	Dirs func(getenv func(string) string, home string) []string
	// InProjects, when set, returns the roots a project folder sift knows
	// holds, for a harness that keeps its sessions in the projects it ran
	// in and nothing under HOME to list them (Aider): the folders of the
	// runs and sessions in the store, and the configuration's Projects,
	// are each asked.
	InProjects func(getenv func(string) string, project string) []string
	// Session names the session of a file under one of those folders,
	// from the parts of its path relative to the folder: its work item
	// (the project) and its file name; ok is false for a file that is no
	// session.
	Session func(parts []string) (workItem, name string, ok bool)
	// Root returns the folder a session file found by its shape, not
	// under a folder of Dirs, would be under: the CLI's folder structure
	// around the file.
	Root func(path string) string
	// Projects, when set, maps the project folders under a root (the
	// work items Session names) to the working directories they stand
	// for.
	Projects func(root string) map[string]string
	// Document, when set, reads a file that holds a whole session as one
	// JSON document (a name ending in .json) as the lines Parser reads.
	Document func(doc []byte) ([]byte, error)
	// ProjectFromCwd: a session's work item is the working directory it
	// records, once read (Session's is a placeholder).
	ProjectFromCwd bool
	// SubagentParents: a subagent's transcript is linked to the call of
	// its parent session that started it.
	SubagentParents bool
	// NoTokens: the harness records no token figures in its history
	// (Cursor CLI): a session's cost says so instead of being blank.
	NoTokens bool
	// NamedByID: a session is stored under a name made of the id it
	// records, not its file's name, which several machines' sessions may
	// share.
	NamedByID bool
	// Sessions, when set, lists the sessions kept under a folder of Dirs
	// itself, for a harness that keeps them where no one file is one
	// session: a database of them (opencode, Goose), or a folder per
	// session (Cline's task folders). Session, Root and Document are
	// then unused. Each is rendered as the lines Parser reads
	// (StoredSession.Lines). done, when not nil, is called once the
	// import has rendered what it reads (it removes a database's copy
	// the sessions were listed and are rendered from, core/historydb).
	Sessions func(dir string) (sessions []StoredSession, done func(), err error)
	// Render, with Sessions, renders again the session a key names
	// (StoredSession.Key), for a reader of the stream after its import
	// (the inbox's detail); ok is false for a key that is not one of
	// this history's.
	Render func(key string) (lines []byte, ok bool, err error)
}

// LookupHistory returns the history whose files a kind reads
// (claude-history), and whether there is one.
func LookupHistory(k Kind) (*History, bool) {
	hs := table()
	for i := range hs {
		if h := hs[i].History; h != nil && h.Parser.Kind() == k {
			return h, true
		}
	}
	return nil, false
}

// UpDirs is the folder n levels above path.
func UpDirs(path string, n int) string {
	for range n {
		path = filepath.Dir(path)
	}
	return path
}

// XDGData is an application's folder under $XDG_DATA_HOME, else
// ~/.local/share; "" when neither is known.
func XDGData(getenv func(string) string, home, app string) string {
	base := getenv("XDG_DATA_HOME")
	if base == "" {
		if home == "" {
			return ""
		}
		base = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(base, app)
}
