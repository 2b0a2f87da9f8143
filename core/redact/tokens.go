package redact

// Provider tokens are recognised by a literal prefix followed by a body of
// known bytes and length. The families follow gitleaks' checklist of
// providers; the shapes are written here from the providers' documented
// formats. A token must start a word (boundaryBefore) and its body must
// not run on into a letter or digit.

// spec is the shape of one kind of token.
type spec struct {
	kind     string
	pre      string
	body     set
	min, max int  // body length; max 0: no upper bound
	mixed    bool // the body holds a digit and a letter (not a word)
	at       int  // index in pre of the byte the scan anchors on
	id       int  // index in specs, for the scanner's memo
}

// Bodies that the byte classes do not name.
const (
	urlsafeDot = urlsafe | set(bDot)
	b64url     = urlsafe | set(bEq)
	b64all     = b64 | set(bUnder|bDash)
	djangoBody = alnum | set(bSym|bDash|bUnder|bEq|bPlus)
	hexDash    = hexAny | set(bDash)
)

// specList holds every token shape; specs and the anchor tables are built
// from it once.
var specList = []spec{
	// Cloud providers.
	{kind: "aws-access-key", pre: "AKIA", body: alnumU, min: 16, max: 16},
	{kind: "aws-access-key", pre: "ASIA", body: alnumU, min: 16, max: 16},
	{kind: "aws-access-key", pre: "ABIA", body: alnumU, min: 16, max: 16},
	{kind: "aws-access-key", pre: "ACCA", body: alnumU, min: 16, max: 16},
	{kind: "aws-access-key", pre: "AGPA", body: alnumU, min: 16, max: 16},
	{kind: "aws-access-key", pre: "AIDA", body: alnumU, min: 16, max: 16},
	{kind: "aws-access-key", pre: "AIPA", body: alnumU, min: 16, max: 16},
	{kind: "aws-access-key", pre: "ANPA", body: alnumU, min: 16, max: 16},
	{kind: "aws-access-key", pre: "ANVA", body: alnumU, min: 16, max: 16},
	{kind: "aws-access-key", pre: "AROA", body: alnumU, min: 16, max: 16},
	{kind: "aws-access-key", pre: "APKA", body: alnumU, min: 16, max: 16},
	{kind: "aws-access-key", pre: "ASCA", body: alnumU, min: 16, max: 16},
	{kind: "google-api-key", pre: "AIza", body: urlsafe, min: 35},
	{kind: "google-oauth-secret", pre: "GOCSPX-", body: urlsafe, min: 24},
	{kind: "google-oauth-token", pre: "ya29.", body: urlsafeDot, min: 20},
	{kind: "google-refresh-token", pre: "1//0", body: urlsafe, min: 30},
	{kind: "alibaba-key", pre: "LTAI", body: alnum, min: 12, max: 30, mixed: true},
	{kind: "digitalocean-token", pre: "dop_v1_", body: hexL, min: 64, max: 64},
	{kind: "digitalocean-token", pre: "doo_v1_", body: hexL, min: 64, max: 64},
	{kind: "digitalocean-token", pre: "dor_v1_", body: hexL, min: 64, max: 64},
	{kind: "databricks-token", pre: "dapi", body: hexL, min: 32, max: 32},
	{kind: "cloudflare-key", pre: "v1.0-", body: hexDash, min: 150},
	{kind: "heroku-key", pre: "HRKU-", body: urlsafe, min: 58},
	{kind: "flyio-token", pre: "fo1_", body: urlsafe, min: 40},
	{kind: "flyio-token", pre: "fm2_", body: b64all, min: 64},
	{kind: "openshift-token", pre: "sha256~", body: urlsafe, min: 43, max: 43},
	{kind: "yandex-key", pre: "AQVN", body: urlsafe, min: 35, max: 38},
	{kind: "vault-token", pre: "hvs.", body: urlsafe, min: 24},
	{kind: "vault-token", pre: "hvb.", body: urlsafe, min: 24},
	{kind: "vault-token", pre: "hvr.", body: urlsafe, min: 24},
	{kind: "doppler-token", pre: "dp.pt.", body: alnum, min: 40},
	{kind: "doppler-token", pre: "dp.st.", body: alnum, min: 40},
	{kind: "doppler-token", pre: "dp.ct.", body: alnum, min: 40},
	{kind: "doppler-token", pre: "dp.sa.", body: alnum, min: 40},
	{kind: "pulumi-token", pre: "pul-", body: hexL, min: 40, max: 40},
	{kind: "scalingo-token", pre: "tk-us-", body: urlsafe, min: 48},
	{kind: "dynatrace-token", pre: "dt0c01.", body: alnumU | set(bDot), min: 80},
	{kind: "planetscale-token", pre: "pscale_tkn_", body: urlsafeDot | set(bEq), min: 32},
	{kind: "planetscale-token", pre: "pscale_pw_", body: urlsafeDot | set(bEq), min: 32},
	{kind: "planetscale-token", pre: "pscale_oauth_", body: urlsafeDot | set(bEq), min: 32},
	{kind: "netlify-token", pre: "nfp_", body: alnum, min: 36},

	// Code hosting and package registries.
	{kind: "github-token", pre: "ghp_", body: alnum, min: 30, max: 255},
	{kind: "github-token", pre: "gho_", body: alnum, min: 30, max: 255},
	{kind: "github-token", pre: "ghu_", body: alnum, min: 30, max: 255},
	{kind: "github-token", pre: "ghs_", body: alnum, min: 30, max: 255},
	{kind: "github-token", pre: "ghr_", body: alnum, min: 30, max: 255},
	{kind: "github-token", pre: "github_pat_", body: word, min: 22, max: 255},
	{kind: "gitlab-token", pre: "glpat-", body: urlsafeDot, min: 20},
	{kind: "gitlab-token", pre: "glptt-", body: urlsafe, min: 20},
	{kind: "gitlab-token", pre: "gldt-", body: urlsafe, min: 20},
	{kind: "gitlab-token", pre: "glrt-", body: urlsafe, min: 20},
	{kind: "gitlab-token", pre: "glcbt-", body: urlsafe, min: 20},
	{kind: "gitlab-token", pre: "glimt-", body: urlsafe, min: 20},
	{kind: "gitlab-token", pre: "glagent-", body: urlsafe, min: 50},
	{kind: "gitlab-token", pre: "gloas-", body: urlsafe, min: 20},
	{kind: "gitlab-token", pre: "glsoat-", body: urlsafe, min: 20},
	{kind: "gitlab-token", pre: "glffct-", body: urlsafe, min: 20},
	{kind: "gitlab-token", pre: "glft-", body: urlsafe, min: 20},
	{kind: "gitlab-token", pre: "GR1348941", body: urlsafe, min: 20},
	{kind: "atlassian-token", pre: "ATATT3", body: b64url, min: 100},
	{kind: "atlassian-token", pre: "ATCTT3", body: b64url, min: 100},
	{kind: "atlassian-token", pre: "ATBB", body: alnum, min: 32, mixed: true},
	{kind: "npm-token", pre: "npm_", body: alnum, min: 36},
	{kind: "pypi-token", pre: "pypi-AgEIcHlwaS5vcmc", body: urlsafe, min: 50},
	{kind: "rubygems-key", pre: "rubygems_", body: hexL, min: 48, max: 48},
	{kind: "clojars-token", pre: "CLOJARS_", body: alnum, min: 60},
	{kind: "artifactory-key", pre: "AKCp", body: alnum, min: 60},
	{kind: "sonar-token", pre: "squ_", body: hexL, min: 40, max: 40},
	{kind: "sonar-token", pre: "sqp_", body: hexL, min: 40, max: 40},
	{kind: "sonar-token", pre: "sqa_", body: hexL, min: 40, max: 40},
	{kind: "sourcegraph-token", pre: "sgp_", body: word, min: 40},
	{kind: "readme-key", pre: "rdme_", body: alnum, min: 64},
	{kind: "prefect-key", pre: "pnu_", body: alnum, min: 36},
	{kind: "infracost-key", pre: "ico-", body: alnum, min: 32, mixed: true},

	// AI providers.
	{kind: "anthropic-key", pre: "sk-ant-", body: urlsafe, min: 20},
	{kind: "openai-key", pre: "sk-proj-", body: urlsafe, min: 20},
	{kind: "openai-key", pre: "sk-svcacct-", body: urlsafe, min: 20},
	{kind: "openai-key", pre: "sk-admin-", body: urlsafe, min: 20},
	{kind: "openai-key", pre: "sk-None-", body: urlsafe, min: 20},
	// Other sk- keys (OpenAI's own before projects, and the providers that
	// copied the shape): letters and digits only, so that a branch such as
	// feature/sk-1234-fix-login is not one.
	{kind: "openai-key", pre: "sk-", body: alnum, min: 32, mixed: true},
	{kind: "huggingface-token", pre: "hf_", body: alnum, min: 30},
	{kind: "huggingface-token", pre: "api_org_", body: alnum, min: 30},
	{kind: "groq-key", pre: "gsk_", body: alnum, min: 48},
	{kind: "perplexity-key", pre: "pplx-", body: alnum, min: 40},
	{kind: "langsmith-key", pre: "lsv2_pt_", body: hexL | set(bUnder), min: 40},
	{kind: "langsmith-key", pre: "lsv2_sk_", body: hexL | set(bUnder), min: 40},

	// Communication and SaaS.
	{kind: "slack-token", pre: "xoxb-", body: urlsafe, min: 10},
	{kind: "slack-token", pre: "xoxp-", body: urlsafe, min: 10},
	{kind: "slack-token", pre: "xoxa-", body: urlsafe, min: 10},
	{kind: "slack-token", pre: "xoxo-", body: urlsafe, min: 10},
	{kind: "slack-token", pre: "xoxs-", body: urlsafe, min: 10},
	{kind: "slack-token", pre: "xoxr-", body: urlsafe, min: 10},
	{kind: "slack-token", pre: "xoxe-", body: urlsafe, min: 10},
	{kind: "slack-token", pre: "xapp-", body: urlsafe, min: 12},
	{kind: "sendgrid-key", pre: "SG.", body: urlsafeDot, min: 60},
	{kind: "mailgun-key", pre: "key-", body: hexL, min: 32, max: 32},
	{kind: "mailgun-key", pre: "pubkey-", body: hexL, min: 32, max: 32},
	{kind: "sendinblue-key", pre: "xkeysib-", body: alnum | set(bDash), min: 80},
	{kind: "sendinblue-key", pre: "xsmtpsib-", body: alnum | set(bDash), min: 80},
	{kind: "linear-key", pre: "lin_api_", body: alnum, min: 40},
	{kind: "linear-key", pre: "lin_oauth_", body: hexL, min: 64},
	{kind: "postman-key", pre: "PMAK-", body: alnum | set(bDash), min: 59},
	{kind: "newrelic-key", pre: "NRAK-", body: alnumU, min: 27, max: 27},
	{kind: "sentry-token", pre: "sntrys_", body: b64all, min: 50},
	{kind: "sentry-token", pre: "sntryu_", body: hexL, min: 64, max: 64},
	{kind: "typeform-token", pre: "tfp_", body: urlsafeDot | set(bEq), min: 40},
	{kind: "dropbox-token", pre: "sl.", body: urlsafe | set(bEq), min: 130},
	{kind: "easypost-key", pre: "EZAK", body: alnum, min: 54},
	{kind: "easypost-key", pre: "EZTK", body: alnum, min: 54},
	{kind: "frameio-token", pre: "fio-u-", body: b64url, min: 64},
	{kind: "onepassword-token", pre: "ops_eyJ", body: b64, min: 100},
	{kind: "adafruit-key", pre: "aio_", body: alnum, min: 28, max: 28},
	{kind: "beamer-key", pre: "b_", body: b64url, min: 44, max: 44, mixed: true},
	{kind: "duffel-token", pre: "duffel_test_", body: b64url, min: 43},
	{kind: "duffel-token", pre: "duffel_live_", body: b64url, min: 43},
	{kind: "intra42-secret", pre: "s-s4t2ud-", body: hexL, min: 64, max: 64},
	{kind: "intra42-secret", pre: "s-s4t2af-", body: hexL, min: 64, max: 64},
	{kind: "mapbox-token", pre: "sk.eyJ", body: urlsafeDot, min: 80},
	{kind: "grafana-token", pre: "glc_", body: b64, min: 32},
	{kind: "grafana-token", pre: "glsa_", body: word, min: 41},
	{kind: "twilio-key", pre: "SK", body: hexL, min: 32, max: 32},

	// Payments.
	{kind: "stripe-key", pre: "sk_live_", body: alnum, min: 16},
	{kind: "stripe-key", pre: "sk_test_", body: alnum, min: 16},
	{kind: "stripe-key", pre: "rk_live_", body: alnum, min: 16},
	{kind: "stripe-key", pre: "rk_test_", body: alnum, min: 16},
	{kind: "stripe-key", pre: "whsec_", body: alnum, min: 20},
	{kind: "square-token", pre: "sq0atp-", body: urlsafe, min: 22},
	{kind: "square-token", pre: "sq0csp-", body: urlsafe, min: 43},
	{kind: "square-token", pre: "EAAA", body: b64url | set(bPlus), min: 60},
	{kind: "flutterwave-key", pre: "FLWSECK_TEST-", body: hexDash | set(bUpper), min: 32},
	{kind: "flutterwave-key", pre: "FLWSECK-", body: hexDash | set(bUpper), min: 32},
	{kind: "shopify-token", pre: "shpat_", body: hexAny, min: 32, max: 32},
	{kind: "shopify-token", pre: "shpca_", body: hexAny, min: 32, max: 32},
	{kind: "shopify-token", pre: "shppa_", body: hexAny, min: 32, max: 32},
	{kind: "shopify-token", pre: "shpss_", body: hexAny, min: 32, max: 32},
	{kind: "shippo-token", pre: "shippo_live_", body: hexL, min: 40, max: 40},
	{kind: "shippo-token", pre: "shippo_test_", body: hexL, min: 40, max: 40},

	// Keys that are not tied to a provider.
	{kind: "age-secret-key", pre: "AGE-SECRET-KEY-1", body: alnumU, min: 58, max: 58},
	{kind: "django-secret", pre: "django-insecure-", body: djangoBody, min: 30},
}

