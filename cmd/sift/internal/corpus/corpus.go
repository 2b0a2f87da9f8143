// Package corpus generates large, real-shaped corpora of agent transcripts
// for sift's comparison tests and benchmarks: real files repeated with fresh
// message, request and session ids and shifted timestamps, so that no two
// copies are the same message.
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

// Spec says what to generate.
type Spec struct {
	// Templates are real transcript files to repeat.
	Templates []string
	// Root receives <Root>/projects/<project>/<session>.jsonl.
	Root string
	// Projects, Sessions per project, and Copies of the templates per
	// session file.
	Projects, Sessions, Copies int
	// Days spreads the sessions' timestamps over this many days before
	// the templates' own dates.
	Days int
	// Seed makes the corpus reproducible.
	Seed uint64
}

// Result describes a generated corpus.
type Result struct {
	Files int
	Bytes int64
}

var (
	msgIDRe   = regexp.MustCompile(`"id":\s*"msg_[A-Za-z0-9]+"`)
	reqIDRe   = regexp.MustCompile(`"requestId":\s*"req_[A-Za-z0-9]+"`)
	uuidRe    = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	tsRe      = regexp.MustCompile(`"timestamp":\s*"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"`)
	alnum     = []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
	hexDigits = []byte("0123456789abcdef")
)

// Generate writes the corpus.
func Generate(s Spec) (Result, error) {
	var res Result
	var tmpl [][]byte
	for _, p := range s.Templates {
		b, err := os.ReadFile(p)
		if err != nil {
			return res, err
		}
		if !bytes.HasSuffix(b, []byte("\n")) {
			b = append(b, '\n')
		}
		tmpl = append(tmpl, b)
	}
	if len(tmpl) == 0 {
		return res, fmt.Errorf("corpus: no templates")
	}
	rng := rand.New(rand.NewPCG(s.Seed, s.Seed^0x5eed))
	days := max(s.Days, 1)
	for p := range s.Projects {
		dir := filepath.Join(s.Root, "projects", fmt.Sprintf("-home-user-project-%03d", p))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return res, err
		}
		for range s.Sessions {
			var buf bytes.Buffer
			shift := -time.Duration(rng.IntN(days*24*60)) * time.Minute
			session := randUUID(rng)
			for c := range s.Copies {
				t := tmpl[(p+c)%len(tmpl)]
				buf.Write(fresh(t, rng, session, shift+time.Duration(c)*time.Minute))
			}
			path := filepath.Join(dir, session+".jsonl")
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				return res, err
			}
			res.Files++
			res.Bytes += int64(buf.Len())
		}
	}
	return res, nil
}

// fresh rewrites one copy of a template: every message id, request id and
// UUID gets a new value (the same old value maps to the same new one within
// the copy, so a message's content-block lines stay one message), the
// session id becomes session, and timestamps move by shift.
func fresh(t []byte, rng *rand.Rand, session string, shift time.Duration) []byte {
	ids := map[string]string{}
	swap := func(prefix string, n int) func([]byte) []byte {
		return func(m []byte) []byte {
			k := string(m)
			if v, ok := ids[k]; ok {
				return []byte(v)
			}
			i := bytes.Index(m, []byte(prefix))
			v := string(m[:i+len(prefix)]) + randString(rng, alnum, n) + `"`
			ids[k] = v
			return []byte(v)
		}
	}
	out := msgIDRe.ReplaceAllFunc(t, swap("msg_", 24))
	out = reqIDRe.ReplaceAllFunc(out, swap("req_", 24))
	out = uuidRe.ReplaceAllFunc(out, func(m []byte) []byte {
		k := string(m)
		if v, ok := ids[k]; ok {
			return []byte(v)
		}
		v := randUUID(rng)
		ids[k] = v
		return []byte(v)
	})
	// Every copy in a file belongs to the file's session.
	out = bytes.ReplaceAll(out, []byte(`"sessionId":"`+sessionOf(t, ids)+`"`), []byte(`"sessionId":"`+session+`"`))
	return tsRe.ReplaceAllFunc(out, func(m []byte) []byte {
		sub := tsRe.FindSubmatch(m)
		ts, err := time.Parse(time.RFC3339Nano, string(sub[1]))
		if err != nil {
			return m
		}
		return []byte(`"timestamp":"` + ts.Add(shift).UTC().Format("2006-01-02T15:04:05.000Z") + `"`)
	})
}

var sessionRe = regexp.MustCompile(`"sessionId":\s*"([0-9a-f-]{36})"`)

// sessionOf returns the new value of the template's session id.
func sessionOf(t []byte, ids map[string]string) string {
	m := sessionRe.FindSubmatch(t)
	if m == nil {
		return "\x00none"
	}
	return ids[string(m[1])]
}

func randString(rng *rand.Rand, alphabet []byte, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

func randUUID(rng *rand.Rand) string {
	s := randString(rng, hexDigits, 32)
	return s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:]
}
