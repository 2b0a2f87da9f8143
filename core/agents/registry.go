package agents

// harnesses lists every harness sift knows, in sniffing order. A new
// harness is one line here.
func harnesses() []Harness {
	return []Harness{
		aiderHarness(),
		ampHarness(),
		antigravityHarness(),
		claudeHarness(),
		clineHarness(),
		codexHarness(),
		copilotHarness(),
		crushHarness(),
		cursorHarness(),
		droidHarness(),
		geminiHarness(),
		gooseHarness(),
		kiloHarness(),
		kimiHarness(),
		opencodeHarness(),
		piHarness(),
		qwenHarness(),
		rooHarness(),
	}
}

// defaultParsers lists every harness's parser in sniffing order: the
// stdout streams, then the on-disk history formats, then the parser of
// unknown streams.
func defaultParsers() []Parser {
	hs := Harnesses()
	ps := make([]Parser, 0, 2*len(hs)+1)
	for _, h := range hs {
		if h.Parser != nil {
			ps = append(ps, h.Parser)
		}
	}
	for _, h := range hs {
		if h.History != nil {
			ps = append(ps, h.History.Parser)
		}
	}
	return append(ps, unknownParser{})
}
