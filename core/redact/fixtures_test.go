package redact

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// idPattern finds the identifiers that link events; redaction must keep
// every one of them.
var idPattern = regexp.MustCompile(`\b(?:toolu_[A-Za-z0-9]+|call_[A-Za-z0-9_-]+|msg_[A-Za-z0-9]+|item_[0-9]+|req_[A-Za-z0-9]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{64}|[0-9a-f]{40})\b`)

// fixtureChanges lists every fixture line redaction changes, as
// "dir/file:line", with the reason. A line changing that is not listed (a
// false positive) or a listed line no longer changing fails the test.
var fixtureChanges = map[string]string{
	"codex/takopi-banteg-commands-reasoning.jsonl:8":  "a README's sample telegram config, bot_token = \"123:abc\"",
	"codex/takopi-banteg-commands-reasoning.jsonl:10": "the same sample bot_token in the agent's answer",
}

// fixtureLine is one line of a recorded stream.
type fixtureLine struct {
	name string // dir/file:line
	text []byte
	json bool // the file is a JSON stream
}

func fixtureLines(t testing.TB) []fixtureLine {
	t.Helper()
	files, err := filepath.Glob("../../testdata/streams/*/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var out []fixtureLine
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 64<<20)
		for n := 1; sc.Scan(); n++ {
			out = append(out, fixtureLine{
				name: rel + ":" + itoa(n),
				text: slices.Clone(sc.Bytes()),
				json: strings.HasSuffix(f, ".jsonl"),
			})
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
	}
	return out
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestFixturesKeepIDsAndJSON(t *testing.T) {
	changed := map[string]bool{}
	for _, l := range fixtureLines(t) {
		var got []byte
		if l.json {
			got = JSONLine(l.text)
		} else {
			got = Bytes(l.text)
		}
		if bytes.Equal(got, l.text) {
			continue
		}
		changed[l.name] = true
		t.Logf("%s changed:\n%s", l.name, diffContext(l.text, got))
		if l.json && json.Valid(stripCtl(l.text)) && !json.Valid(stripCtl(got)) {
			t.Errorf("%s: valid JSON became invalid:\n%s", l.name, got)
		}
		before := idPattern.FindAllString(string(l.text), -1)
		after := idPattern.FindAllString(string(got), -1)
		if !slices.Equal(before, after) {
			t.Errorf("%s: ids changed:\nbefore %v\nafter  %v", l.name, before, after)
		}
	}
	for name := range changed {
		if _, ok := fixtureChanges[name]; !ok {
			t.Errorf("%s: changed but not listed in fixtureChanges (a false positive?)", name)
		}
	}
	for name := range fixtureChanges {
		if !changed[name] {
			t.Errorf("%s: listed in fixtureChanges but unchanged", name)
		}
	}
}

// stripCtl drops the sandbox's control-byte prefix before a JSON check.
func stripCtl(b []byte) []byte {
	return bytes.TrimLeftFunc(b, func(r rune) bool { return r < ' ' })
}

// diffContext shows each redaction marker with some text around it.
func diffContext(before, after []byte) string {
	var sb strings.Builder
	s := string(after)
	for {
		i := strings.Index(s, Prefix)
		if i < 0 {
			break
		}
		lo := max(i-60, 0)
		hi := min(i+60, len(s))
		sb.WriteString("  …" + s[lo:hi] + "…\n")
		s = s[i+len(Prefix):]
	}
	if sb.Len() == 0 {
		return "  (re-encoded without a marker)\n"
	}
	return sb.String()
}
