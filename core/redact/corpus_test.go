package redact

import (
	"encoding/json"
	"hash/fnv"
	"strings"
	"testing"
)

// secretCase is one sample of the corpus: the text around the secret, the
// secret itself (which must disappear) and the kind its marker names.
type secretCase struct {
	name   string
	text   string // contains %s where the secret goes
	secret string
	kind   string
}

// rep repeats s to n bytes.
func rep(s string, n int) string { return strings.Repeat(s, n/len(s)+1)[:n] }

// Alphabets of the fake secrets.
const (
	aAlnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	aUpper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	aHex    = "0123456789abcdef"
	aURL    = aAlnum + "-_"
	aB64    = aAlnum + "+/"
	aDigits = "0123456789"
	aBech32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
)

// fake returns n bytes of alphabet, always the same for one seed. The
// corpus builds every secret at run time from these, so that nothing in
// the repository looks like a live credential.
func fake(seed, alphabet string, n int) string {
	h := fnv.New64a()
	h.Write([]byte(seed))
	x := h.Sum64()
	b := make([]byte, n)
	for i := range b {
		x = x*6364136223846793005 + 1442695040888963407
		b[i] = alphabet[(x>>33)%uint64(len(alphabet))]
	}
	return string(b)
}

// pem returns a fake key block with the given label.
func pem(label string, end bool) string {
	b := "-----BEGIN " + label + "-----\n" + fake(label, aB64, 64) + "\n" + fake(label+"2", aB64, 44)
	if end {
		b += "\n-----END " + label + "-----"
	}
	return b
}

// tok returns a fake token: prefix and a body of n bytes of alphabet.
func tok(prefix, alphabet string, n int) string { return prefix + fake(prefix, alphabet, n) }

