package agents

// piHarness is pi. sift reads its on-disk sessions; its stdout is captured
// as plaintext (its JSON mode is not read yet).
func piHarness() Harness {
	return Harness{
		Kind:   Pi,
		Parser: textParser{kind: Pi},
		History: &History{
			Parser: piHistoryParser{},
			Dirs:   piHistoryDirs, Session: piSession, Root: piHistoryRoot,
			ProjectFromCwd: true,
		},
		CLI:       CLI{Binary: "pi", Probe: NoStream},
		EditTools: []string{"edit", "write"},
	}
}

// textParser is the stream parser of a harness sift reads no stdout
// format of: it claims nothing, and every line is kept as it is, as an
// unknown stream's.
type textParser struct{ kind Kind }

// Kind implements Parser.
func (p textParser) Kind() Kind { return p.kind }

// Claims implements Parser.
func (textParser) Claims([]byte) bool { return false }

// NewStream implements Parser.
func (textParser) NewStream() Stream { return unknownStream{} }

// EndsWithResult implements Parser.
func (textParser) EndsWithResult() bool { return false }
