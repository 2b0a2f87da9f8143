package agents

// defaultParsers lists every harness's parser in sniffing order. The
// on-disk history formats come after the stdout streams.
func defaultParsers() []Parser {
	return []Parser{
		antigravityParser{},
		claudeParser{kind: Claude},
		codexParser{},
		copilotParser{},
		cursorParser{},
		droidParser{},
		geminiParser{},
		kimiParser{},
		opencodeParser{},
		claudeParser{kind: Qwen},
		claudeHistoryParser{},
		codexHistoryParser{},
		geminiHistoryParser{},
		unknownParser{},
	}
}
