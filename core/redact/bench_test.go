package redact

import (
	"strings"
	"testing"
	"time"
)

// adversarial builds the lines BenchmarkRedactAdversarial feeds the
// redactor: each a pattern repeated to n bytes, chosen to make a scanner
// that looks back, or a regular expression that looks ahead, do work per
// match proportional to the line.
func adversarial(name string, n int) string {
	var unit string
	switch name {
	case "password":
		unit = "password=x "
	case "json-token":
		unit = `"token": "abcdefgh", `
	case "begin-no-end":
		unit = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n"
	case "anchor-runs":
		// Runs of each byte the prefilter stops at.
		var sb strings.Builder
		for _, c := range "_-.:=~/+AJBbdELS[\\" {
			sb.WriteString(strings.Repeat(string(c), 512))
		}
		unit = sb.String()
	case "near-miss":
		unit = "sk-1234 AKIA12 ghp_x eyJhbGciOi.eyJ Bearer abc xoxb- glpat- hvs.x SG.x ya29. 1234567890:AA " +
			"--password -p -u https://a:b token: str dapi key-12 "
	case "plain":
		unit = "The quick brown fox jumps over the lazy dog while the build runs its tests again; "
	}
	return strings.Repeat(unit, n/len(unit)+1)[:n]
}

// reportCPU adds the throughput by CPU time, cpuMB/s, to a benchmark's
// figures: on a loaded machine wall time also counts the wait for a core.
func reportCPU(b *testing.B, cpu time.Duration, n int) {
	if cpu > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds()/1e6, "cpuMB/s")
	}
}

// BenchmarkRedactAdversarial measures String on adversarial lines of
// growing size. Redaction is linear when MB/s stays flat as the size grows.
// Run the large sizes with a small -benchtime (1x is enough at 64 MiB).
func BenchmarkRedactAdversarial(b *testing.B) {
	sizes := []struct {
		name string
		n    int
	}{{"64KiB", 64 << 10}, {"1MiB", 1 << 20}, {"8MiB", 8 << 20}, {"64MiB", 64 << 20}}
	for _, content := range []string{"password", "json-token", "begin-no-end", "anchor-runs", "near-miss", "plain"} {
		for _, size := range sizes {
			b.Run(content+"/"+size.name, func(b *testing.B) {
				s := adversarial(content, size.n)
				b.SetBytes(int64(len(s)))
				b.ResetTimer()
				cpu := cpuTime()
				for range b.N {
					String(s)
				}
				reportCPU(b, cpuTime()-cpu, len(s))
			})
		}
	}
}
