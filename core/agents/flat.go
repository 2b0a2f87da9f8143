package agents

// FlatHarness returns the entry of a harness whose files are still in
// this package rather than in its own folder, for core/agents/all to
// register; it is gone once every harness has its folder.
func FlatHarness(name string) Harness {
	flat := map[string]func() Harness{
		"antigravity": antigravityHarness,
		"claude":      claudeHarness,
		"cursor":      cursorHarness,
		"qwen":        qwenHarness,
	}
	return flat[name]()
}
