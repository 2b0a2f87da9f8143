package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/layout"
)

// oldTree writes old stream-like files under root: two of the capture
// layout and the *.log/*.txt files a careless sweep took. It returns the
// layout files and the others.
func oldTree(t *testing.T, root string) (layout, others []string) {
	t.Helper()
	for _, rel := range []string{"wi-1/work-1-a1b2c3.jsonl", "wi-2/rework-2-d4e5f6.jsonl"} {
		layout = append(layout, filepath.Join(root, rel))
	}
	for _, rel := range []string{"build.log", "notes.txt", "wi-1/agent.log", "wi-1/out.txt", "wi-1/stream.jsonl",
		".git/work-1-a1b2c3.jsonl", "work-1-a1b2c3.jsonl"} {
		others = append(others, filepath.Join(root, rel))
	}
	old := time.Now().Add(-400 * 24 * time.Hour)
	for _, p := range append(append([]string{}, layout...), others...) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	return layout, others
}

func allExist(t *testing.T, paths []string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s is gone", p)
		}
	}
}

// isolate points the configuration and data folders into dir.
func isolate(t *testing.T, dir string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	t.Setenv("HOME", filepath.Join(dir, "home"))
}

// TestPlainSweepLeavesTheWorkingFolderAlone reproduces #2: the default
// logs folder was logs/agents under the working folder, so a plain sweep
// (and the inbox, and serve) in a project holding logs/agents deleted its
// old *.log and *.txt files.
func TestPlainSweepLeavesTheWorkingFolderAlone(t *testing.T) {
	dir := t.TempDir()
	isolate(t, dir)
	project := filepath.Join(dir, "project")
	layout, others := oldTree(t, filepath.Join(project, "logs", "agents"))
	t.Chdir(project)
	out, errOut, code := siftCmd(t, "sweep", "--db", filepath.Join(dir, "sift.db"))
	if code != 0 || !strings.HasPrefix(out, "swept 0 files") {
		t.Fatalf("sweep: %d %q %q", code, out, errOut)
	}
	allExist(t, layout)
	allExist(t, others)
	// The default is the data folder, absolute.
	out, _, _ = siftCmd(t, "sweep", "--db", filepath.Join(dir, "sift.db"), "--status")
	if !strings.Contains(out, " in "+filepath.Join(dir, "data", "sift", "logs")+";") {
		t.Errorf("sweep --status: %q", out)
	}
}

// TestSweepOfAnUnmarkedFolderWarnsOnce checks that a logs folder sift did
// not create is not swept, with one warning line saying how to mark it,
// and that once marked, only its capture-layout files go.
func TestSweepOfAnUnmarkedFolderWarnsOnce(t *testing.T) {
	dir := t.TempDir()
	isolate(t, dir)
	t.Chdir(dir)
	db := filepath.Join(dir, "sift.db")
	logs := filepath.Join(dir, "logs", "agents")
	layout, others := oldTree(t, logs)
	// A relative --logs is relative to the working folder.
	out, errOut, code := siftCmd(t, "sweep", "--db", db, "--logs", "logs/agents", "--retained-days", "1")
	want := "sift sweep: warning: logs folder " + logs + " not swept: sift did not create it (it has no .sift-logs marker); " +
		"run `sift init-logs " + logs + "` to let sift sweep it\n"
	if code != 0 || errOut != want || !strings.HasPrefix(out, "swept 0 files") {
		t.Fatalf("sweep of an unmarked folder: %d %q\n got %q\nwant %q", code, out, errOut, want)
	}
	allExist(t, layout)
	allExist(t, others)
	if out, errOut, _ := siftCmd(t, "sweep", "--db", db, "--logs", logs, "--status"); !strings.Contains(out, "logs: 2 files") ||
		!strings.Contains(errOut, "init-logs") {
		t.Fatalf("sweep --status: %q %q", out, errOut)
	}

	out, errOut, code = siftCmd(t, "init-logs", "logs/agents")
	if code != 0 || errOut != "" || out != "marked "+logs+" as a sift logs folder: the retention sweep may now delete "+
		"old <workItem>/<phase>-<iter>-<hex>.jsonl files in it, and nothing else\n" {
		t.Fatalf("init-logs: %d %q %q", code, out, errOut)
	}
	if out, _, code = siftCmd(t, "init-logs", logs); code != 0 || !strings.HasPrefix(out, logs+" is already marked") {
		t.Fatalf("init-logs again: %d %q", code, out)
	}
	out, errOut, code = siftCmd(t, "sweep", "--db", db, "--logs", logs, "--retained-days", "1")
	if code != 0 || errOut != "" || !strings.HasPrefix(out, "swept 2 files") {
		t.Fatalf("sweep of a marked folder: %d %q %q", code, out, errOut)
	}
	for _, p := range layout {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was not swept", p)
		}
	}
	allExist(t, others)
}

