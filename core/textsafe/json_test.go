package textsafe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkJSON holds the contract of AppendJSON for an encoded value: the
// result is valid JSON, decodes to what the input decodes to, and carries
// no character a terminal would act on.
func checkJSON(t *testing.T, src []byte) {
	t.Helper()
	got := AppendJSON(nil, src)
	if !json.Valid(got) {
		t.Fatalf("AppendJSON(%q) = %q is not valid JSON", src, got)
	}
	var a, b any
	if err := json.Unmarshal(src, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &b); err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Fatalf("AppendJSON(%q) = %q decodes to another value", src, got)
	}
	for i := 0; i < len(got); {
		r, n := utf8.DecodeRune(got[i:])
		if (r == utf8.RuneError && n <= 1) || (Unsafe(r) && r != '\n' && r != '\t' && r != '\r') {
			t.Fatalf("AppendJSON(%q) = %q keeps %U", src, got, r)
		}
		i += n
	}
}

func TestAppendJSON(t *testing.T) {
	t.Parallel()
	for _, h := range hostile {
		b, err := json.Marshal(map[string]any{"k" + h: []string{h, "ok"}})
		if err != nil {
			t.Fatal(err)
		}
		checkJSON(t, b)
	}
	// encoding/json leaves DEL, C1 and bidi controls raw; the escapes are
	// the ones a JSON reader expects.
	b, _ := json.Marshal("a\x7fb\u009bc\u202ed")
	if got, want := string(AppendJSON(nil, b)), `"a\u007fb\u009bc\u202ed"`; got != want {
		t.Errorf("AppendJSON = %s, want %s", got, want)
	}
	// A raw message may carry bytes that are not UTF-8.
	raw := []byte("{\"m\":\"\x9b31m\"}")
	if got, want := string(AppendJSON(nil, raw)), `{"m":"\ufffd31m"}`; got != want {
		t.Errorf("AppendJSON(raw) = %s, want %s", got, want)
	}
	if got := AppendJSON([]byte("x"), []byte(`"plain"`)); string(got) != `x"plain"` {
		t.Errorf("AppendJSON appends to %q", got)
	}
}

func TestEncoder(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]string{"html": "<a>&", "evil": "\x1b]52;c;x\x07\u009b"}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, `"<a>&"`) || !strings.Contains(out, `\u001b]52;c;x\u0007\u009b`) || !strings.HasSuffix(out, "}\n") {
		t.Fatalf("Encode wrote %q", out)
	}
	b, err := Marshal([]string{"\u2066"})
	if err != nil || string(b) != `["\u2066"]` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
}

func FuzzAppendJSON(f *testing.F) {
	for _, h := range hostile {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := json.Marshal(map[string]string{s: s})
		if err != nil {
			t.Skip()
		}
		checkJSON(t, b)
	})
}

func BenchmarkAppendJSON(b *testing.B) {
	line, _ := json.Marshal(map[string]string{"text": strings.Repeat("plain ascii text of a stream line ", 30)})
	uni, _ := json.Marshal(map[string]string{"text": strings.Repeat("texte accentué … 日本語 ", 40)})
	for _, c := range []struct {
		name string
		src  []byte
	}{{"ascii", line}, {"unicode", uni}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.src)))
			var dst []byte
			for b.Loop() {
				dst = AppendJSON(dst[:0], c.src)
			}
		})
	}
}

// Half a surrogate pair, escaped, is valid to encoding/json but refused
// by strict readers: AppendJSON writes \ufffd for it and keeps whole
// pairs and every other escape (Hardening II, item 11).
func TestAppendJSONLoneSurrogates(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"a":"x\ud83d"}`:             `{"a":"x\ufffd"}`,
		`{"a":"\ude00y"}`:             `{"a":"\ufffdy"}`,
		`{"a":"\ud83d\ude00"}`:        `{"a":"\ud83d\ude00"}`,
		`{"a":"\ud83d\u0041"}`:        `{"a":"\ufffd\u0041"}`,
		`{"a":"\\ud83d"}`:             `{"a":"\\ud83d"}`,
		`{"a":"\\\ud83d","b":"\n\""}`: `{"a":"\\\ufffd","b":"\n\""}`,
		`["\uD83D\uDE00","\uDBFF"]`:   `["\uD83D\uDE00","\ufffd"]`,
	} {
		got := string(AppendJSON(nil, []byte(in)))
		if got != want {
			t.Errorf("AppendJSON(%s) = %s, want %s", in, got, want)
		}
		if !utf8.ValidString(got) || strings.Contains(strings.ToLower(got), `"x\ud83d"`) {
			t.Errorf("AppendJSON(%s) = %s", in, got)
		}
	}
}