// corpus holds the secret samples; every one must be caught by String,
// Bytes and JSONLine (as a value and inside JSON nested in a string).
func corpus() []secretCase {
	jwt := "eyJ" + fake("jwt1", aURL, 30) + ".eyJ" + fake("jwt2", aURL, 60) + "." + fake("jwt3", aURL, 43)
	awsSecret := fake("aws1", aAlnum, 18) + "/" + fake("aws2", aAlnum, 12) + "+" + fake("aws3", aAlnum, 8)
	uuid := func(seed string) string {
		return fake(seed+"a", aHex, 8) + "-" + fake(seed+"b", aHex, 4) + "-" + fake(seed+"c", aHex, 4) + "-" +
			fake(seed+"d", aHex, 4) + "-" + fake(seed+"e", aHex, 12)
	}
	return []secretCase{
		// Cloud providers.
		{"aws access key id AKIA", "aws_access_key_id = %s", tok("AKIA", aUpper, 16), "aws-access-key"},
		{"aws session key id ASIA", "export AWS_ACCESS_KEY_ID=%s", tok("ASIA", aUpper, 16), "aws-access-key"},
		{"aws key id in prose", "the key %s was rotated", tok("AKIA", aUpper, 16), "aws-access-key"},
		{"aws role id AROA", "role %s", tok("AROA", aUpper, 16), "aws-access-key"},
		{"aws user id AIDA", "UserId: %s", tok("AIDA", aUpper, 16), "aws-access-key"},
		{"aws secret in env", "AWS_SECRET_ACCESS_KEY=%s", awsSecret, "aws-secret-key"},
		{"aws secret in ini", "aws_secret_access_key = %s", awsSecret, "aws-secret-key"},
		{"aws secret json", `{"SecretAccessKey": "%s"}`, fake("sak", aAlnum, 40), "aws-secret-key"},
		{"aws secret without a label", "the second value is %s, keep it safe", awsSecret, "aws-secret-key"},
		{"aws secret in a credentials csv", "AKIAEXAMPLEEXAMPLE12,%s", awsSecret, "aws-secret-key"},
		{"google api key", "https://maps.googleapis.com/x?key=%s", tok("AIza", aURL, 35), "google-api-key"},
		{"google api key in json", `{"apiKey":"%s"}`, tok("AIza", aURL, 35), "google-api-key"},
		{"google oauth client secret", "client_id=1.apps.googleusercontent.com secret %s", tok("GOCSPX-", aURL, 28), "google-oauth-secret"},
		{"google oauth access token", "got %s from the metadata server", tok("ya29.", aURL, 120), "google-oauth-token"},
		{"google refresh token", "refresh: %s", tok("1//0", aURL, 80), "google-refresh-token"},
		{"alibaba access key", "ALIBABA_ID %s", tok("LTAI", aAlnum, 20), "alibaba-key"},
		{"digitalocean pat", "doctl auth init -t %s", tok("dop_v1_", aHex, 64), "digitalocean-token"},
		{"digitalocean oauth", "%s", tok("doo_v1_", aHex, 64), "digitalocean-token"},
		{"databricks token", "DATABRICKS_HOST=x %s", tok("dapi", aHex, 32), "databricks-token"},
		{"cloudflare origin ca key", "%s", "v1.0-" + fake("cf1", aHex, 24) + "-" + fake("cf2", aHex, 146), "cloudflare-key"},
		{"heroku api key", "heroku %s", tok("HRKU-", aURL, 60), "heroku-key"},
		{"fly.io token", "FLY %s", tok("fo1_", aURL, 43), "flyio-token"},
		{"fly.io macaroon", "FlyV1 %s", tok("fm2_", aB64, 120), "flyio-token"},
		{"openshift token", "oc login --server=x %s", tok("sha256~", aURL, 43), "openshift-token"},
		{"yandex api key", "%s", tok("AQVN", aURL, 36), "yandex-key"},
		{"vault service token", "VAULT=%s", tok("hvs.", aURL, 90), "vault-token"},
		{"vault batch token", "%s", tok("hvb.", aURL, 130), "vault-token"},
		{"doppler token", "%s", tok("dp.pt.", aAlnum, 43), "doppler-token"},
		{"pulumi token", "login %s", tok("pul-", aHex, 40), "pulumi-token"},
		{"scalingo token", "%s", tok("tk-us-", aURL, 48), "scalingo-token"},
		{"dynatrace token", "%s", "dt0c01." + fake("dt1", aUpper, 24) + "." + fake("dt2", aUpper, 64), "dynatrace-token"},
		{"planetscale token", "%s", tok("pscale_tkn_", aURL, 43), "planetscale-token"},
		{"planetscale password", "%s", tok("pscale_pw_", aURL, 43), "planetscale-token"},
		{"netlify token", "%s", tok("nfp_", aAlnum, 40), "netlify-token"},
		{"azure storage connection string", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=%s;EndpointSuffix=core.windows.net", fake("azk", aB64, 86) + "==", "azure-storage-key"},
		{"azure sas signature", "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=%s", fake("sas", aAlnum, 40) + "%2B" + fake("sas2", aAlnum, 3) + "%3D", "azure-sas"},
		{"azure client secret", "AZURE %s", fake("azc", aAlnum, 3) + "8Q~" + fake("azc2", aURL, 34), "azure-client-secret"},
		{"terraform cloud token", "%s", fake("tf", aAlnum, 14) + ".atlasv1." + fake("tf2", aURL, 67), "terraform-token"},

		// Code hosting and package registries.
		{"github classic pat", "git clone https://x:%s@github.com/a/b", tok("ghp_", aAlnum, 36), "github-token"},
		{"github oauth token", "token %s", tok("gho_", aAlnum, 36), "github-token"},
		{"github token as a url user", "git clone https://%s:x-oauth-basic@github.com/o/r", tok("ghp_", aAlnum, 36), "github-token"},
		{"github user-to-server", "GH=%s", tok("ghu_", aAlnum, 36), "github-token"},
		{"github server-to-server", "Authorization: token %s", tok("ghs_", aAlnum, 36), "github-token"},
		{"github refresh token", "refresh with %s now", tok("ghr_", aAlnum, 76), "github-token"},
		{"github fine-grained pat", "GITHUB_TOKEN=%s", "github_pat_11" + fake("ghpat", aAlnum, 20) + "_" + fake("ghpat2", aAlnum, 59), "github-token"},
		{"gitlab pat", "git remote set-url origin x %s", tok("glpat-", aURL, 20), "gitlab-token"},
		{"gitlab trigger token", "%s", tok("glptt-", aHex, 40), "gitlab-token"},
		{"gitlab deploy token", "%s", tok("gldt-", aURL, 20), "gitlab-token"},
		{"gitlab runner token", "%s", tok("glrt-", aURL, 20), "gitlab-token"},
		{"gitlab runner registration", "%s", tok("GR1348941", aURL, 20), "gitlab-token"},
		{"atlassian api token", "JIRA_API_TOKEN %s", tok("ATATT3", aURL, 182), "atlassian-token"},
		{"bitbucket app password", "%s", tok("ATBB", aAlnum, 32), "atlassian-token"},
		{"npm token bare", "//registry.npmjs.org/ %s", tok("npm_", aAlnum, 36), "npm-token"},
		{"npm token in npmrc", "//registry.npmjs.org/:_authToken=%s", tok("npm_", aAlnum, 36), "npm-token"},
		{"pypi token", "password = %s", tok("pypi-AgEIcHlwaS5vcmc", aURL, 80), "pypi-token"},
		{"rubygems key", "%s", tok("rubygems_", aHex, 48), "rubygems-key"},
		{"clojars token", "%s", tok("CLOJARS_", aAlnum, 60), "clojars-token"},
		{"artifactory key", "%s", tok("AKCp", aAlnum, 69), "artifactory-key"},
		{"sonar token", "sonar.login=%s", tok("squ_", aHex, 40), "sonar-token"},
		{"sourcegraph token", "%s", tok("sgp_", aHex, 40), "sourcegraph-token"},
		{"readme key", "%s", tok("rdme_", aAlnum, 70), "readme-key"},
		{"prefect key", "%s", tok("pnu_", aAlnum, 36), "prefect-key"},
		{"infracost key", "%s", tok("ico-", aAlnum, 32), "infracost-key"},

		// AI providers.
		{"anthropic api key", "ANTHROPIC_API_KEY=%s", tok("sk-ant-api03-", aURL, 95), "anthropic-key"},
		{"anthropic oauth token", "using %s for auth", tok("sk-ant-oat01-", aURL, 80), "anthropic-key"},
		{"openai legacy key", "OPENAI_API_KEY=%s", tok("sk-", aAlnum, 48), "openai-key"},
		{"openai project key", "key: %s", tok("sk-proj-", aURL, 156), "openai-key"},
		{"openai service account key", "%s", tok("sk-svcacct-", aURL, 60), "openai-key"},
		{"openai key in quotes", `client = OpenAI(api_key="%s")`, tok("sk-", aAlnum, 48), "openai-key"},
		{"deepseek style key", "%s", tok("sk-", aHex, 32), "openai-key"},
		{"huggingface token", "huggingface-cli login --token x %s", tok("hf_", aAlnum, 34), "huggingface-token"},
		{"huggingface org token", "%s", tok("api_org_", aAlnum, 34), "huggingface-token"},
		{"groq key", "%s", tok("gsk_", aAlnum, 52), "groq-key"},
		{"perplexity key", "%s", tok("pplx-", aAlnum, 48), "perplexity-key"},
		{"langsmith key", "%s", "lsv2_pt_" + fake("ls", aHex, 32) + "_" + fake("ls2", aHex, 10), "langsmith-key"},

		// Communication and SaaS.
		{"slack bot token", "SLACK=%s", "xoxb-" + fake("sb1", aDigits, 10) + "-" + fake("sb2", aDigits, 13) + "-" + fake("sb3", aAlnum, 24), "slack-token"},
		{"slack user token", "use %s", "xoxp-" + fake("su1", aDigits, 10) + "-" + fake("su2", aDigits, 12) + "-" + fake("su3", aHex, 32), "slack-token"},
		{"slack app token", "%s", "xapp-1-A" + fake("sa1", aUpper, 10) + "-" + fake("sa2", aDigits, 13) + "-" + fake("sa3", aHex, 64), "slack-token"},
		{"slack refresh token", "r=%s;", tok("xoxe-1-", aAlnum, 40), "slack-token"},
		{"slack webhook", "curl -X POST %s", "https://hooks.slack.com/services/T" + fake("sw1", aUpper, 8) + "/B" + fake("sw2", aUpper, 8) + "/" + fake("sw3", aAlnum, 24), "slack-webhook"},
		{"discord webhook", "POST %s", "https://discord.com/api/webhooks/" + fake("dw1", aDigits, 18) + "/" + fake("dw2", aURL, 68), "discord-webhook"},
		{"teams webhook", "%s", "https://contoso.webhook.office.com/webhookb2/" + uuid("t1") + "@" + uuid("t2") + "/IncomingWebhook/" + fake("tw", aHex, 32) + "/" + uuid("t3"), "teams-webhook"},
		{"telegram bot token", "TELEGRAM_BOT=%s", fake("tg1", aDigits, 10) + ":AA" + fake("tg2", aURL, 33), "telegram-bot-token"},
		{"telegram bot api url", "https://api.telegram.org/bot%s/sendMessage", fake("tg3", aDigits, 9) + ":AA" + fake("tg4", aURL, 33), "telegram-bot-token"},
		{"sendgrid key", "SENDGRID %s", "SG." + fake("sg1", aURL, 22) + "." + fake("sg2", aURL, 43), "sendgrid-key"},
		{"mailgun key", "api:%s", tok("key-", aHex, 32), "mailgun-key"},
		{"mailchimp key", "MAILCHIMP %s", fake("mc", aHex, 32) + "-us12", "mailchimp-key"},
		{"sendinblue key", "%s", "xkeysib-" + fake("sib", aHex, 64) + "-" + fake("sib2", aAlnum, 16), "sendinblue-key"},
		{"linear api key", "%s", tok("lin_api_", aAlnum, 40), "linear-key"},
		{"linear oauth token", "%s", tok("lin_oauth_", aHex, 64), "linear-key"},
		{"postman key", "%s", "PMAK-" + fake("pm1", aHex, 24) + "-" + fake("pm2", aHex, 34), "postman-key"},
		{"new relic user key", "%s", tok("NRAK-", aUpper, 27), "newrelic-key"},
		{"sentry org token", "%s", tok("sntrys_", aB64, 80), "sentry-token"},
		{"sentry user token", "%s", tok("sntryu_", aHex, 64), "sentry-token"},
		{"typeform token", "%s", tok("tfp_", aURL, 59), "typeform-token"},
		{"dropbox short-lived token", "%s", tok("sl.", aURL, 140), "dropbox-token"},
		{"easypost key", "%s", tok("EZAK", aAlnum, 54), "easypost-key"},
		{"frame.io token", "%s", tok("fio-u-", aURL, 64), "frameio-token"},
		{"1password service account", "OP_SERVICE_ACCOUNT_TOKEN %s", tok("ops_eyJ", aB64, 250), "onepassword-token"},
		{"adafruit key", "%s", tok("aio_", aAlnum, 28), "adafruit-key"},
		{"duffel token", "%s", tok("duffel_test_", aURL, 43), "duffel-token"},
		{"intra42 secret", "%s", tok("s-s4t2ud-", aHex, 64), "intra42-secret"},
		{"mapbox secret token", "%s", "sk.eyJ" + fake("mb1", aURL, 60) + "." + fake("mb2", aURL, 22), "mapbox-token"},
		{"grafana cloud token", "%s", tok("glc_", aB64, 60), "grafana-token"},
		{"grafana service account", "%s", "glsa_" + fake("gs1", aAlnum, 32) + "_" + fake("gs2", aHex, 8), "grafana-token"},
		{"twilio api key", "TWILIO %s", tok("SK", aHex, 32), "twilio-key"},

		// Payments.
		{"stripe secret live", "stripe.api_key = '%s'", tok("sk_live_", aAlnum, 24), "stripe-key"},
		{"stripe secret test", "STRIPE=%s", tok("sk_test_", aAlnum, 40), "stripe-key"},
		{"stripe restricted live", "%s", tok("rk_live_", aAlnum, 40), "stripe-key"},
		{"stripe webhook secret", "whsec=%s", tok("whsec_", aAlnum, 32), "stripe-key"},
		{"square access token", "%s", tok("sq0atp-", aURL, 22), "square-token"},
		{"square oauth secret", "%s", tok("sq0csp-", aURL, 43), "square-token"},
		{"square production token", "%s", tok("EAAA", aURL, 60), "square-token"},
		{"flutterwave secret", "%s", "FLWSECK_TEST-" + fake("flw", aHex, 32) + "-X", "flutterwave-key"},
		{"shopify access token", "X-Shopify-Access-Token: %s", tok("shpat_", aHex, 32), "shopify-token"},
		{"shopify shared secret", "%s", tok("shpss_", aHex, 32), "shopify-token"},
		{"shippo token", "%s", tok("shippo_live_", aHex, 40), "shippo-token"},

		// Key blocks and generic shapes.
		{"age secret key", "# created: now\n%s", tok("AGE-SECRET-KEY-1", aBech32, 58), "age-secret-key"},
		{"django insecure key", "SECRET = %s", tok("django-insecure-", aAlnum, 50), "django-secret"},
		{"jwt bare", "token %s here", jwt, "jwt"},
		{"jwt in cookie", "Cookie: session=%s; Path=/", jwt, "jwt"},
		{"jwt unsigned", "%s", "eyJ" + fake("u1", aURL, 17) + ".eyJ" + fake("u2", aURL, 20) + ".", "jwt"},
		{"rsa private key", "key:\n%s\n", pem("RSA PRIVATE KEY", true), "private-key"},
		{"openssh private key", "%s", pem("OPENSSH PRIVATE KEY", true), "private-key"},
		{"pkcs8 private key", "cat key.pem\n%s", pem("PRIVATE KEY", true), "private-key"},
		{"ec private key", "%s", pem("EC PRIVATE KEY", true), "private-key"},
		{"encrypted private key", "%s", pem("ENCRYPTED PRIVATE KEY", true), "private-key"},
		{"pgp private key block", "gpg --export-secret-keys -a\n%s\n", pem("PGP PRIVATE KEY BLOCK", true), "private-key"},
		{"private key cut before end", "head -3 id_rsa\n%s", pem("RSA PRIVATE KEY", false), "private-key"},
		{"bearer header", "Authorization: Bearer %s", fake("bh", aAlnum, 24), "bearer-token"},
		{"bearer lower case", "authorization: bearer %s", fake("bl", aAlnum, 22), "bearer-token"},
		{"bearer in curl", `curl -H "Authorization: Bearer %s" https://api.x`, "tok.en-with_mixed~chars+/=", "bearer-token"},
		{"bearer upper case", "AUTHORIZATION: BEARER %s", fake("bu", aB64, 24), "bearer-token"},
		{"bearer in prose", "call it with Bearer %s to test", fake("bp", aAlnum, 30) + "7", "bearer-token"},
		{"basic auth header", "Authorization: Basic %s", "dXNlcjpwYXNzd29yZDEyMw==", "basic-auth"},
		{"token auth header", "-H 'Authorization: Token %s'", fake("ta", aHex, 40), "basic-auth"},
		{"url password postgres", "DATABASE_URL=postgres://app:%s@db.internal:5432/app", "s3cr3tP4ss", "url-password"},
		{"url password https", "git remote add origin https://deploy:%s@git.example.com/r.git", "hunter2hunter2", "url-password"},
		{"url password redis", "redis://default:%s@cache:6379/0", "Zx9!vB7#", "url-password"},
		{"url password redis without user", "REDIS_URL=redis://:%s@cache:6379", "p4ssw0rd-no-user", "url-password"},
		{"url password amqp", "amqp://guest:%s@rabbit/", "guest-pass-42", "url-password"},
		{"url password mongodb srv", "mongodb+srv://admin:%s@cluster0.example.net/db", "m0ng0-S3cret", "url-password"},
		{"curl user", "curl -u admin:%s https://api.example.com", "curl-S3cret", "basic-auth"},
		{"curl user long flag", "curl --user 'admin:%s' https://x", "curl-long-S3cret", "basic-auth"},
		{"mysql attached password", "mysql -h db -u root -p%s shop", "MyS3cret!", "password"},
		{"password flag", "deploy --password %s --verbose", "flag-s3cret", "password"},
		{"token flag", "gh auth login --with-token x --token %s", "flag-token-9f8e7d6c", "token"},
		{"api key flag quoted", `tool --api-key "%s"`, "quoted flag key 42", "api-key"},
		{"netrc password", "machine api.example.com\n  login bob\n  password %s\n", "netrc-s3cret", "password"},

		// Secret-named keys.
		{"password assignment", "password=%s", "hunter2", "password"},
		{"password env upper", "DB_PASSWORD=%s ./run", "correct-horse-battery", "password"},
		{"passwd assignment", "passwd = %s", "letmein123", "password"},
		{"password quoted double", `password = "%s"`, "p@ss w0rd", "password"},
		{"password quoted single", `password='%s'`, "single-quoted-pw", "password"},
		{"password json key", `{"password": "%s"}`, "json-pass-value", "password"},
		{"password yaml quoted", `db_password: "%s"`, "yaml-pass-123", "password"},
		{"password yaml bare", "database:\n  user: app\n  password: %s\n  host: db", "yaml bare secret", "password"},
		{"password yaml list item", "users:\n  - password: %s\n", "listed-s3cret", "password"},
		{"short pass key", "DB_PASS=%s", "shortpass-9", "password"},
		{"pwd that is not a folder", "MYSQL_PWD=%s", "pwd-s3cret-1", "password"},
		{"connection string password", "Server=db;Database=app;User Id=sa;Password=%s;", "Adonet-S3cret", "password"},
		{"jdbc password", "jdbc:mysql://db/app?user=app&password=%s&ssl=true", "jdbc-s3cret", "password"},
		{"gpg passphrase", "GPG_PASSPHRASE=%s", "gpg-phrase-words-1", "password"},
		{"secret key base", "SECRET_KEY_BASE=%s", fake("skb", aHex, 64), "secret"},
		{"api_key assignment", "api_key=%s", "abcd1234efgh5678", "api-key"},
		{"apikey url query", "https://api.example.com/v1?apikey=%s&q=1", "QwErTy123456", "api-key"},
		{"api-key header style", "x-api-key=%s", "zyx987wvu654", "api-key"},
		{"api key header", "X-API-Key: %s", fake("xak", aAlnum, 32), "api-key"},
		{"api key header in curl", `curl -H "x-api-key: %s" https://x`, fake("xak2", aHex, 32), "api-key"},
		{"secret assignment", "secret=%s", "shh-its-a-secret", "secret"},
		{"client secret", "CLIENT_SECRET=%s", "cs_0123456789abcdef", "secret"},
		{"token assignment", "token=%s", "tkn_abcdef0123456789", "token"},
		{"access token query", "https://x.io/cb?access_token=%s&state=1", "ya29.a0Af-example", "token"},
		{"bot token toml", `bot_token = "%s"`, "123456:ABC-DEF1234ghIkl", "token"},
		{"refresh token json", `{"refresh_token":"%s"}`, "1//0gExampleRefresh", "token"},
		{"private_key assignment", "PRIVATE_KEY=%s", "0x4c0883a69102937d6231471b5dbb6204fe512961", "private-key"},
		{"access key camel", `{"accessKey": "%s"}`, "AK-example-value-1", "access-key"},
		{"secret key django", `SECRET_KEY = '%s'`, "django-insecure-abc123!@#", "secret"},
		{"docker config auth", `{"auths": {"https://index.docker.io/v1/": {"auth": "%s"}}}`, "dXNlcjpkb2NrZXItczNjcmV0", "basic-auth"},
		{"npmrc auth", "//registry.example.com/:_auth=%s", "dXNlcjpucG0tczNjcmV0", "basic-auth"},
		{"kubeconfig client key data", "users:\n- name: admin\n  user:\n    client-key-data: %s\n", "LS0tLS1CRUdJTi" + fake("kube", aB64, 60), "private-key"},
		{"kubeconfig token", "users:\n- name: ci\n  user:\n    token: %s\n", fake("kt", aAlnum, 40), "token"},
	}
}

func TestCorpusString(t *testing.T) {
	cases := corpus()
	if len(cases) < 120 {
		t.Fatalf("corpus has %d samples, want at least 120", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.Replace(tc.text, "%s", tc.secret, 1)
			got := String(in)
			if leaked(got, tc.secret) {
				t.Fatalf("secret survived:\n in: %q\nout: %q", in, got)
			}
			if want := Prefix + tc.kind + "]"; !strings.Contains(got, want) {
				t.Errorf("no %s in %q", want, got)
			}
			if b := Bytes([]byte(in)); string(b) != got {
				t.Errorf("Bytes = %q, String = %q", b, got)
			}
		})
	}
}

