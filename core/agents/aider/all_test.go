package aider_test

// The tests read streams with every harness registered.
import _ "github.com/agentsift/sift/core/agents/all"