// specs is specList with each spec's anchor and id filled in.
var specs = func() []spec {
	out := make([]spec, len(specList))
	for i, sp := range specList {
		sp.id = i
		sp.at = -1
		for k := range len(sp.pre) {
			if class[sp.pre[k]]&bAnchor != 0 {
				sp.at = k
				break
			}
		}
		if sp.at < 0 || (sp.at == 0 && len(sp.pre) < 2) {
			panic("redact: token prefix without an anchor: " + sp.pre)
		}
		out[i] = sp
	}
	return out
}()

// bucket lists the specs to try at an anchor, by the byte beside it.
type bucket [256][]*spec

// byPrev holds the specs whose anchor is not their first byte, by anchor
// and the byte before it; byNext those that start with their anchor, by
// anchor and the byte after it. Both are filled once, never written after.
var byPrev, byNext = func() (prev, next [256]*bucket) {
	for i := range specs {
		sp := &specs[i]
		c := sp.pre[sp.at]
		t, k := &prev, byte(0)
		if sp.at == 0 {
			t, k = &next, sp.pre[1]
		} else {
			k = sp.pre[sp.at-1]
		}
		if t[c] == nil {
			t[c] = new(bucket)
		}
		t[c][k] = append(t[c][k], sp)
	}
	return prev, next
}()