func TestCorpusJSONLine(t *testing.T) {
	for _, tc := range corpus() {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.Replace(tc.text, "%s", tc.secret, 1)
			for _, shape := range jsonShapes(t, in) {
				got := JSONLine(shape)
				if !json.Valid(got) {
					t.Fatalf("invalid JSON after redaction:\n in: %s\nout: %s", shape, got)
				}
				if leaks(t, got, tc.secret) {
					t.Fatalf("secret survived:\n in: %s\nout: %s", shape, got)
				}
			}
		})
	}
}

// jsonShapes puts text into the JSON places a stream carries it: a plain
// string value, a tool input, and a tool result whose text is itself JSON
// (so the secret sits inside escaped quotes).
func jsonShapes(t *testing.T, text string) [][]byte {
	t.Helper()
	inner, err := json.Marshal(map[string]any{"stdout": text, "exit_code": 0})
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, v := range []any{
		map[string]any{"type": "item.completed", "item": map[string]any{"id": "item_3", "type": "agent_message", "text": text}},
		map[string]any{"type": "assistant", "message": map[string]any{"id": "msg_01", "content": []any{
			map[string]any{"type": "tool_use", "id": "toolu_01ABC", "name": "Bash", "input": map[string]any{"command": text}}}}},
		map[string]any{"type": "user", "message": map[string]any{"content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": "toolu_01ABC", "content": string(inner)}}}},
	} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// leaks reports whether secret appears in any decoded string of a JSON
// document, at any nesting depth of JSON-in-a-string.
func leaks(t *testing.T, doc []byte, secret string) bool {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			if leaked(x, secret) {
				return true
			}
			var inner any
			if json.Unmarshal([]byte(x), &inner) == nil {
				return walk(inner)
			}
		case map[string]any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v) || leaked(string(doc), secret)
}

// leaked reports whether any 12 bytes of secret (all of it, when shorter)
// survive in out: a secret redacted only in part leaks too.
func leaked(out, secret string) bool {
	const w = 12
	if len(secret) <= w {
		return strings.Contains(out, secret)
	}
	for i := 0; i+w <= len(secret); i++ {
		if strings.Contains(out, secret[i:i+w]) {
			return true
		}
	}
	return false
}
