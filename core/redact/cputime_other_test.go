//go:build !unix

package redact

import "time"

// cpuTime is not measured outside Unix; the benchmarks then report wall
// time only.
func cpuTime() time.Duration { return 0 }
