// Package all registers every harness sift knows, in sniffing order: the
// program, and every test that reads streams or histories, imports it for
// its side effect. A new harness is its folder under core/agents and one
// line here.
package all

import (
	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/aider"
	"github.com/agentsift/sift/core/agents/amp"
	"github.com/agentsift/sift/core/agents/antigravity"
	"github.com/agentsift/sift/core/agents/claude"
	"github.com/agentsift/sift/core/agents/cline"
	"github.com/agentsift/sift/core/agents/codex"
	"github.com/agentsift/sift/core/agents/copilot"
	"github.com/agentsift/sift/core/agents/crush"
	"github.com/agentsift/sift/core/agents/cursor"
	"github.com/agentsift/sift/core/agents/droid"
	"github.com/agentsift/sift/core/agents/gemini"
	"github.com/agentsift/sift/core/agents/goose"
	"github.com/agentsift/sift/core/agents/kimi"
	"github.com/agentsift/sift/core/agents/opencode"
	"github.com/agentsift/sift/core/agents/pi"
	"github.com/agentsift/sift/core/agents/qwen"
)

func init() {
	agents.Register(
		aider.Harness(),
		amp.Harness(),
		antigravity.Harness(),
		claude.Harness(),
		cline.Harness(),
		codex.Harness(),
		copilot.Harness(),
		crush.Harness(),
		cursor.Harness(),
		droid.Harness(),
		gemini.Harness(),
		goose.Harness(),
		cline.KiloHarness(),
		kimi.Harness(),
		opencode.Harness(),
		pi.Harness(),
		qwen.Harness(),
		cline.RooHarness(),
	)
}
