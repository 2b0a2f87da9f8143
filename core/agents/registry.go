package agents

// defaultParsers lists every harness's parser in sniffing order.
func defaultParsers() []Parser {
	return []Parser{
		claudeParser{kind: Claude},
		claudeParser{kind: Cursor},
		droidParser{},
		claudeParser{kind: Qwen},
		unknownParser{},
	}
}
