package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/layout"
)

func TestArgv(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, agent string
		mode        Mode
		user        []string
		want        string
	}{
		{"claude", "claude", Structured, []string{"-p", "x"}, "--print --output-format stream-json --verbose -p x"},
		{"claude flag already given", "claude", Structured, []string{"--verbose", "x"}, "--print --output-format stream-json --verbose x"},
		{"claude format already given", "claude", Structured, []string{"--output-format=stream-json", "x"}, "--print --verbose --output-format=stream-json x"},
		{"flag after -- is the prompt", "claude", Structured, []string{"--", "--verbose"}, "--print --output-format stream-json --verbose -- --verbose"},
		{"codex", "codex", Structured, []string{"fix"}, "exec --json fix"},
		{"codex exec given", "codex", Structured, []string{"exec", "fix"}, "exec --json fix"},
		{"codex disabled keeps exec", "codex", Plaintext, []string{"fix"}, "exec fix"},
		{"cursor by binary name", "cursor-agent", Structured, []string{"x"}, "--print --output-format stream-json --stream-partial-output x"},
		{"opencode", "opencode", Structured, []string{"x"}, "run --format json x"},
		{"gemini", "gemini", Structured, []string{"-p", "x"}, "--output-format stream-json -p x"},
		{"gemini plaintext", "gemini", Plaintext, []string{"-p", "x"}, "-p x"},
		{"agy", "agy", Structured, []string{"x"}, "--print --output-format stream-json x"},
		{"copilot", "copilot", Plaintext, []string{"-p", "x"}, "-p x"},
		{"qwen", "qwen", Structured, []string{"-p", "x"}, "--output-format stream-json -p x"},
		{"kimi", "kimi", Structured, []string{"-c", "x"}, "--print --output-format stream-json -c x"},
		{"droid", "droid", Structured, []string{"x"}, "exec --output-format stream-json x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustCLI(t, tc.agent)
			if got := strings.Join(c.Argv(tc.mode, tc.user), " "); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	if _, err := LookupCLI("aider"); err == nil || !strings.Contains(err.Error(), `unknown agent "aider" (known: antigravity, claude,`) {
		t.Errorf("unknown agent: %v", err)
	}
}

func TestSinkCapAndMarker(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	s := NewSink(&buf, 10, nil)
	s.WriteLine([]byte("abcd")) // 5
	s.WriteLine([]byte("efgh")) // 10: exactly the cap
	s.WriteLine([]byte("i"))    // dropped: 2
	s.WriteLine([]byte(""))     // later lines are dropped even when small: 1
	s.Drop(100)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "abcd\nefgh\n[...truncated by 103 bytes]\n" {
		t.Errorf("got %q", got)
	}
	var none bytes.Buffer
	s = NewSink(&none, 10, nil)
	s.WriteLine([]byte("ok"))
	s.Close()
	if none.String() != "ok\n" {
		t.Errorf("marker without truncation: %q", none.String())
	}
}

func TestSinkWriteErrorWarnsOnce(t *testing.T) {
	t.Parallel()
	var warnings []error
	f := &failAfter{n: 0}
	s := NewSink(f, 0, func(err error) { warnings = append(warnings, err) })
	for range 10 {
		s.WriteLine([]byte("line"))
		s.Flush()
	}
	err := s.Close()
	if len(warnings) != 1 || !errors.Is(err, syscall.ENOSPC) || !f.closed {
		t.Errorf("warnings %v err %v closed %v", warnings, err, f.closed)
	}
}

// collect returns a splitter that records its lines.
func collect(max int) (*lineSplitter, *[]string) {
	var got []string
	l := &lineSplitter{max: max, line: func(b []byte, cut int64, _ bool) {
		s := string(b)
		if cut > 0 {
			s += "|cut " + itoa(cut)
		}
		got = append(got, s)
	}}
	return l, &got
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestSplitterLines(t *testing.T) {
	t.Parallel()
	l, got := collect(8)
	var pass bytes.Buffer
	l.pass = &pass
	for _, chunk := range []string{"a\nbb", "b\n", "\n", "0123456789abc\nlast"} {
		l.Write([]byte(chunk))
	}
	l.Close()
	want := []string{"a", "bbb", "", "01234567|cut 5", "last"}
	if strings.Join(*got, ",") != strings.Join(want, ",") {
		t.Errorf("got %q want %q", *got, want)
	}
	if pass.String() != "a\nbbb\n\n0123456789abc\nlast" {
		t.Errorf("pass-through %q", pass.String())
	}
}

func TestStderrBoundedBuffer(t *testing.T) {
	t.Parallel()
	var file bytes.Buffer
	r := &recorder{sink: NewSink(&file, 0, nil)}
	line := r.stderrLine(Structured)
	sp := &lineSplitter{max: MaxStderrLine, line: func(b []byte, cut int64, _ bool) { line(b, cut) }}
	// 1 MiB without a newline, in pipe-sized chunks, then a short line.
	chunk := bytes.Repeat([]byte("é"), 16<<10) // 32 KiB of two-byte runes
	for range 32 {
		sp.Write(chunk)
		if cap(sp.buf) > MaxStderrLine {
			t.Fatalf("line buffer grew to %d bytes", cap(sp.buf))
		}
	}
	sp.Write([]byte("\nnext line\n"))
	sp.Close()
	r.sink.Close()
	lines := strings.Split(strings.TrimSuffix(file.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines", len(lines))
	}
	var env struct{ Type, Text string }
	if err := json.Unmarshal([]byte(lines[0]), &env); err != nil {
		t.Fatal(err)
	}
	if env.Type != event.StderrEnvelope || !strings.HasSuffix(env.Text, "é"+StderrCutMarker) ||
		len(env.Text) != MaxStderrLine+len(StderrCutMarker) {
		t.Errorf("cut line: type %q, %d bytes, ends %q", env.Type, len(env.Text), env.Text[len(env.Text)-40:])
	}
	if lines[1] != `{"type":"sift.stderr","text":"next line"}` {
		t.Errorf("next line %s", lines[1])
	}
}

func TestEnvelopeIsValidJSON(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"plain", `quo"te \ back`, "tab\tctl\x01", "bad utf8 \xff\xfe", "<html>&"} {
		b := Envelope([]byte(in))
		var env map[string]string
		if err := json.Unmarshal(b, &env); err != nil || env["type"] != event.StderrEnvelope || len(env) != 2 {
			t.Errorf("%q -> %s (%v)", in, b, err)
		}
		if !bytes.HasPrefix(b, []byte(`{"type":"sift.stderr","text":`)) {
			t.Errorf("prefix: %s", b)
		}
	}
}

func TestNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		phase  string
		in, it int
	}{{"work", 3, 1}, {"merge", 2, 1}, {"rework", 2, 2}, {"audit-llm-security", 0, 1}, {"audit-llm-security", 4, 4}} {
		if got := Iteration(tc.phase, tc.in); got != tc.it {
			t.Errorf("Iteration(%s, %d) = %d", tc.phase, tc.in, got)
		}
	}
	for _, bad := range []string{"", ".", "..", "a/b", `a\b`} {
		if layout.CheckName("phase", bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	root := t.TempDir()
	seen := map[string]bool{}
	for range 20 {
		f, err := CreateFile(root, "wi", "audit-llm-security:llm-review", 3)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		m := fileName.FindStringSubmatch(filepath.Base(f.Name()))
		if m == nil || m[1] != "audit-llm-security:llm-review" || m[2] != "3" || seen[f.Name()] {
			t.Errorf("name %s", f.Name())
		}
		seen[f.Name()] = true
	}
}

func TestProbeGemini(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, help string
		want       Mode
	}{
		{"both advertised", `echo "  -o, --output-format  The format of the CLI output. [choices: \"text\", \"json\", \"stream-json\"]"`, Structured},
		{"no stream-json", `echo "  -o, --output-format  [choices: \"text\", \"json\"]"`, Plaintext},
		{"old --json only", `echo "  --json  output JSON"`, Plaintext},
		{"help fails silently", `exit 1`, Plaintext},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			bin := fakeBin(t, dir, "gemini", `[ "$1" = "--help" ] || exit 9
`+tc.help+"\n")
			if got := (Prober{}).Mode(context.Background(), mustCLI(t, "gemini"), bin); got != tc.want {
				t.Errorf("mode %v, want %v", got, tc.want)
			}
		})
	}
}

