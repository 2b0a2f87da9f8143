package corpus

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// StreamSpec says what GenerateStreams writes: the search corpus, real
// stream files of every harness copied into sift's capture layout as many
// sessions, each copy with fresh ids, moved timestamps and varied words,
// so that a search has realistic selectivity.
type StreamSpec struct {
	// Templates are real stream files (JSON lines) to copy; each is cut
	// at a line to at most MaxTemplateBytes (0: whole).
	Templates        []string
	MaxTemplateBytes int
	// Root receives <Root>/<work item>/<phase>-<iteration>-<hex6>.jsonl.
	Root string
	// Sessions is how many files to write, PerWorkItem to a work item.
	Sessions, PerWorkItem int
	// Days spreads the sessions over this many days before Now.
	Days int
	Now  time.Time
	// Vocabulary is how many words replace the templates' own; each word
	// of a free-text value is replaced with probability Replace, by a
	// word drawn Zipf-like (a few common, most rare).
	Vocabulary int
	Replace    float64
	// Seed makes the corpus reproducible.
	Seed uint64
}

var (
	// streamIDRe matches the ids a copy renews: UUIDs and the harnesses'
	// message, tool-call and item ids.
	streamIDRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:msg|toolu|call|req|item|fc)_[A-Za-z0-9]{6,}`)
	// isoTimeRe and msTimeRe match the timestamps a copy moves: ISO, and
	// unix milliseconds of 2017 to 2033 as a field's value.
	isoTimeRe = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z`)
	msTimeRe  = regexp.MustCompile(`":\s*(1[5-9]\d{11})\b`)
	// textKeyRe matches the start of a free-text string value: what a
	// model said, a command, a path, a pattern, an output, a message.
	textKeyRe = regexp.MustCompile(`"(?:text|command|cmd|content|file_path|filePath|path|pattern|description|prompt|result|message|query|output|aggregated_output|stdout|stderr|title|thinking)":\s*"`)
)

// streamPhases are the phases of the corpus's sessions.
var streamPhases = []string{"work", "rework", "merge", "audit-llm-security", "work", "work"}

// GenerateStreams writes the corpus and returns its size.
func GenerateStreams(s StreamSpec) (Result, error) {
	var res Result
	var tmpl [][]byte
	for _, p := range s.Templates {
		b, err := readTemplate(p)
		if err != nil {
			return res, err
		}
		if s.MaxTemplateBytes > 0 && len(b) > s.MaxTemplateBytes {
			b = b[:bytes.LastIndexByte(b[:s.MaxTemplateBytes], '\n')+1]
		}
		if len(b) > 0 {
			tmpl = append(tmpl, b)
		}
	}
	if len(tmpl) == 0 {
		return res, fmt.Errorf("corpus: no templates")
	}
	rng := s.rng()
	vocab := vocabulary(rng, max(s.Vocabulary, 1))
	zipf := rand.NewZipf(rng, 1.07, 2, uint64(len(vocab)-1))
	per := max(s.PerWorkItem, 1)
	days := max(s.Days, 1)
	var buf []byte
	for i := range s.Sessions {
		t := tmpl[rng.IntN(len(tmpl))]
		at := s.Now.Add(-time.Duration(rng.Int64N(int64(days) * int64(24*time.Hour))))
		buf = varyStream(buf[:0], t, rng, at, func() string {
			if rng.Float64() >= s.Replace {
				return ""
			}
			return vocab[zipf.Uint64()]
		})
		wi := fmt.Sprintf("%s-%d", []string{"ENG", "OPS", "WEB"}[(i/per)%3], 100+i/per)
		name := fmt.Sprintf("%s-%d-%06x.jsonl", streamPhases[rng.IntN(len(streamPhases))], 1+rng.IntN(3), rng.IntN(1<<24))
		dir := filepath.Join(s.Root, wi)
		if i%per == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return res, err
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf, 0o644); err != nil {
			return res, err
		}
		res.Files++
		res.Bytes += int64(len(buf))
	}
	return res, nil
}

func (s StreamSpec) rng() *rand.Rand { return rand.New(rand.NewPCG(s.Seed, s.Seed^0x5eed)) }

