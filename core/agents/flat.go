package agents

// FlatHarness returns the entry of a harness whose files are still in
// this package rather than in its own folder, for core/agents/all to
// register; it is gone once every harness has its folder.
func FlatHarness(name string) Harness {
	flat := map[string]func() Harness{
		"antigravity": antigravityHarness,
		"claude":      claudeHarness,
		"cline":       clineHarness,
		"codex":       codexHarness,
		"copilot":     copilotHarness,
		"crush":       crushHarness,
		"cursor":      cursorHarness,
		"droid":       droidHarness,
		"gemini":      geminiHarness,
		"goose":       gooseHarness,
		"kilo":        kiloHarness,
		"kimi":        kimiHarness,
		"opencode":    opencodeHarness,
		"qwen":        qwenHarness,
		"roo":         rooHarness,
	}
	return flat[name]()
}