func TestProbeAntigravity(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, version, help, run string
		want                     Mode
		cached                   bool
	}{
		{"works", `echo "agy 1.1.8"`, `echo "--output-format <fmt>"`, `echo '{"type":"init"}'; echo '{"type":"result"}'`, Structured, true},
		{"help lacks the flag", `echo "agy 1.0.0"`, `echo "usage: agy [--print]"`, `echo '{"type":"init"}'`, Plaintext, true},
		{"run prints usage", `echo "agy 1.1.7"`, `echo "--output-format"`, `echo "Usage: agy ..."`, Plaintext, true},
		{"run fails", `echo "agy 1.1.9"`, `echo "--output-format"`, `echo '{"type":"init"}'; exit 2`, Plaintext, true},
		{"run prints nothing", `echo "agy 1.2.0"`, `echo "--output-format"`, `exit 0`, Plaintext, true},
		{"no version", `exit 1`, `echo "--output-format"`, `echo '{"type":"init"}'`, Plaintext, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			calls := filepath.Join(dir, "calls")
			bin := fakeBin(t, dir, "agy", `echo "$*" >> `+calls+`
case "$1" in
--version) `+tc.version+`;;
--help) `+tc.help+`;;
--print) [ "$2 $3" = "--output-format stream-json" ] || exit 9; `+tc.run+`;;
*) exit 9;;
esac
`)
			p := Prober{CacheDir: filepath.Join(dir, "cache")}
			cli := mustCLI(t, "agy")
			for round := range 2 {
				if got := p.Mode(context.Background(), cli, bin); got != tc.want {
					t.Errorf("round %d: mode %v, want %v", round, got, tc.want)
				}
			}
			data, _ := os.ReadFile(calls)
			log := strings.Split(strings.TrimSpace(string(data)), "\n")
			versions := strings.Count(string(data), "--version")
			probes := len(log) - versions
			if versions != 2 {
				t.Errorf("--version asked %d times, want once per run", versions)
			}
			if tc.cached && probes > 2 {
				t.Errorf("probed again despite the cache: %q", log)
			}
			if !tc.cached && probes != 0 {
				t.Errorf("probed without a version: %q", log)
			}
		})
	}
}

