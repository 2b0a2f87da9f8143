package summary

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/pricing"
)

// A session's cost is the harness's run total when it printed one. Else
// it is the sum of its turns' costs, and each turn's is the sum of its
// model requests': a message's last usage report is one request, priced
// on its own, so that a context-length band (the price above 200k prompt
// tokens) applies to the request whose prompt crossed it, never to a sum
// of requests. A request the harness priced keeps the harness's figure;
// one it did not is priced from the catalog at the turn's model, else the
// session's. A cost of exactly 0 for tokens > 0 is not a price (opencode
// prints 0 for a model its own list lacks): it is priced as if absent.

// trustedCost reports whether a report carries a harness cost that is a
// price: not absent, and not exactly 0 for tokens spent.
func (t tokens) trustedCost() bool {
	return t.has&hasCost != 0 && (t.cost != 0 || t.spent() == 0)
}

// spent is the report's tokens of every kind: its prompt (which counts
// the cached and cache-written shares) and its completion.
func (t tokens) spent() int64 {
	return event.AddCount(max(t.in, event.AddCount(t.cached, t.write)), t.out)
}

// request returns the report as one model request made at at.
func (t tokens) request(at time.Time) pricing.Request {
	return pricing.Request{Input: max(t.in-t.cached-t.write, 0), CacheRead: t.cached, CacheWrite: t.write,
		Output: t.out, At: at}
}

// beyond returns what t counts past o, counter by counter, never below 0.
func (t tokens) beyond(o tokens) tokens {
	return tokens{in: max(t.in-o.in, 0), out: max(t.out-o.out, 0), cached: max(t.cached-o.cached, 0),
		write: max(t.write-o.write, 0), has: t.has &^ hasCost}
}

// pricer prices the requests of one session and remembers what it used.
type pricer struct {
	table *pricing.Table
	// model is the session's model, for turns that name none.
	model string
	// keys are the catalog ids priced, in order.
	keys []string
	// zero counts the tokens of reports whose harness cost was 0.
	zero int64
	// missing is the first model that had no price ("" with none).
	missing    string
	hadMissing bool
}

// price returns what one request costs at model (the session's when
// empty); false when the model is unknown or has no price.
func (p *pricer) price(model string, t tokens, at time.Time) (float64, bool) {
	if t.spent() == 0 {
		return 0, true
	}
	if model == "" {
		model = p.model
	}
	m, ok := p.table.Priced(model)
	if model == "" || !ok {
		if !p.hadMissing {
			p.missing, p.hadMissing = model, true
		}
		return 0, false
	}
	usd, err := m.Cost(t.request(at))
	if err != nil {
		return 0, false
	}
	if !slices.Contains(p.keys, m.ID) {
		p.keys = append(p.keys, m.ID)
	}
	return usd, true
}

// usageCost prices one turn's usage: each message's last report is one
// request, the reports without a message id together one more.
func (p *pricer) usageCost(u *turnUsage, model string, at time.Time) (float64, CostSource) {
	var usd float64
	src := CostSource("")
	one := func(t tokens) bool {
		if t.trustedCost() {
			usd = event.AddUSD(usd, t.cost)
			if src == "" {
				src = CostHarness
			}
			return true
		}
		if t.has&hasCost != 0 {
			p.zero = event.AddCount(p.zero, t.spent())
		}
		v, ok := p.price(model, t, at)
		if ok && t.spent() > 0 {
			usd, src = event.AddUSD(usd, v), CostEstimate
		}
		return ok
	}
	if u.noID != nil && !one(*u.noID) {
		return 0, CostUnknown
	}
	for i := range u.msgs {
		if !one(u.msgs[i].t) {
			return 0, CostUnknown
		}
	}
	if src == "" {
		src = CostEstimate // reports of no tokens: nothing to pay
	}
	return usd, src
}

// cost fills the session's cost and says where it came from, and each
// turn's (turnState.usd, shown by turnsAndStalls).
func (b *Builder) cost(s *Summary, p projector) {
	s.CostSource = CostUnknown
	pr := pricer{table: b.opt.Prices, model: s.Model}
	var (
		sum          float64
		used         tokens
		harness, est bool
		unknown      bool
	)
	add := func(usd float64, src CostSource) {
		switch src {
		case CostUnknown:
			unknown = true
		case CostEstimate:
			est = true
		case CostHarness:
			harness = true
		}
		sum = event.AddUSD(sum, usd)
	}
	start := time.Time{}
	if s.StartedAt != nil {
		start = *s.StartedAt
	}
	if b.orphan.any {
		u := &b.orphan
		used.add(u.total())
		add(pr.usageCost(u, "", start))
	}
	for _, t := range b.turns {
		if !t.usage.any {
			continue
		}
		at, _ := p.resolve(t.start)
		t.usd, t.costSrc = pr.usageCost(&t.usage, t.model, at)
		used.add(t.usage.total())
		add(t.usd, t.costSrc)
	}
	if b.run != nil && b.run.trustedCost() {
		s.EstimatedUSD, s.CostSource, s.CostBasis = b.run.costUSD(), CostHarness, "harness run total"
		return
	}
	if b.totalUnknown {
		s.CostBasis = "the session's tokens are unknown"
		return
	}
	if s.InputTokens == nil && s.OutputTokens == nil {
		if b.opt.TokensNotRecordedBy != "" {
			s.CostBasis = "tokens not recorded by " + b.opt.TokensNotRecordedBy
		}
		return
	}
	if b.run != nil {
		if b.run.has&hasCost != 0 {
			pr.zero = max(pr.zero, b.run.spent())
		}
		// The harness's total counts what no turn reported (or every
		// request, when no turn did): one more request at the
		// session's model.
		if rest := b.run.beyond(used); rest.spent() > 0 {
			usd, ok := pr.price("", rest, start)
			if !ok {
				unknown = true
			}
			add(usd, CostEstimate)
		}
	}
	switch {
	case unknown:
		s.CostBasis = pr.why()
	case !est:
		s.EstimatedUSD, s.CostSource, s.CostBasis = &sum, CostHarness, "harness per-call costs added"
	default:
		s.EstimatedUSD, s.CostSource = &sum, CostEstimate
		s.CostBasis = "price table " + pr.table.Date + ": " + strings.Join(pr.keys, ", ")
		if harness {
			s.CostBasis = "harness per-call costs and " + s.CostBasis
		}
	}
}

// why says why a session's cost is unknown.
func (p *pricer) why() string {
	var out string
	if p.missing == "" {
		out = "no model named"
	} else {
		out = "no price for " + p.missing
	}
	if p.zero > 0 {
		out = "harness reported $0 for " + strconv.FormatInt(p.zero, 10) + " tokens; " + out
	}
	return out
}
