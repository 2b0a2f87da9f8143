package pi

import (
	"github.com/agentsift/sift/core/agents"
)

// Harness is pi. sift reads its on-disk sessions; its stdout is captured
// as plaintext (its JSON mode is not read yet).
func Harness() agents.Harness {
	return agents.Harness{
		Kind:   agents.Pi,
		Parser: textParser{kind: agents.Pi},
		History: &agents.History{
			Parser: piHistoryParser{},
			Dirs:   piHistoryDirs, Session: piSession, Root: piHistoryRoot,
			ProjectFromCwd: true,
		},
		CLI:       agents.CLI{Binary: "pi", Probe: agents.NoStream},
		EditTools: []string{"edit", "write"},
	}
}

// textParser is the stream parser of a harness sift reads no stdout
// format of: it claims nothing, and every line is kept as it is, as an
// unknown stream's.
type textParser struct{ kind agents.Kind }

// Kind implements Parser.
func (p textParser) Kind() agents.Kind { return p.kind }

// Claims implements Parser.
func (textParser) Claims([]byte) bool { return false }

// NewStream implements Parser.
func (textParser) NewStream() agents.Stream { return agents.UnknownStream{} }

// EndsWithResult implements Parser.
func (textParser) EndsWithResult() bool { return false }
