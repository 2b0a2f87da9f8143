package tui

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestEditorAndPagerThroughTheRealProgram runs `e` and `o` through a real
// Bubble Tea program and the real exec path (tea.ExecProcess), with
// $EDITOR and $PAGER set to a script that records its argv: the stream's
// hostile path `-c`, an existing file of the run's folder, reaches the
// editor only as the absolute path after `--`, and the pager's file is
// gone once the pager has exited.
func TestEditorAndPagerThroughTheRealProgram(t *testing.T) {
	dir := t.TempDir()
	cwd := filepath.Join(dir, "project")
	if err := os.Mkdir(cwd, 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(cwd, "-c")
	if err := os.WriteFile(target, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rec, shown := filepath.Join(dir, "argv"), filepath.Join(dir, "shown")
	script := filepath.Join(dir, "fake-program")
	body := "#!/bin/sh\n" +
		"for a in \"$@\"; do printf '%s\\0' \"$a\"; done >> '" + rec + "'\n" +
		"printf '\\n' >> '" + rec + "'\n" +
		"if [ \"$1\" = --pager ]; then cat -- \"$3\" > '" + shown + "'; fi\n"
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("EDITOR", script+" --editor")
	t.Setenv("PAGER", script+" --pager")

	m := openReadCall(t, readSession(t, "-c", cwd))
	editKey, pagerKey := keyMsg(t, m.c.Keys.Editor), keyMsg(t, m.c.Keys.Pager)
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(100, 30),
		tea.WithoutSignals(), tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() {
		_, err := p.Run()
		done <- err
	}()
	defer func() {
		p.Quit()
		if err := <-done; err != nil {
			t.Errorf("program: %v", err)
		}
	}()

	p.Send(editKey)
	runs := waitRuns(t, rec, 1)
	if want := []string{"--editor", "--", target}; !slices.Equal(runs[0], want) {
		t.Fatalf("editor argv %q, want %q", runs[0], want)
	}
	p.Send(pagerKey)
	runs = waitRuns(t, rec, 2)
	pr := runs[1]
	if len(pr) != 3 || pr[0] != "--pager" || pr[1] != "--" || !strings.HasPrefix(filepath.Base(pr[2]), "sift-call-") {
		t.Fatalf("pager argv %q", pr)
	}
	// The program records its argv before it reads the file: wait for
	// what it was shown.
	waitUntil(t, "the pager is shown the call's raw lines", func() bool {
		data, err := os.ReadFile(shown)
		return err == nil && strings.Contains(string(data), readCallID)
	})
	waitUntil(t, "the pager's file is removed", func() bool {
		_, err := os.Stat(pr[2])
		return os.IsNotExist(err)
	})
}

// waitRuns waits until the fake program has recorded n runs and returns
// each run's argv.
func waitRuns(t *testing.T, rec string, n int) [][]string {
	t.Helper()
	var runs [][]string
	waitUntil(t, "the program runs", func() bool {
		data, _ := os.ReadFile(rec)
		runs = runs[:0]
		for _, line := range bytes.SplitAfter(data, []byte("\n")) {
			if len(line) == 0 || line[len(line)-1] != '\n' {
				continue
			}
			words := strings.Split(strings.TrimSuffix(string(line[:len(line)-1]), "\x00"), "\x00")
			runs = append(runs, words)
		}
		return len(runs) >= n
	})
	return runs
}

// waitUntil polls cond until it holds; it gives up after 20 s, a bound on
// a hung program, not a measure of speed.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: timed out", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