func TestProbeAntigravityCachePerVersion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	version := filepath.Join(dir, "version")
	os.WriteFile(version, []byte("1.1.8"), 0o644)
	bin := fakeBin(t, dir, "agy", `case "$1" in
--version) cat `+version+`;;
--help) echo "--output-format";;
--print) if [ "$(cat `+version+`)" = "1.1.8" ]; then echo '{"type":"result"}'; else echo oops; fi;;
esac
`)
	p := Prober{CacheDir: filepath.Join(dir, "cache")}
	cli := mustCLI(t, "agy")
	if p.Mode(context.Background(), cli, bin) != Structured {
		t.Fatal("1.1.8 should stream")
	}
	os.WriteFile(version, []byte("1.1.9-broken"), 0o644)
	if p.Mode(context.Background(), cli, bin) != Plaintext {
		t.Error("a new version must be probed again")
	}
	data, _ := os.ReadFile(filepath.Join(dir, "cache", "agy-probe.json"))
	var m map[string]bool
	if json.Unmarshal(data, &m) != nil || !m["1.1.8"] || m["1.1.9-broken"] || len(m) != 2 {
		t.Errorf("cache %s", data)
	}
}

func TestKeyBlockAcrossLines(t *testing.T) {
	t.Parallel()
	var k keyBlock
	in := []string{"before", "key: -----BEGIN RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn", "-----END RSA PRIVATE KEY----- password=hunter2", "after"}
	var out []string
	for _, l := range in {
		out = append(out, string(k.line([]byte(l))))
	}
	want := "before|key: [REDACTED:private-key]|[REDACTED:private-key]|[REDACTED:private-key] password=[REDACTED:password]|after"
	if strings.Join(out, "|") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(out, "|"), want)
	}
}

// failWriter fails every write, like a closed pipe.
type failWriter struct{ calls int }

func (f *failWriter) Write([]byte) (int, error) { f.calls++; return 0, syscall.EPIPE }

func TestSplitterSurvivesClosedPassThrough(t *testing.T) {
	t.Parallel()
	l, got := collect(64)
	fw := &failWriter{}
	l.pass = fw
	l.Write([]byte("a\n"))
	l.Write([]byte("b\n"))
	l.Close()
	if strings.Join(*got, ",") != "a,b" || fw.calls != 1 {
		t.Errorf("lines %q, pass-through tried %d times", *got, fw.calls)
	}
}

// TestKeyBlockPGPAcrossLines pins that a PGP private key block printed on
// plain lines is redacted on every line up to its END, like a PEM block.
func TestKeyBlockPGPAcrossLines(t *testing.T) {
	var k keyBlock
	in := []string{"-----BEGIN PGP PRIVATE KEY BLOCK-----", "", "lQOYBGXkEXAMPLEbodyline0123456789abcdef", "=AbCd",
		"-----END PGP PRIVATE KEY BLOCK----- after", "next"}
	var out []string
	for _, l := range in {
		out = append(out, string(k.line([]byte(l))))
	}
	got := strings.Join(out, "|")
	if strings.Contains(got, "lQOYBG") || strings.Contains(got, "AbCd") {
		t.Errorf("body of a PGP key block kept: %s", got)
	}
	if !strings.HasSuffix(got, " after|next") {
		t.Errorf("the lines after the block are not kept: %s", got)
	}
}