// Words returns the words GenerateStreams puts in the corpus, most
// frequent first: for picking search terms of known selectivity.
func (s StreamSpec) Words() []string { return vocabulary(s.rng(), max(s.Vocabulary, 1)) }

// vocabulary makes n distinct pronounceable words of two to four
// syllables.
func vocabulary(rng *rand.Rand, n int) []string {
	const cons, vows = "bcdfghjklmnprstvz", "aeiou"
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for len(out) < n {
		var b []byte
		for range 2 + rng.IntN(3) {
			b = append(b, cons[rng.IntN(len(cons))], vows[rng.IntN(len(vows))])
		}
		if w := string(b); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// varyStream appends a copy of a template: fresh ids, ISO timestamps
// moved so that the first is at, and in free-text values each word of
// four letters or more replaced by what word returns ("" keeps it).
func varyStream(dst, t []byte, rng *rand.Rand, at time.Time, word func() string) []byte {
	fresh := map[string][]byte{}
	t = streamIDRe.ReplaceAllFunc(t, func(id []byte) []byte {
		if out, ok := fresh[string(id)]; ok {
			return out
		}
		out := bytes.Clone(id)
		for j := len(out) - 1; j >= len(out)-6; j-- {
			if out[j] != '-' && out[j] != '_' {
				out[j] = hexDigits[rng.IntN(16)]
			}
		}
		fresh[string(id)] = out
		return out
	})
	// The first timestamp of either form moves to at, the rest with it.
	var first time.Time
	iso, ms := isoTimeRe.FindIndex(t), msTimeRe.FindSubmatchIndex(t)
	if iso != nil && (ms == nil || iso[0] < ms[0]) {
		first, _ = time.Parse(time.RFC3339Nano, string(t[iso[0]:iso[1]]))
	} else if ms != nil {
		first = time.UnixMilli(atoi(t[ms[2]:ms[3]]))
	}
	shift := at.Sub(first)
	if first.IsZero() {
		shift = 0
	}
	t = isoTimeRe.ReplaceAllFunc(t, func(ts []byte) []byte {
		v, err := time.Parse(time.RFC3339Nano, string(ts))
		if err != nil {
			return ts
		}
		return v.Add(shift).UTC().AppendFormat(nil, "2006-01-02T15:04:05.000Z")
	})
	t = msTimeRe.ReplaceAllFunc(t, func(m []byte) []byte {
		i := bytes.LastIndexAny(m, ": \t") + 1
		v := time.UnixMilli(atoi(m[i:])).Add(shift)
		return fmt.Appendf(bytes.Clone(m[:i]), "%d", v.UnixMilli())
	})
	pos := 0
	for _, m := range textKeyRe.FindAllIndex(t, -1) {
		if m[0] < pos {
			continue
		}
		dst = append(dst, t[pos:m[1]]...)
		pos = varyString(&dst, t, m[1], word)
	}
	return append(dst, t[pos:]...)
}

// varyString copies the JSON string value starting at t[i] (after its
// opening quote) to dst with its words varied, and returns the offset of
// its closing quote. Escapes are copied as they are.
func varyString(dst *[]byte, t []byte, i int, word func() string) int {
	for i < len(t) && t[i] != '"' {
		switch c := t[i]; {
		case c == '\\' && i+1 < len(t):
			n := 2
			if t[i+1] == 'u' {
				n = 6
			}
			n = min(n, len(t)-i)
			*dst = append(*dst, t[i:i+n]...)
			i += n
		case 'a' <= c|0x20 && c|0x20 <= 'z':
			j := i
			for j < len(t) && 'a' <= t[j]|0x20 && t[j]|0x20 <= 'z' {
				j++
			}
			w := ""
			if j-i >= 4 {
				w = word()
			}
			if w == "" {
				w = string(t[i:j])
			}
			*dst = append(*dst, w...)
			i = j
		default:
			*dst = append(*dst, c)
			i++
		}
	}
	return i
}

// atoi reads the decimal digits of b.
func atoi(b []byte) int64 {
	var n int64
	for _, c := range b {
		n = n*10 + int64(c-'0')
	}
	return n
}