// specCand reports whether a token's prefix and enough of its body sit
// around the anchor at b[i].
func specCand(b string, i int) bool {
	for _, list := range specsAt(b, i) {
		for _, sp := range list {
			if _, _, ok := specMatch(sp, b, i, true); ok {
				return true
			}
		}
	}
	return false
}

// specsAt returns the buckets to try at b[i]: by the byte before and by
// the byte after.
func specsAt(b string, i int) [2][]*spec {
	var out [2][]*spec
	c := b[i]
	if t := byPrev[c]; t != nil && i > 0 {
		out[0] = t[b[i-1]]
	}
	if t := byNext[c]; t != nil && i+1 < len(b) {
		out[1] = t[b[i+1]]
	}
	return out
}

// specMatch returns the token of shape sp anchored at b[i]. Quick, as the
// prefilter asks, it reads no more of the body than the bounds need and
// skips the tests the full match makes after them (mixed, the byte after
// the body): it may say yes where the full match says no, never the
// reverse.
func specMatch(sp *spec, b string, i int, quick bool) (lo, hi int, ok bool) {
	lo = i - sp.at
	if lo < 0 || !hasPrefixAt(b, lo, sp.pre) || !boundaryBefore(b, lo) {
		return 0, 0, false
	}
	start := lo + len(sp.pre)
	limit := len(b)
	switch {
	case sp.max > 0:
		limit = sp.max + 1
	case quick:
		limit = sp.min
	}
	n := runOf(b, start, sp.body, limit)
	if n < sp.min || (sp.max > 0 && n > sp.max) {
		return 0, 0, false
	}
	hi = start + n
	if quick {
		return lo, hi, true
	}
	if hi < len(b) && isAlnum(b[hi]) {
		return 0, 0, false
	}
	if sp.mixed && !mixedBody(b[start:hi]) {
		return 0, 0, false
	}
	return lo, hi, true
}

// mixedBody reports whether b holds a digit and a letter.
func mixedBody(b string) bool {
	digit, letter := false, false
	for i := 0; i < len(b) && !(digit && letter); i++ {
		digit = digit || isDigit(b[i])
		letter = letter || letters.has(b[i])
	}
	return digit && letter
}
