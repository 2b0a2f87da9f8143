//go:build unix

package capture

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// adversarialLine returns a JSON line of about n bytes dense with
// `password=`, the shape that made redaction quadratic (#12 item 4).
func adversarialLine(n int) []byte {
	text := bytes.Repeat([]byte("password=x "), n/11)
	return append(append(append([]byte(`{"type":"assistant","text":"`), text...), `"}`...), '\n')
}

// writeBenchFiles writes the adversarial line and 1 MB of ordinary lines.
func writeBenchFiles(b *testing.B, dir string, n int) (adv, plain string) {
	b.Helper()
	adv, plain = filepath.Join(dir, "adv"), filepath.Join(dir, "plain")
	var p bytes.Buffer
	for i := 0; p.Len() < 1_000_000; i++ {
		fmt.Fprintf(&p, `{"type":"item","n":%d,"text":"%070d"}`+"\n", i, i)
	}
	if err := os.WriteFile(adv, adversarialLine(n), 0o600); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(plain, p.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	return adv, plain
}

// BenchmarkAgentBlocked measures how long an agent's writes block when
// one adversarial line is followed by 1 MB of ordinary output: the time
// the agent's write of that 1 MB takes (metric blocked-ms), measured by
// the agent itself with date(1). The redactor is left to finish in the
// background.
func BenchmarkAgentBlocked(b *testing.B) {
	for _, tc := range []struct {
		n          int
		plain, off bool
	}{{256 << 10, false, false}, {8 << 20, false, false}, {8 << 20, true, false}, {8 << 20, true, true}} {
		name := strconv.Itoa(tc.n>>10) + "KiB"
		switch {
		case tc.off:
			name = "uncaptured" + name
		case tc.plain:
			name = "plain" + name
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			adv, plain := writeBenchFiles(b, dir, tc.n)
			if tc.plain {
				line := append(bytes.Repeat([]byte("x"), tc.n), '\n')
				os.WriteFile(adv, line, 0o600) //nolint:errcheck
			}
			times := filepath.Join(dir, "times")
			bin := fakeBin(b, dir, "claude", `cat `+adv+`
date +%s%N > `+times+`
cat `+plain+`
date +%s%N >> `+times+`
`)
			var blocked time.Duration
			for range b.N {
				s := Spec{CLI: mustCLI(b, "claude"), Binary: bin, Enabled: true, Root: filepath.Join(dir, "logs"),
					WorkItem: "wi-1", Phase: "work", Iteration: 1, MaxFileBytes: 32 << 20,
					Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, drainWait: 10 * time.Millisecond}
				s.Enabled = !tc.off
				if _, err := Run(context.Background(), s); err != nil {
					b.Fatal(err)
				}
				data, _ := os.ReadFile(times)
				f := strings.Fields(string(data))
				if len(f) != 2 {
					b.Fatalf("times %q", data)
				}
				t0, _ := strconv.ParseInt(f[0], 10, 64)
				t1, _ := strconv.ParseInt(f[1], 10, 64)
				blocked += time.Duration(t1 - t0)
			}
			b.ReportMetric(float64(blocked.Milliseconds())/float64(b.N), "blocked-ms")
		})
	}
}

// BenchmarkSIGTERMWhileRedacting measures how long `sift run` (the test
// binary re-executed, see TestHelperSiftRun) takes to exit after SIGTERM
// while its redactor is busy: on an adversarial line, or stuck for good
// on a line (a redactor that never finishes). The agent exits on the
// signal at once. Metric exit-ms.
func BenchmarkSIGTERMWhileRedacting(b *testing.B) {
	for _, tc := range []struct {
		name string
		n    int
		slow bool
	}{{"adversarial256KiB", 256 << 10, false}, {"adversarial8MiB", 8 << 20, false}, {"stuck", 64, true}} {
		b.Run(tc.name, func(b *testing.B) {
			dir := b.TempDir()
			adv, _ := writeBenchFiles(b, dir, tc.n)
			if tc.slow {
				os.WriteFile(adv, []byte(`{"type":"assistant","text":"SLOW"}`+"\n"), 0o600) //nolint:errcheck
			}
			ready := filepath.Join(dir, "ready")
			bin := fakeBin(b, dir, "claude", `trap 'exit 143' TERM
cat `+adv+`
touch `+ready+`
while :; do sleep 0.01; done
`)
			var total time.Duration
			for range b.N {
				os.Remove(ready)
				cmd, out := startHelper(b, helperSpec{CLI: "claude", Bin: bin, Root: filepath.Join(dir, "logs"), Slow: tc.slow}, io.Discard)
				go io.Copy(io.Discard, out) //nolint:errcheck
				for !exists(ready) {
					time.Sleep(5 * time.Millisecond)
				}
				sent := time.Now()
				cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck
				cmd.Wait()                          //nolint:errcheck
				total += time.Since(sent)
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "exit-ms")
		})
	}
}
