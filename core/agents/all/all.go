// Package all registers every harness sift knows, in sniffing order: the
// program, and every test that reads streams or histories, imports it for
// its side effect. A new harness is its folder under core/agents and one
// line here.
package all

import (
	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/pi"
)

func init() {
	agents.Register(
		agents.FlatHarness("antigravity"),
		agents.FlatHarness("claude"),
		agents.FlatHarness("cline"),
		agents.FlatHarness("codex"),
		agents.FlatHarness("copilot"),
		agents.FlatHarness("crush"),
		agents.FlatHarness("cursor"),
		agents.FlatHarness("droid"),
		agents.FlatHarness("gemini"),
		agents.FlatHarness("goose"),
		agents.FlatHarness("kilo"),
		agents.FlatHarness("kimi"),
		agents.FlatHarness("opencode"),
		pi.Harness(),
		agents.FlatHarness("qwen"),
		agents.FlatHarness("roo"),
	)
}
