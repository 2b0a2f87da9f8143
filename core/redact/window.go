package redact

import "strings"

// DeltaWindow is how many bytes of a streamed message's newest text a
// Window holds back before it lets text be written. A secret that a
// harness prints across several deltas (cursor's --stream-partial-output
// sends a reply a few words a line) is found when the whole of it, and the
// key or prefix before it, lies within this many bytes: 256 covers every
// token shape in tokens.go but the longest (PEM blocks, JWTs, which are
// handled past the window too, see Window) while holding back only a few
// dozen deltas of a reply.
const DeltaWindow = 256

// maxHeldDeltas bounds how many deltas a Window holds, whatever their
// size: empty deltas add no bytes.
const maxHeldDeltas = DeltaWindow

// Window redacts a message that arrives in pieces. Push adds the next
// piece and returns the pieces that may be written now, oldest first,
// each redacted: a piece is held while any of its bytes is among the
// DeltaWindow newest, then released with the secrets found in the text
// around it. A secret that spans pieces is replaced in the first piece it
// touches by its marker, and its bytes are removed from the others, so
// that the pieces, joined, read as String would have redacted the whole
// message. A secret longer than the window (a key block, a long JWT) is
// replaced when its start must be released, and the bytes that continue
// it are dropped as they arrive. Flush releases the rest at the message's
// end.
//
// A Window holds at most DeltaWindow bytes of released text (the context
// that names a value's key) and the pieces whose bytes are among the
// DeltaWindow newest (at most maxHeldDeltas of them). The zero value is
// ready to use; a Window is not safe for concurrent use.
type Window struct {
	ctx     string   // the newest released text, raw, at most DeltaWindow bytes
	held    []string // pieces not yet released, raw, oldest first
	heldLen int
	// marked counts the first bytes of held that belong to a secret whose
	// marker was already released.
	marked int
	// skip, when skipping, is an open secret released before its end:
	// the bytes that continue it are dropped as they arrive.
	skip     cont
	skipping bool
	pemTail  string // the last bytes dropped of a key block, to find its END
	spans    []span
}

// Push adds a piece of the message and returns the pieces now released.
func (w *Window) Push(piece string) []string {
	if w.skipping {
		piece = w.skipCont(piece)
	}
	w.held = append(w.held, piece)
	w.heldLen += len(piece)
	n, rest := 0, w.heldLen
	for n < len(w.held) && (rest-len(w.held[n]) >= DeltaWindow || len(w.held)-n > maxHeldDeltas) {
		rest -= len(w.held[n])
		n++
	}
	if n == 0 {
		return nil
	}
	return w.release(n, false)
}

// Flush releases every held piece: the message has ended, so a secret at
// its end is whole. The Window is then empty, ready for a new message.
func (w *Window) Flush() []string {
	var out []string
	if len(w.held) > 0 {
		out = w.release(len(w.held), true)
	}
	*w = Window{spans: w.spans[:0]}
	return out
}

// Held returns how many bytes of text the Window holds: released context
// and held pieces.
func (w *Window) Held() int { return len(w.ctx) + w.heldLen + len(w.pemTail) }

// release releases the first n held pieces.
func (w *Window) release(n int, final bool) []string {
	text := w.ctx + strings.Join(w.held, "")
	base := len(w.ctx)
	spans := w.spans[:0]
	if mayContain(text) {
		spans = scan(text, spans)
	}
	w.spans = spans
	markedTo := base + w.marked
	out := make([]string, n)
	pos, si := base, 0
	for k := range n {
		end := pos + len(w.held[k])
		var b strings.Builder
		for p := pos; p < end; {
			if p < markedTo {
				p = min(markedTo, end)
				continue
			}
			for si < len(spans) && spans[si].hi <= p {
				si++
			}
			if si == len(spans) || spans[si].lo >= end {
				b.WriteString(text[p:end])
				break
			}
			sp := spans[si]
			if sp.lo > p {
				b.WriteString(text[p:sp.lo])
				p = sp.lo
			}
			if sp.lo >= markedTo || markedTo == base {
				// A new secret (or one whose start was released before
				// anything recognised it): its marker goes here.
				b.WriteString(marker(sp.kind))
			}
			markedTo = max(markedTo, sp.hi)
			if sp.open && !final && sp.hi == len(text) {
				w.skip, w.skipping, w.pemTail = sp.cont, true, ""
			}
			p = min(sp.hi, end)
		}
		out[k] = b.String()
		pos = end
	}
	w.marked = max(markedTo-pos, 0)
	released := text[:pos]
	w.ctx = released[max(len(released)-DeltaWindow, 0):]
	clear(w.held[:n])
	w.held = w.held[n:]
	w.heldLen -= pos - base
	if len(w.held) == 0 {
		w.held = nil
	}
	return out
}

// skipCont drops the start of piece that continues an open secret
// released before its end, and ends the skipping where the secret ends.
func (w *Window) skipCont(piece string) string {
	var rest string
	if w.skip.pem {
		rest = w.skipKeyBlock(piece)
	} else {
		n := 0
		for n < len(piece) && w.skip.extends(piece[n]) {
			n++
		}
		w.skipping = n == len(piece)
		rest = piece[n:]
	}
	if !w.skipping {
		// The released context holds the secret's start (a BEGIN line
		// whose END was dropped): scanned again, it would swallow the
		// text after it.
		w.ctx = ""
	}
	return rest
}

// skipKeyBlock drops a key block's text up to and including its END line.
func (w *Window) skipKeyBlock(piece string) string {
	buf := w.pemTail + piece
	for from := 0; ; {
		j := strings.Index(buf[from:], "-----END")
		if j < 0 {
			break
		}
		j += from
		if e, ok := keyLabel(buf, j+len("-----END")); ok {
			w.skipping, w.pemTail = false, ""
			return buf[e:]
		}
		if len(buf)-j < len("-----END")+48+5 {
			// The END line may still be arriving.
			w.pemTail = buf[j:]
			return ""
		}
		from = j + 1
	}
	w.pemTail = buf[max(len(buf)-len("-----END"), 0):]
	return ""
}
