package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// slowRedactor stands in for a redactor stuck on a huge line: it blocks on
// every line holding "SLOW" until released.
type slowRedactor struct {
	entered     chan struct{} // closed when the first SLOW line is met
	release     chan struct{}
	enterOnce   sync.Once
	releaseOnce sync.Once
}

func newSlowRedactor(t *testing.T) *slowRedactor {
	s := &slowRedactor{entered: make(chan struct{}), release: make(chan struct{})}
	t.Cleanup(s.free)
	return s
}

func (s *slowRedactor) delay(line []byte) {
	if bytes.Contains(line, []byte("SLOW")) {
		s.enterOnce.Do(func() { close(s.entered) })
		<-s.release
	}
}

func (s *slowRedactor) free() { s.releaseOnce.Do(func() { close(s.release) }) }

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, d)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// skipMarkers returns the skip markers of a structured file's lines and
// fails on a line that is not JSON.
func skipMarkers(t *testing.T, lines []string) (markers []map[string]any, at []int) {
	t.Helper()
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Errorf("line %d is not JSON: %.80s", i+1, l)
			continue
		}
		if m["type"] == SkippedType {
			markers = append(markers, m)
			at = append(at, i)
		}
	}
	return markers, at
}

// TestRunRedactorStuck reproduces #12 item 4: an agent whose line keeps
// the redactor busy is not blocked, its later output reaches sift's stdout
// at once, SIGTERM ends the run while the redactor is still busy, and the
// file holds a marker for what was not redacted, never the secret.
func TestRunRedactorStuck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wrote := filepath.Join(dir, "wrote")
	// 3000 lines of 140 bytes after the slow one: several times what a
	// pipe buffers, so a reader that waits for the redactor blocks the
	// agent before it gets to touch the file.
	bin := fakeBin(t, dir, "claude", `trap 'echo "{\"type\":\"bye\"}"; exit 143' TERM
echo '{"type":"assistant","text":"SLOW `+ghToken+`"}'
i=0; while [ $i -lt 3000 ]; do printf '{"type":"item","n":"%050d","token":"`+ghToken+`"}\n' $i; i=$((i+1)); done
touch `+wrote+`
while :; do sleep 0.05; done
`)
	s, out, _ := spec(t, mustCLI(t, "claude"), bin)
	slow := newSlowRedactor(t)
	s.redactDelay = slow.delay
	sigs := make(chan os.Signal, 1)
	s.Signals = sigs
	t.Cleanup(func() {
		select { // a failed test leaves no agent behind
		case sigs <- os.Kill:
		default:
		}
	})
	done := make(chan Result, 1)
	go func() {
		res, err := Run(context.Background(), s)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	<-slow.entered
	last := fmt.Sprintf(`"n":"%050d"`, 2999)
	waitFor(t, "the agent's output passing the stuck redactor", 20*time.Second, func() bool {
		return exists(wrote) && strings.Contains(out.String(), last)
	})

	sigs <- syscall.SIGTERM
	var res Result
	select {
	case res = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("sift run did not end after SIGTERM while the redactor was busy")
	}
	select {
	case <-slow.release:
		t.Fatal("the redactor was released before the run ended")
	default:
	}
	if res.ExitCode != 143 {
		t.Errorf("exit %d, want the agent's 143", res.ExitCode)
	}
	if !strings.Contains(out.String(), `{"type":"bye"}`) {
		t.Error("the agent's last line did not reach stdout")
	}
	before := readLines(t, res.File)
	slow.free()
	check := func(lines []string) {
		t.Helper()
		for i, l := range lines {
			if strings.Contains(l, ghToken) {
				t.Errorf("line %d holds the secret: %.80s", i+1, l)
			}
		}
		markers, _ := skipMarkers(t, lines)
		if len(markers) != 1 {
			t.Fatalf("%d skip markers, want 1: %q", len(markers), lines)
		}
		// The slow line, the 3000 items and the bye line at least (the
		// shell may add stderr lines about its killed sleep).
		if n := markers[0]["lines"].(float64); n < 3002 || n != float64(res.SkippedLines) {
			t.Errorf("marker counts %v lines, result %d, want ≥ 3002", n, res.SkippedLines)
		}
	}
	check(before)
	// Released, the redactor finishes its line in the background and
	// writes nothing more.
	time.Sleep(100 * time.Millisecond)
	after := readLines(t, res.File)
	if strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("the file changed after the run ended:\n%q", after)
	}
}

