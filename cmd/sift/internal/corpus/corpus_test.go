package corpus

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

func TestGenerateGivesFreshIDs(t *testing.T) {
	t.Parallel()
	tmpl, _ := filepath.Glob("../../../../testdata/history/claude/*.jsonl")
	if len(tmpl) == 0 {
		t.Fatal("no templates")
	}
	root := t.TempDir()
	res, err := Generate(Spec{Templates: tmpl, Root: root, Projects: 2, Sessions: 3, Copies: 4, Days: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 6 {
		t.Fatalf("files = %d", res.Files)
	}
	files, _ := filepath.Glob(filepath.Join(root, "projects", "*", "*.jsonl"))
	keyRe := regexp.MustCompile(`"id":"(msg_[A-Za-z0-9]+)".*"requestId":"(req_[A-Za-z0-9]+)"`)
	// Count the messages of each template: every copy must bring as many
	// new ones.
	perTemplate := make([]int, len(tmpl))
	for i, p := range tmpl {
		b, _ := os.ReadFile(p)
		keys := map[string]bool{}
		for _, m := range keyRe.FindAllSubmatch(b, -1) {
			keys[string(m[1])+":"+string(m[2])] = true
		}
		perTemplate[i] = len(keys)
	}
	want := 0
	for p := range 2 {
		for range 3 {
			for c := range 4 {
				want += perTemplate[(p+c)%len(tmpl)]
			}
		}
	}
	seen := map[string]string{}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		session := filepath.Base(f[:len(f)-len(".jsonl")])
		if !bytes.Contains(b, []byte(`"sessionId":"`+session+`"`)) {
			t.Errorf("%s does not carry its session id", f)
		}
		for i, l := range bytes.Split(b, []byte("\n")) {
			m := keyRe.FindSubmatch(l)
			if m == nil {
				continue
			}
			// A key never repeats across files.
			key := string(m[1]) + ":" + string(m[2])
			if prev, ok := seen[key]; ok && prev != f {
				t.Fatalf("key %s in %s and %s (line %d)", key, prev, f, i+1)
			}
			seen[key] = f
		}
	}
	if len(seen) != want {
		t.Fatalf("%d distinct messages, want %d (one set per copy)", len(seen), want)
	}
}
