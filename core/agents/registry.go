package agents

// defaultParsers lists every harness's parser in sniffing order.
func defaultParsers() []Parser {
	return []Parser{
		claudeParser{kind: Claude},
		codexParser{},
		claudeParser{kind: Cursor},
		droidParser{},
		geminiParser{},
		opencodeParser{},
		claudeParser{kind: Qwen},
		unknownParser{},
	}
}
