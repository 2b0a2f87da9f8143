// Package redacttest holds the redaction corpus: samples of every secret
// shape sift's redaction recognises, built at run time from fake
// alphabets so that nothing in the repository looks like a live
// credential. core/redact's tests check each is caught; other packages'
// tests place them around every place sift cuts text, to check a cut
// never keeps part of a secret. Only tests import it.
package redacttest

import (
	"hash/fnv"
	"strings"
)

// Case is one sample of the corpus: the text around the secret, the
// secret itself (which must disappear) and the kind its marker names.
type Case struct {
	Name   string
	Text   string // contains %s where the secret goes
	Secret string
	Kind   string
}

// Rep repeats s to n bytes.
func Rep(s string, n int) string { return strings.Repeat(s, n/len(s)+1)[:n] }

// Alphabets of the Fake secrets.
const (
	AAlnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	AUpper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	AHex    = "0123456789abcdef"
	AURL    = AAlnum + "-_"
	AB64    = AAlnum + "+/"
	ADigits = "0123456789"
	ABech32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
)

// Fake returns n bytes of alphabet, always the same for one seed. The
// Corpus builds every secret at run time from these, so that nothing in
// the repository looks like a live credential.
func Fake(seed, alphabet string, n int) string {
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

// Pem returns a Fake key block with the given label.
func Pem(label string, end bool) string {
	b := "-----BEGIN " + label + "-----\n" + Fake(label, AB64, 64) + "\n" + Fake(label+"2", AB64, 44)
	if end {
		b += "\n-----END " + label + "-----"
	}
	return b
}

// Tok returns a Fake token: prefix and a body of n bytes of alphabet.
func Tok(prefix, alphabet string, n int) string { return prefix + Fake(prefix, alphabet, n) }

// Corpus holds the secret samples; every one must be caught by String,
// Bytes and JSONLine (as a value and inside JSON nested in a string).
func Corpus() []Case {
	jwt := "eyJ" + Fake("jwt1", AURL, 30) + ".eyJ" + Fake("jwt2", AURL, 60) + "." + Fake("jwt3", AURL, 43)
	awsSecret := Fake("aws1", AAlnum, 18) + "/" + Fake("aws2", AAlnum, 12) + "+" + Fake("aws3", AAlnum, 8)
	uuid := func(seed string) string {
		return Fake(seed+"a", AHex, 8) + "-" + Fake(seed+"b", AHex, 4) + "-" + Fake(seed+"c", AHex, 4) + "-" +
			Fake(seed+"d", AHex, 4) + "-" + Fake(seed+"e", AHex, 12)
	}
	return []Case{
		// Cloud providers.
		{"aws access key id AKIA", "aws_access_key_id = %s", Tok("AKIA", AUpper, 16), "aws-access-key"},
		{"aws session key id ASIA", "export AWS_ACCESS_KEY_ID=%s", Tok("ASIA", AUpper, 16), "aws-access-key"},
		{"aws key id in prose", "the key %s was rotated", Tok("AKIA", AUpper, 16), "aws-access-key"},
		{"aws role id AROA", "role %s", Tok("AROA", AUpper, 16), "aws-access-key"},
		{"aws user id AIDA", "UserId: %s", Tok("AIDA", AUpper, 16), "aws-access-key"},
		{"aws secret in env", "AWS_SECRET_ACCESS_KEY=%s", awsSecret, "aws-secret-key"},
		{"aws secret in ini", "aws_secret_access_key = %s", awsSecret, "aws-secret-key"},
		{"aws secret json", `{"SecretAccessKey": "%s"}`, Fake("sak", AAlnum, 40), "aws-secret-key"},
		{"aws secret without a label", "the second value is %s, keep it safe", awsSecret, "aws-secret-key"},
		{"aws secret in a credentials csv", "AKIAEXAMPLEEXAMPLE12,%s", awsSecret, "aws-secret-key"},
		{"google api key", "https://maps.googleapis.com/x?key=%s", Tok("AIza", AURL, 35), "google-api-key"},
		{"google api key in json", `{"apiKey":"%s"}`, Tok("AIza", AURL, 35), "google-api-key"},
		{"google oauth client secret", "client_id=1.apps.googleusercontent.com secret %s", Tok("GOCSPX-", AURL, 28), "google-oauth-secret"},
		{"google oauth access token", "got %s from the metadata server", Tok("ya29.", AURL, 120), "google-oauth-token"},
		{"google refresh token", "refresh: %s", Tok("1//0", AURL, 80), "google-refresh-token"},
		{"alibaba access key", "ALIBABA_ID %s", Tok("LTAI", AAlnum, 20), "alibaba-key"},
		{"digitalocean pat", "doctl auth init -t %s", Tok("dop_v1_", AHex, 64), "digitalocean-token"},
		{"digitalocean oauth", "%s", Tok("doo_v1_", AHex, 64), "digitalocean-token"},
		{"databricks token", "DATABRICKS_HOST=x %s", Tok("dapi", AHex, 32), "databricks-token"},
		{"cloudflare origin ca key", "%s", "v1.0-" + Fake("cf1", AHex, 24) + "-" + Fake("cf2", AHex, 146), "cloudflare-key"},
		{"heroku api key", "heroku %s", Tok("HRKU-", AURL, 60), "heroku-key"},
		{"fly.io token", "FLY %s", Tok("fo1_", AURL, 43), "flyio-token"},
		{"fly.io macaroon", "FlyV1 %s", Tok("fm2_", AB64, 120), "flyio-token"},
		{"openshift token", "oc login --server=x %s", Tok("sha256~", AURL, 43), "openshift-token"},
		{"yandex api key", "%s", Tok("AQVN", AURL, 36), "yandex-key"},
		{"vault service token", "VAULT=%s", Tok("hvs.", AURL, 90), "vault-token"},
		{"vault batch token", "%s", Tok("hvb.", AURL, 130), "vault-token"},
		{"doppler token", "%s", Tok("dp.pt.", AAlnum, 43), "doppler-token"},
		{"pulumi token", "login %s", Tok("pul-", AHex, 40), "pulumi-token"},
		{"scalingo token", "%s", Tok("tk-us-", AURL, 48), "scalingo-token"},
		{"dynatrace token", "%s", "dt0c01." + Fake("dt1", AUpper, 24) + "." + Fake("dt2", AUpper, 64), "dynatrace-token"},
		{"planetscale token", "%s", Tok("pscale_tkn_", AURL, 43), "planetscale-token"},
		{"planetscale password", "%s", Tok("pscale_pw_", AURL, 43), "planetscale-token"},
		{"netlify token", "%s", Tok("nfp_", AAlnum, 40), "netlify-token"},
		{"azure storage connection string", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=%s;EndpointSuffix=core.windows.net", Fake("azk", AB64, 86) + "==", "azure-storage-key"},
		{"azure sas signature", "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=%s", Fake("sas", AAlnum, 40) + "%2B" + Fake("sas2", AAlnum, 3) + "%3D", "azure-sas"},
		{"azure client secret", "AZURE %s", Fake("azc", AAlnum, 3) + "8Q~" + Fake("azc2", AURL, 34), "azure-client-secret"},
		{"terraform cloud token", "%s", Fake("tf", AAlnum, 14) + ".atlasv1." + Fake("tf2", AURL, 67), "terraform-token"},

		// Code hosting and package registries.
		{"github classic pat", "git clone https://x:%s@github.com/a/b", Tok("ghp_", AAlnum, 36), "github-token"},
		{"github oauth token", "token %s", Tok("gho_", AAlnum, 36), "github-token"},
		{"github token as a url user", "git clone https://%s:x-oauth-basic@github.com/o/r", Tok("ghp_", AAlnum, 36), "github-token"},
		{"github user-to-server", "GH=%s", Tok("ghu_", AAlnum, 36), "github-token"},
		{"github server-to-server", "Authorization: token %s", Tok("ghs_", AAlnum, 36), "github-token"},
		{"github refresh token", "refresh with %s now", Tok("ghr_", AAlnum, 76), "github-token"},
		{"github fine-grained pat", "GITHUB_TOKEN=%s", "github_pat_11" + Fake("ghpat", AAlnum, 20) + "_" + Fake("ghpat2", AAlnum, 59), "github-token"},
		{"gitlab pat", "git remote set-url origin x %s", Tok("glpat-", AURL, 20), "gitlab-token"},
		{"gitlab trigger token", "%s", Tok("glptt-", AHex, 40), "gitlab-token"},
		{"gitlab deploy token", "%s", Tok("gldt-", AURL, 20), "gitlab-token"},
		{"gitlab runner token", "%s", Tok("glrt-", AURL, 20), "gitlab-token"},
		{"gitlab runner registration", "%s", Tok("GR1348941", AURL, 20), "gitlab-token"},
		{"atlassian api token", "JIRA_API_TOKEN %s", Tok("ATATT3", AURL, 182), "atlassian-token"},
		{"bitbucket app password", "%s", Tok("ATBB", AAlnum, 32), "atlassian-token"},
		{"npm token bare", "//registry.npmjs.org/ %s", Tok("npm_", AAlnum, 36), "npm-token"},
		{"npm token in npmrc", "//registry.npmjs.org/:_authToken=%s", Tok("npm_", AAlnum, 36), "npm-token"},
		{"pypi token", "password = %s", Tok("pypi-AgEIcHlwaS5vcmc", AURL, 80), "pypi-token"},
		{"rubygems key", "%s", Tok("rubygems_", AHex, 48), "rubygems-key"},
		{"clojars token", "%s", Tok("CLOJARS_", AAlnum, 60), "clojars-token"},
		{"artifactory key", "%s", Tok("AKCp", AAlnum, 69), "artifactory-key"},
		{"sonar token", "sonar.login=%s", Tok("squ_", AHex, 40), "sonar-token"},
		{"sourcegraph token", "%s", Tok("sgp_", AHex, 40), "sourcegraph-token"},
		{"readme key", "%s", Tok("rdme_", AAlnum, 70), "readme-key"},
		{"prefect key", "%s", Tok("pnu_", AAlnum, 36), "prefect-key"},
		{"infracost key", "%s", Tok("ico-", AAlnum, 32), "infracost-key"},

		// AI providers.
		{"anthropic api key", "ANTHROPIC_API_KEY=%s", Tok("sk-ant-api03-", AURL, 95), "anthropic-key"},
		{"anthropic oauth token", "using %s for auth", Tok("sk-ant-oat01-", AURL, 80), "anthropic-key"},
		{"openai legacy key", "OPENAI_API_KEY=%s", Tok("sk-", AAlnum, 48), "openai-key"},
		{"openai project key", "key: %s", Tok("sk-proj-", AURL, 156), "openai-key"},
		{"openai service account key", "%s", Tok("sk-svcacct-", AURL, 60), "openai-key"},
		{"openai key in quotes", `client = OpenAI(api_key="%s")`, Tok("sk-", AAlnum, 48), "openai-key"},
		{"deepseek style key", "%s", Tok("sk-", AHex, 32), "openai-key"},
		{"huggingface token", "huggingface-cli login --token x %s", Tok("hf_", AAlnum, 34), "huggingface-token"},
		{"huggingface org token", "%s", Tok("api_org_", AAlnum, 34), "huggingface-token"},
		{"groq key", "%s", Tok("gsk_", AAlnum, 52), "groq-key"},
		{"perplexity key", "%s", Tok("pplx-", AAlnum, 48), "perplexity-key"},
		{"langsmith key", "%s", "lsv2_pt_" + Fake("ls", AHex, 32) + "_" + Fake("ls2", AHex, 10), "langsmith-key"},

		// Communication and SaaS.
		{"slack bot token", "SLACK=%s", "xoxb-" + Fake("sb1", ADigits, 10) + "-" + Fake("sb2", ADigits, 13) + "-" + Fake("sb3", AAlnum, 24), "slack-token"},
		{"slack user token", "use %s", "xoxp-" + Fake("su1", ADigits, 10) + "-" + Fake("su2", ADigits, 12) + "-" + Fake("su3", AHex, 32), "slack-token"},
		{"slack app token", "%s", "xapp-1-A" + Fake("sa1", AUpper, 10) + "-" + Fake("sa2", ADigits, 13) + "-" + Fake("sa3", AHex, 64), "slack-token"},
		{"slack refresh token", "r=%s;", Tok("xoxe-1-", AAlnum, 40), "slack-token"},
		{"slack webhook", "curl -X POST %s", "https://hooks.slack.com/services/T" + Fake("sw1", AUpper, 8) + "/B" + Fake("sw2", AUpper, 8) + "/" + Fake("sw3", AAlnum, 24), "slack-webhook"},
		{"discord webhook", "POST %s", "https://discord.com/api/webhooks/" + Fake("dw1", ADigits, 18) + "/" + Fake("dw2", AURL, 68), "discord-webhook"},
		{"teams webhook", "%s", "https://contoso.webhook.office.com/webhookb2/" + uuid("t1") + "@" + uuid("t2") + "/IncomingWebhook/" + Fake("tw", AHex, 32) + "/" + uuid("t3"), "teams-webhook"},
		{"telegram bot token", "TELEGRAM_BOT=%s", Fake("tg1", ADigits, 10) + ":AA" + Fake("tg2", AURL, 33), "telegram-bot-token"},
		{"telegram bot api url", "https://api.telegram.org/bot%s/sendMessage", Fake("tg3", ADigits, 9) + ":AA" + Fake("tg4", AURL, 33), "telegram-bot-token"},
		{"sendgrid key", "SENDGRID %s", "SG." + Fake("sg1", AURL, 22) + "." + Fake("sg2", AURL, 43), "sendgrid-key"},
		{"mailgun key", "api:%s", Tok("key-", AHex, 32), "mailgun-key"},
		{"mailchimp key", "MAILCHIMP %s", Fake("mc", AHex, 32) + "-us12", "mailchimp-key"},
		{"sendinblue key", "%s", "xkeysib-" + Fake("sib", AHex, 64) + "-" + Fake("sib2", AAlnum, 16), "sendinblue-key"},
		{"linear api key", "%s", Tok("lin_api_", AAlnum, 40), "linear-key"},
		{"linear oauth token", "%s", Tok("lin_oauth_", AHex, 64), "linear-key"},
		{"postman key", "%s", "PMAK-" + Fake("pm1", AHex, 24) + "-" + Fake("pm2", AHex, 34), "postman-key"},
		{"new relic user key", "%s", Tok("NRAK-", AUpper, 27), "newrelic-key"},
		{"sentry org token", "%s", Tok("sntrys_", AB64, 80), "sentry-token"},
		{"sentry user token", "%s", Tok("sntryu_", AHex, 64), "sentry-token"},
		{"typeform token", "%s", Tok("tfp_", AURL, 59), "typeform-token"},
		{"dropbox short-lived token", "%s", Tok("sl.", AURL, 140), "dropbox-token"},
		{"easypost key", "%s", Tok("EZAK", AAlnum, 54), "easypost-key"},
		{"frame.io token", "%s", Tok("fio-u-", AURL, 64), "frameio-token"},
		{"1password service account", "OP_SERVICE_ACCOUNT_TOKEN %s", Tok("ops_eyJ", AB64, 250), "onepassword-token"},
		{"adafruit key", "%s", Tok("aio_", AAlnum, 28), "adafruit-key"},
		{"duffel token", "%s", Tok("duffel_test_", AURL, 43), "duffel-token"},
		{"intra42 secret", "%s", Tok("s-s4t2ud-", AHex, 64), "intra42-secret"},
		{"mapbox secret token", "%s", "sk.eyJ" + Fake("mb1", AURL, 60) + "." + Fake("mb2", AURL, 22), "mapbox-token"},
		{"grafana cloud token", "%s", Tok("glc_", AB64, 60), "grafana-token"},
		{"grafana service account", "%s", "glsa_" + Fake("gs1", AAlnum, 32) + "_" + Fake("gs2", AHex, 8), "grafana-token"},
		{"twilio api key", "TWILIO %s", Tok("SK", AHex, 32), "twilio-key"},

		// Payments.
		{"stripe secret live", "stripe.api_key = '%s'", Tok("sk_live_", AAlnum, 24), "stripe-key"},
		{"stripe secret test", "STRIPE=%s", Tok("sk_test_", AAlnum, 40), "stripe-key"},
		{"stripe restricted live", "%s", Tok("rk_live_", AAlnum, 40), "stripe-key"},
		{"stripe webhook secret", "whsec=%s", Tok("whsec_", AAlnum, 32), "stripe-key"},
		{"square access token", "%s", Tok("sq0atp-", AURL, 22), "square-token"},
		{"square oauth secret", "%s", Tok("sq0csp-", AURL, 43), "square-token"},
		{"square production token", "%s", Tok("EAAA", AURL, 60), "square-token"},
		{"flutterwave secret", "%s", "FLWSECK_TEST-" + Fake("flw", AHex, 32) + "-X", "flutterwave-key"},
		{"shopify access token", "X-Shopify-Access-Token: %s", Tok("shpat_", AHex, 32), "shopify-token"},
		{"shopify shared secret", "%s", Tok("shpss_", AHex, 32), "shopify-token"},
		{"shippo token", "%s", Tok("shippo_live_", AHex, 40), "shippo-token"},

		// Key blocks and generic shapes.
		{"age secret key", "# created: now\n%s", Tok("AGE-SECRET-KEY-1", ABech32, 58), "age-secret-key"},
		{"django insecure key", "SECRET = %s", Tok("django-insecure-", AAlnum, 50), "django-secret"},
		{"jwt bare", "token %s here", jwt, "jwt"},
		{"jwt in cookie", "Cookie: session=%s; Path=/", jwt, "jwt"},
		{"jwt unsigned", "%s", "eyJ" + Fake("u1", AURL, 17) + ".eyJ" + Fake("u2", AURL, 20) + ".", "jwt"},
		{"rsa private key", "key:\n%s\n", Pem("RSA PRIVATE KEY", true), "private-key"},
		{"openssh private key", "%s", Pem("OPENSSH PRIVATE KEY", true), "private-key"},
		{"pkcs8 private key", "cat key.Pem\n%s", Pem("PRIVATE KEY", true), "private-key"},
		{"ec private key", "%s", Pem("EC PRIVATE KEY", true), "private-key"},
		{"encrypted private key", "%s", Pem("ENCRYPTED PRIVATE KEY", true), "private-key"},
		{"pgp private key block", "gpg --export-secret-keys -a\n%s\n", Pem("PGP PRIVATE KEY BLOCK", true), "private-key"},
		{"private key cut before end", "head -3 id_rsa\n%s", Pem("RSA PRIVATE KEY", false), "private-key"},
		{"bearer header", "Authorization: Bearer %s", Fake("bh", AAlnum, 24), "bearer-token"},
		{"bearer lower case", "authorization: bearer %s", Fake("bl", AAlnum, 22), "bearer-token"},
		{"bearer in curl", `curl -H "Authorization: Bearer %s" https://api.x`, "Tok.en-with_mixed~chars+/=", "bearer-token"},
		{"bearer upper case", "AUTHORIZATION: BEARER %s", Fake("bu", AB64, 24), "bearer-token"},
		{"bearer in prose", "call it with Bearer %s to test", Fake("bp", AAlnum, 30) + "7", "bearer-token"},
		{"basic auth header", "Authorization: Basic %s", "dXNlcjpwYXNzd29yZDEyMw==", "basic-auth"},
		{"token auth header", "-H 'Authorization: Token %s'", Fake("ta", AHex, 40), "basic-auth"},
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
		{"secret key base", "SECRET_KEY_BASE=%s", Fake("skb", AHex, 64), "secret"},
		{"api_key assignment", "api_key=%s", "abcd1234efgh5678", "api-key"},
		{"apikey url query", "https://api.example.com/v1?apikey=%s&q=1", "QwErTy123456", "api-key"},
		{"api-key header style", "x-api-key=%s", "zyx987wvu654", "api-key"},
		{"api key header", "X-API-Key: %s", Fake("xak", AAlnum, 32), "api-key"},
		{"api key header in curl", `curl -H "x-api-key: %s" https://x`, Fake("xak2", AHex, 32), "api-key"},
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
		{"kubeconfig client key data", "users:\n- name: admin\n  user:\n    client-key-data: %s\n", "LS0tLS1CRUdJTi" + Fake("kube", AB64, 60), "private-key"},
		{"kubeconfig token", "users:\n- name: ci\n  user:\n    token: %s\n", Fake("kt", AAlnum, 40), "token"},
	}
}
