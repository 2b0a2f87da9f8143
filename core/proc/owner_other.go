//go:build !unix

package proc

// processStart cannot tell here: every process counts as alive, so no run
// is ever marked stale.
func processStart(pid int) (string, bool) { return "", pid > 0 }

// pidNamespace is unknown here.
func pidNamespace() string { return "" }

// bootID is unknown here.
func bootID() string { return "" }