// TestInitLogsRefuses checks the roots `sift init-logs` will not mark.
func TestInitLogsRefuses(t *testing.T) {
	dir := t.TempDir()
	isolate(t, dir)
	home := filepath.Join(dir, "home")
	file := filepath.Join(dir, "file")
	link := filepath.Join(dir, "link")
	for _, p := range []string{home, filepath.Join(dir, "real")} {
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(file, nil, 0o600)
	os.Symlink(filepath.Join(dir, "real"), link)
	for arg, want := range map[string]string{
		"/":                          "it is the file system root",
		home:                         "it is or holds your home folder",
		dir:                          "it is or holds your home folder",
		file:                         "it is not a folder",
		link:                         "it is a symbolic link",
		filepath.Join(dir, "absent"): "does not exist",
	} {
		out, errOut, code := siftCmd(t, "init-logs", arg)
		if code == 0 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "sift init-logs: ") ||
			!strings.Contains(errOut, want) {
			t.Errorf("init-logs %s: %d %q %q, want one line saying %q", arg, code, out, errOut, want)
		}
		if ok, _ := layout.Marked(arg); ok && arg != "/" {
			t.Errorf("init-logs %s marked it", arg)
		}
	}
	if _, errOut, code := siftCmd(t, "init-logs"); code == 0 || !strings.Contains(errOut, "DIR") {
		t.Errorf("init-logs without a folder: %d %q", code, errOut)
	}
}

// TestSweepFlagsAreBounded checks that the flags cannot wrap what the
// configuration file cannot (#3).
func TestSweepFlagsAreBounded(t *testing.T) {
	dir := t.TempDir()
	isolate(t, dir)
	db := filepath.Join(dir, "sift.db")
	for _, args := range [][]string{
		{"--retained-days", "106752"}, {"--retained-days", "36501"}, {"--retained-days", "-1"},
		{"--retained-days", "1.5"}, {"--retained-days", "NaN"}, {"--retained-days", "9223372036854775808"},
		{"--max-total-size-mb", "17592186044416"}, {"--max-total-size-mb", "1073741825"}, {"--max-total-size-mb", "-5"},
		{"--max-total-size-mb", "Inf"},
	} {
		out, errOut, code := siftCmd(t, append([]string{"sweep", "--db", db}, args...)...)
		if code == 0 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, strings.TrimPrefix(args[0], "-")) {
			t.Errorf("sweep %v: %d %q %q", args, code, out, errOut)
		}
	}
	for _, args := range [][]string{{"--retained-days", "36500"}, {"--retained-days", "0"}, {"--max-total-size-mb", "1073741824"}} {
		if out, errOut, code := siftCmd(t, append([]string{"sweep", "--db", db}, args...)...); code != 0 {
			t.Errorf("sweep %v: %d %q %q", args, code, out, errOut)
		}
	}
}

// TestServeMarksTheLogsFolderItCreates starts `sift serve` on a logs
// folder that does not exist yet: it creates the folder and marks it.
func TestServeMarksTheLogsFolderItCreates(t *testing.T) {
	dir := t.TempDir()
	isolate(t, dir)
	logs := filepath.Join(dir, "new", "logs")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- serve(ctx, []string{"--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "sift.db"), "--logs", logs}, &stdout, &stderr)
	}()
	addrRE := regexp.MustCompile(`listening on http://`)
	waitFor(t, "the listening line", 10*time.Second, func() bool { return addrRE.MatchString(stdout.String()) })
	if ok, _ := layout.Marked(logs); !ok {
		t.Error("the logs folder serve created is not marked")
	}
	waitFor(t, "the start-up sweep", 5*time.Second, func() bool { return strings.Contains(stderr.String(), "Retention sweep") })
	if strings.Contains(stderr.String(), "not swept") {
		t.Errorf("serve warned about its own folder: %s", stderr.String())
	}
	cancel()
	if code := <-exit; code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
}
