package agents_test

// The tests of this package read streams with every harness registered.
import _ "github.com/agentsift/sift/core/agents/all"
