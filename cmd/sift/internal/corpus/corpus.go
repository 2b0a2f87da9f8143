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
	"sort"
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
	msgIDRe   = regexp.MustCompile(`"id":\s*"(msg_[A-Za-z0-9]+)"`)
	reqIDRe   = regexp.MustCompile(`"requestId":\s*"(req_[A-Za-z0-9]+)"`)
	uuidRe    = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	tsRe      = regexp.MustCompile(`"timestamp":\s*"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"`)
	sessionRe = regexp.MustCompile(`"sessionId":\s*"([0-9a-f-]{36})"`)
	alnum     = []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
	hexDigits = []byte("0123456789abcdef")
)

// Generate writes the corpus. Each template is scanned once into a plan
// (its bytes cut at every id and timestamp); a copy is the plan written out
// with fresh values, so the cost per copy is a copy of the bytes.
func Generate(s Spec) (Result, error) {
	var res Result
	var plans []*plan
	for _, p := range s.Templates {
		b, err := readTemplate(p)
		if err != nil {
			return res, err
		}
		plans = append(plans, newPlan(b))
	}
	if len(plans) == 0 {
		return res, fmt.Errorf("corpus: no templates")
	}
	rng := rand.New(rand.NewPCG(s.Seed, s.Seed^0x5eed))
	days := max(s.Days, 1)
	var buf []byte
	for p := range s.Projects {
		dir := filepath.Join(s.Root, "projects", fmt.Sprintf("-home-user-project-%03d", p))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return res, err
		}
		for range s.Sessions {
			buf = buf[:0]
			shift := -time.Duration(rng.IntN(days*24*60)) * time.Minute
			session := randUUID(rng)
			for c := range s.Copies {
				buf = plans[(p+c)%len(plans)].write(buf, rng, session, shift+time.Duration(c)*time.Minute)
			}
			path := filepath.Join(dir, session+".jsonl")
			if err := os.WriteFile(path, buf, 0o644); err != nil {
				return res, err
			}
			res.Files++
			res.Bytes += int64(len(buf))
		}
	}
	return res, nil
}

// readTemplate reads a template file, ending in a newline.
func readTemplate(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err == nil && !bytes.HasSuffix(b, []byte("\n")) {
		b = append(b, '\n')
	}
	return b, err
}

// slotKind is what a cut in a template holds.
type slotKind uint8

const (
	slotMsg slotKind = iota
	slotReq
	slotUUID
	slotSession
	slotTime
)

// slot is one value to replace: the literal bytes before it, and its kind
// and index (into the distinct ids of its kind, or the times).
type slot struct {
	lit  []byte
	kind slotKind
	idx  int
}

// plan is a template cut at its ids and timestamps.
type plan struct {
	slots []slot
	tail  []byte
	// counts of distinct message ids, request ids and UUIDs.
	nMsg, nReq, nUUID int
	times             []time.Time
}

// newPlan cuts a template. Every occurrence of the same old id is the same
// slot index, so that a message's content-block lines stay one message.
func newPlan(t []byte) *plan {
	type cut struct {
		start, end int
		kind       slotKind
		val        string
	}
	var cuts []cut
	sub := func(re *regexp.Regexp, kind slotKind) {
		for _, m := range re.FindAllSubmatchIndex(t, -1) {
			cuts = append(cuts, cut{m[2], m[3], kind, string(t[m[2]:m[3]])})
		}
	}
	sub(msgIDRe, slotMsg)
	sub(reqIDRe, slotReq)
	sub(tsRe, slotTime)
	session := ""
	if m := sessionRe.FindSubmatch(t); m != nil {
		session = string(m[1])
	}
	for _, m := range uuidRe.FindAllIndex(t, -1) {
		v := string(t[m[0]:m[1]])
		k := slotUUID
		if v == session {
			k = slotSession
		}
		cuts = append(cuts, cut{m[0], m[1], k, v})
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i].start < cuts[j].start })
	p := &plan{}
	ids := [3]map[string]int{{}, {}, {}}
	pos := 0
	for _, c := range cuts {
		if c.start < pos {
			continue // overlapping match (a UUID inside a message id)
		}
		sl := slot{lit: t[pos:c.start], kind: c.kind}
		switch c.kind {
		case slotMsg, slotReq, slotUUID:
			m := ids[c.kind]
			i, ok := m[c.val]
			if !ok {
				i = len(m)
				m[c.val] = i
			}
			sl.idx = i
		case slotTime:
			ts, err := time.Parse(time.RFC3339Nano, c.val)
			if err != nil {
				continue
			}
			sl.idx = len(p.times)
			p.times = append(p.times, ts)
		}
		p.slots = append(p.slots, sl)
		pos = c.end
	}
	p.tail = t[pos:]
	p.nMsg, p.nReq, p.nUUID = len(ids[slotMsg]), len(ids[slotReq]), len(ids[slotUUID])
	return p
}

// write appends one copy of the template: fresh message ids, request ids
// and UUIDs, the file's session id, and timestamps moved by shift.
func (p *plan) write(dst []byte, rng *rand.Rand, session string, shift time.Duration) []byte {
	fresh := func(n int, prefix string, size int, alphabet []byte) [][]byte {
		out := make([][]byte, n)
		for i := range out {
			b := make([]byte, 0, len(prefix)+size)
			b = append(b, prefix...)
			for range size {
				b = append(b, alphabet[rng.IntN(len(alphabet))])
			}
			out[i] = b
		}
		return out
	}
	msgs := fresh(p.nMsg, "msg_", 24, alnum)
	reqs := fresh(p.nReq, "req_", 24, alnum)
	uuids := make([][]byte, p.nUUID)
	for i := range uuids {
		uuids[i] = []byte(randUUID(rng))
	}
	for _, sl := range p.slots {
		dst = append(dst, sl.lit...)
		switch sl.kind {
		case slotMsg:
			dst = append(dst, msgs[sl.idx]...)
		case slotReq:
			dst = append(dst, reqs[sl.idx]...)
		case slotUUID:
			dst = append(dst, uuids[sl.idx]...)
		case slotSession:
			dst = append(dst, session...)
		case slotTime:
			dst = p.times[sl.idx].Add(shift).UTC().AppendFormat(dst, "2006-01-02T15:04:05.000Z")
		}
	}
	return append(dst, p.tail...)
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