// TestRunRedactorFarBehind checks the clarification of #12 item 4: lines
// that would put the redactor more than 8 MiB behind the agent are
// replaced by one marker per run of them, counting lines and bytes; the
// order of the lines is kept and the lines after the run are written.
func TestRunRedactorFarBehind(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cli    string
		line   func(i int) string
		marker func(lines, bytes int) string
	}{
		{"claude", func(i int) string { return fmt.Sprintf(`{"type":"item","n":"%070d"}`, i) }, func(lines, bytes int) string {
			return fmt.Sprintf(`{"type":"sift.redaction_skipped","lines":%d,"bytes":%d,"text":"%d lines (%d bytes) not redacted in time, not written"}`, lines, bytes, lines, bytes)
		}},
		{"copilot", func(i int) string { return fmt.Sprintf("item %070d", i) }, func(lines, bytes int) string {
			return fmt.Sprintf("[...%d lines (%d bytes) not redacted in time, not written]", lines, bytes)
		}},
	} {
		t.Run(tc.cli, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			const n = 100_000 // lines of ~90 bytes: 9 MB, 21 MB with lineCost
			var data bytes.Buffer
			for i := range n {
				data.WriteString(tc.line(i) + "\n")
			}
			lineBytes := len(tc.line(0)) + 1
			dataFile := filepath.Join(dir, "data")
			if err := os.WriteFile(dataFile, data.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			wrote, goOn := filepath.Join(dir, "wrote"), filepath.Join(dir, "go")
			first := `{"type":"assistant","text":"SLOW"}`
			tail := `{"type":"tail","token":"` + ghToken + `"}`
			bin := fakeBin(t, dir, tc.cli, "echo '"+first+"'\ncat "+dataFile+"\ntouch "+wrote+
				"\nwhile [ ! -f "+goOn+" ]; do sleep 0.01; done\necho '"+tail+"'\n")
			s, out, _ := spec(t, mustCLI(t, tc.cli), bin)
			t.Cleanup(func() { os.WriteFile(goOn, nil, 0o600) }) //nolint:errcheck // a failed test leaves no agent behind
			slow := newSlowRedactor(t)
			s.redactDelay = slow.delay
			done := make(chan Result, 1)
			go func() {
				res, err := Run(context.Background(), s)
				if err != nil {
					t.Error(err)
				}
				done <- res
			}()
			waitFor(t, "the agent writing 9 MB past the stuck redactor", 30*time.Second, func() bool { return exists(wrote) })
			slow.free()
			os.WriteFile(goOn, nil, 0o600) //nolint:errcheck // the wait below fails
			var res Result
			select {
			case res = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the run did not end")
			}
			if n := strings.Count(out.String(), "\n"); n != 100_002 {
				t.Errorf("stdout has %d lines, want all 100002", n)
			}
			lines := readLines(t, res.File)
			if end := lines[len(lines)-1]; len(lines) < 3 || lines[0] != first ||
				!strings.HasPrefix(end, `{"type":"tail",`) || strings.Contains(end, ghToken) {
				t.Fatalf("first and last lines: %q … %q", lines[0], lines[len(lines)-1])
			}
			// The items are written in order, and one marker stands for
			// each run of skipped items, counting exactly its lines and
			// bytes. The first run starts once the redactor is maxBehind
			// behind; the reader may still be draining the pipe when the
			// redactor is released, so later items may be written again.
			next, skipped, markers, firstRun := 0, 0, 0, -1
			afterMarker := false
			for i, l := range lines[1 : len(lines)-1] {
				if next < n && l == tc.line(next) {
					next++
					afterMarker = false
					continue
				}
				var m int
				if _, err := fmt.Sscanf(strings.TrimPrefix(strings.TrimPrefix(l, "[..."), `{"type":"sift.redaction_skipped","lines":`), "%d", &m); err != nil ||
					m <= 0 || l != tc.marker(m, m*lineBytes) || afterMarker {
					t.Fatalf("line %d is %.100q, want item %d or a marker after an item", i+2, l, next)
				}
				afterMarker = true
				if firstRun < 0 {
					firstRun = next
				}
				next += m
				skipped += m
				markers++
			}
			if next != n || markers == 0 {
				t.Errorf("%d items accounted for, %d markers", next, markers)
			}
			if firstRun <= 0 || firstRun*(lineBytes+lineCost) > maxBehind {
				t.Errorf("%d lines queued behind the slow one: more than %d bytes", firstRun, maxBehind)
			}
			if res.SkippedLines != int64(skipped) || res.Skipped != int64(skipped*lineBytes) {
				t.Errorf("result skipped %d lines %d bytes, markers %d lines", res.SkippedLines, res.Skipped, skipped)
			}
		})
	}
}

// TestRunIgnoredSIGTERMIsFollowedByKill checks that an agent that ignores
// a forwarded SIGTERM cannot keep sift running: its group gets SIGKILL
// after KillDelay, as after a cancelled ctx.
func TestRunIgnoredSIGTERMIsFollowedByKill(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := fakeBin(t, dir, "claude", `trap '' TERM; echo '{"ready":1}'; while :; do sleep 0.05; done`)
	s, out, _ := spec(t, mustCLI(t, "claude"), bin)
	s.KillDelay = 200 * time.Millisecond
	sigs := make(chan os.Signal, 1)
	s.Signals = sigs
	go func() {
		for !strings.Contains(out.String(), "ready") {
			time.Sleep(5 * time.Millisecond)
		}
		sigs <- syscall.SIGTERM
	}()
	done := make(chan Result, 1)
	go func() {
		res, err := Run(context.Background(), s)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case res := <-done:
		if res.ExitCode != 128+int(syscall.SIGKILL) {
			t.Errorf("exit %d, want SIGKILL's", res.ExitCode)
		}
	case <-time.After(30 * time.Second):
		sigs <- os.Kill
		t.Fatal("an agent ignoring SIGTERM kept the run going")
	}
}
