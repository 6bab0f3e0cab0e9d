package secret

import (
	"regexp"
	"strings"
	"sync"
)

// rule finds one kind of secret in a line. A line is tried only when its
// lowercased form contains one of the hints (a cheap prefilter), and a
// match is kept only when the group that holds the secret value passes
// check. Generic rules yield to earlier rules that matched the same span.
type rule struct {
	kind   string
	hints  []string // lowercase substrings; nil means always try
	also   string   // a substring the line (not lowercased) must hold too
	sep    string   // the line must hold one of these bytes (an assignment's)
	re     *regexp.Regexp
	groups []int // submatches that may hold the value, first present wins (none: whole match)
	check  func(value string) bool
	// generic rules yield to an earlier rule's overlapping match.
	generic bool
	// skip, when set, rejects a match by its context in the line.
	skip func(line string, m []int) bool
	// folded rules match the ASCII-lowercased line with a lowercase
	// pattern: much faster than (?i), and offsets stay the same, so the
	// value is still read from the original line.
	folded bool
}

// The patterns are RE2, so each runs in time linear in the line; the rule
// set is fixed, so a scan is linear in the text. Provider formats follow
// the providers' documentation and the rules of scanners such as gitleaks
// and GitHub secret scanning.
//
// The rules and their hint index are compiled on first use: compiling every
// pattern cost each pt process about 9 ms at start, and most commands never
// scan. compiledRules is set once and never changes.
var compiledRules = sync.OnceValues(func() ([]rule, *hintIndex) {
	rs := append(providerRules(), genericRules()...)
	return rs, newHintIndex(rs)
})

// providerRules recognise a credential by its own format: a prefix or a
// structure that nothing else has.
func providerRules() []rule {
	return []rule{
		{kind: "AWS access key", hints: []string{"akia", "asia"},
			re: regexp.MustCompile(`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`), check: notPlaceholder},
		{kind: "GitHub token", hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
			re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{50,255})\b`), check: looksRandom},
		{kind: "GitLab token", hints: []string{"glpat-", "glrt-", "gldt-", "glptt-", "glcbt-", "glimt-", "glsoat-", "glft-"},
			re: regexp.MustCompile(`\bgl(?:pat|rt|dt|ptt|cbt|imt|soat|ft)-[A-Za-z0-9_\-]{20,}`), check: looksRandom},
		{kind: "Slack webhook", hints: []string{"hooks.slack.com"},
			re: regexp.MustCompile(`https://hooks\.slack\.com/(?:services|workflows)/T[A-Za-z0-9_]+/[AB][A-Za-z0-9_]+/([A-Za-z0-9]{16,})`), groups: []int{1}, check: looksRandom},
		{kind: "Slack token", hints: []string{"xox", "xapp-"},
			re: regexp.MustCompile(`\b(?:xox[abeprs]-[A-Za-z0-9\-]{20,}|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]{32,})`), check: looksRandom},
		{kind: "Stripe key", hints: []string{"_live_", "_test_"},
			re: regexp.MustCompile(`\b[sr]k_(?:live|test)_[A-Za-z0-9]{20,}`), check: looksRandom},
		{kind: "Stripe webhook secret", hints: []string{"whsec_"},
			re: regexp.MustCompile(`\bwhsec_[A-Za-z0-9+/]{32,}`), check: looksRandom},
		{kind: "Google API key", hints: []string{"aiza"},
			re: regexp.MustCompile(`\bAIza[A-Za-z0-9_\-]{35}`), check: looksRandom},
		{kind: "Google OAuth client secret", hints: []string{"gocspx-"},
			re: regexp.MustCompile(`\bGOCSPX-[A-Za-z0-9_\-]{28}`), check: looksRandom},
		{kind: "Anthropic API key", hints: []string{"sk-ant-"},
			re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_\-]{32,}`), check: looksRandom},
		{kind: "OpenAI API key", hints: []string{"sk-"},
			re: regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_\-]{32,})`), groups: []int{1}, check: openAIKey},
		{kind: "JWT", hints: []string{"eyj"},
			re: regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`), check: notPlaceholder},
		{kind: "Azure storage account key", hints: []string{"accountkey="},
			re: regexp.MustCompile(`(?i)\bAccountKey=([A-Za-z0-9+/]{40,}={0,2})`), groups: []int{1}, check: base64Key},
		{kind: "Azure shared access key", hints: []string{"sharedaccesskey="},
			re: regexp.MustCompile(`(?i)\bSharedAccessKey=([A-Za-z0-9+/]{40,}={0,2})`), groups: []int{1}, check: base64Key},
		{kind: "Azure SAS signature", hints: []string{"sig="},
			re: regexp.MustCompile(`[?&;]sig=([A-Za-z0-9%+/]{30,}(?:=|%3[Dd])*)`), groups: []int{1}, check: looksRandom},
		{kind: "Azure client secret", hints: []string{"q~"},
			re: regexp.MustCompile(`(?:^|[^A-Za-z0-9_~.\-])([A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34})(?:[^A-Za-z0-9_~.\-]|$)`), groups: []int{1}, check: looksRandom},
		{kind: "npm token", hints: []string{"npm_"},
			re: regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`), check: looksRandom},
		{kind: "SendGrid API key", hints: []string{"sg."},
			re: regexp.MustCompile(`\bSG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}\b`), check: looksRandom},
		{kind: "Twilio auth token", hints: []string{"ac"}, also: "AC",
			re: regexp.MustCompile(`\bAC[0-9a-f]{32}\b["']?\s*[,:]\s*["']?([0-9a-f]{32})\b`), groups: []int{1}, check: looksRandom},
		{kind: "Twilio API key", hints: []string{"sk"}, also: "SK",
			re: regexp.MustCompile(`\bSK[0-9a-f]{32}\b`), check: looksRandom},
		{kind: "PyPI token", hints: []string{"pypi-"},
			re: regexp.MustCompile(`\bpypi-AgE[A-Za-z0-9_\-]{50,}`), check: looksRandom},
		{kind: "Discord bot token", hints: []string{"discord", "bot", "client.run"},
			re: regexp.MustCompile(`\b[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}\b`), check: looksRandom},
		{kind: "Discord webhook", hints: []string{"/api/webhooks/"},
			re: regexp.MustCompile(`discord(?:app)?\.com/api/webhooks/\d+/([A-Za-z0-9_\-]{60,})`), groups: []int{1}, check: looksRandom},
		{kind: "Hugging Face token", hints: []string{"hf_"},
			re: regexp.MustCompile(`\bhf_[A-Za-z0-9]{34,40}\b`), check: mixedCase},
		{kind: "Telegram bot token", hints: []string{":aa"},
			re: regexp.MustCompile(`(?:^|[^0-9])(\d{8,10}:AA[A-Za-z0-9_\-]{33})(?:[^A-Za-z0-9_\-]|$)`), groups: []int{1}, check: looksRandom},
		{kind: "Mailgun API key", hints: []string{"key-"},
			re: regexp.MustCompile(`\bkey-[0-9a-f]{32}\b`), check: looksRandom},
		{kind: "Mailchimp API key", hints: []string{"-us"},
			re: regexp.MustCompile(`\b[0-9a-f]{32}-us\d{1,2}\b`), check: looksRandom},
		{kind: "Shopify token", hints: []string{"shpat_", "shpca_", "shppa_", "shpss_"},
			re: regexp.MustCompile(`\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`), check: looksRandom},
		{kind: "DigitalOcean token", hints: []string{"_v1_"},
			re: regexp.MustCompile(`\bdo[opr]_v1_[a-f0-9]{64}\b`), check: looksRandom},
		{kind: "Atlassian API token", hints: []string{"atatt3"},
			re: regexp.MustCompile(`\bATATT3[A-Za-z0-9_\-=]{150,}`), check: looksRandom},
		{kind: "Databricks token", hints: []string{"dapi"},
			re: regexp.MustCompile(`\bdapi[a-f0-9]{32}(?:-\d)?\b`), check: looksRandom},
		{kind: "Postman API key", hints: []string{"pmak-"},
			re: regexp.MustCompile(`\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b`), check: looksRandom},
		{kind: "Square token", hints: []string{"eaaa", "sq0"},
			re: regexp.MustCompile(`\b(?:EAAA[A-Za-z0-9_\-]{60}|sq0(?:atp|csp)-[A-Za-z0-9_\-]{22,43})\b`), check: looksRandom},
		{kind: "Linear API key", hints: []string{"lin_api_"},
			re: regexp.MustCompile(`\blin_api_[A-Za-z0-9]{40}\b`), check: looksRandom},
		{kind: "Grafana token", hints: []string{"glsa_", "glc_"},
			re: regexp.MustCompile(`\b(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})`), check: looksRandom},
		{kind: "New Relic key", hints: []string{"nrak-"},
			re: regexp.MustCompile(`\bNRAK-[A-Z0-9]{27}\b`), check: looksRandom},
		{kind: "Vault token", hints: []string{"hvs.", "hvb."},
			re: regexp.MustCompile(`\bhv[sb]\.[A-Za-z0-9_\-]{24,}`), check: looksRandom},
		{kind: "Terraform Cloud token", hints: []string{".atlasv1."},
			re: regexp.MustCompile(`\b[a-z0-9]{14}\.atlasv1\.[a-z0-9_\-=]{60,}`), check: looksRandom},
		{kind: "Doppler token", hints: []string{"dp."},
			re: regexp.MustCompile(`\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b`), check: looksRandom},
		{kind: "Supabase token", hints: []string{"sbp_"},
			re: regexp.MustCompile(`\bsbp_[a-f0-9]{40}\b`), check: looksRandom},
		{kind: "Pulumi token", hints: []string{"pul-"},
			re: regexp.MustCompile(`\bpul-[a-f0-9]{40}\b`), check: looksRandom},
		{kind: "RubyGems key", hints: []string{"rubygems_"},
			re: regexp.MustCompile(`\brubygems_[a-f0-9]{48}\b`), check: looksRandom},
		{kind: "Figma token", hints: []string{"figd_"},
			re: regexp.MustCompile(`\bfigd_[A-Za-z0-9_\-]{40}`), check: looksRandom},
		{kind: "Sentry token", hints: []string{"sntrys_", "sntryu_"},
			re: regexp.MustCompile(`\bsntry[su]_[A-Za-z0-9_+/=]{40,}`), check: looksRandom},
		{kind: "Okta API token", hints: []string{"ssws"},
			re: regexp.MustCompile(`\bssws\s+(00[a-z0-9_\-]{40})`), groups: []int{1}, check: looksRandom, folded: true},
		{kind: "Alibaba Cloud access key", hints: []string{"ltai"},
			re: regexp.MustCompile(`\bLTAI[A-Za-z0-9]{12,20}\b`), check: looksRandom},
		{kind: "Firebase Cloud Messaging server key", hints: []string{":apa91b"},
			re: regexp.MustCompile(`\bAAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{130,}`), check: looksRandom},
		{kind: "age secret key", hints: []string{"age-secret-key-1"},
			re: regexp.MustCompile(`\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b`), check: notPlaceholder},
		{kind: "private key", hints: []string{"ls0tls1crudjti"},
			re: regexp.MustCompile(`LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}={0,2}`), check: base64PrivateKey},
		{kind: "Docker registry auth", hints: []string{`"auth"`},
			re: regexp.MustCompile(`"auth"\s*:\s*"([A-Za-z0-9+/]{8,}={0,2})"`), groups: []int{1}, check: basicCredentials},
	}
}

// genericRules recognise a credential by where it stands: an authorization
// header, a URL's password, an assignment to a name that says secret, a
// password on a command line.
func genericRules() []rule {
	return []rule{
		{kind: "bearer token", hints: []string{"bearer", "token"},
			re: regexp.MustCompile(`\bauthorization["']?\s*[:=]\s*["']?(?:bearer|token)\s+([a-z0-9._~+/\-]{20,}=*)`), groups: []int{1}, check: looksRandom, generic: true, folded: true},
		{kind: "basic auth header", hints: []string{"basic"},
			re: regexp.MustCompile(`\bauthorization["']?\s*[:=]\s*["']?basic\s+([a-z0-9+/]{8,}={0,2})`), groups: []int{1}, check: basicCredentials, generic: true, folded: true},
		{kind: "AWS secret access key", hints: []string{"aws"},
			re: regexp.MustCompile(`aws[a-z0-9_.\-]{0,20}secret[a-z0-9_.\-]{0,20}["']?\s*(?::=|=>|=|:)\s*["']?([a-z0-9/+=]{40})(?:[^a-z0-9/+=]|$)`), groups: []int{1}, check: looksRandom, folded: true},
		{kind: "credentialed URL", hints: []string{"://"}, also: "@",
			re: regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@?#\[\]()<>"'\x60]*:([^\s@/?#()<>"'\x60]+)@[A-Za-z0-9\[]`), groups: []int{1}, check: realPassword, generic: true},
		{kind: "password", hints: []string{"curl"},
			re: regexp.MustCompile(`\bcurl\b.*?\s(?:-u|--user)\s*['"]?[^\s:'"]+:([^\s'"]+)`), groups: []int{1}, check: strongPassword, generic: true},
		{kind: "secret assignment", hints: []string{"pass", "pwd", "secret", "key", "token", "credential", "_pat", "-pat"}, sep: ":=",
			re: regexp.MustCompile(`(` + secretNames + `)s?["']?\s*(?::=|=>|=|:)\s*(?:["']([^"'\s\x60]{16,})["']|["']?([^\s"'\x60,;<>(){}\[\]]{16,}))`), groups: []int{2, 3}, check: highEntropy, generic: true, skip: zoomPasscode, folded: true},
		{kind: "password", hints: []string{"pass", "pwd", "pw"}, sep: ":=",
			re: regexp.MustCompile(`(` + passwordNames + `)["']?\s*(?::=|=>|=|:)\s*(?:["']([^"'\s\x60]{6,64})["']|["']?([^\s"'\x60,;&<>(){}\[\]]{6,64}))`), groups: []int{2, 3}, check: strongPassword, generic: true, skip: zoomPasscode, folded: true},
		{kind: "password", hints: []string{"pass", "masterauth"},
			re: regexp.MustCompile(`(?:^|\s)(?:password|passwd|requirepass|masterauth)\s+(?:(?:is|was)\s+)?["']?([^\s"'\x60<>]{6,64})`), groups: []int{1}, check: strongPassword, generic: true, folded: true},
		{kind: "secret assignment", hints: []string{"value="},
			re: regexp.MustCompile(`\bkey\s*=\s*"(` + secretNames + `)"\s+value\s*=\s*"([^"\s]{16,})"`), groups: []int{2}, check: highEntropy, generic: true, folded: true},
		{kind: "password", hints: []string{"<pass", "<secret", "<token"},
			re: regexp.MustCompile(`<[a-z0-9_.\-]*(password|passwd|secret|token)>([^<\s]{6,})</`), groups: []int{2}, check: strongPassword, generic: true, folded: true},
		{kind: "password", hints: []string{"mysql", "mariadb", "sshpass", " login"},
			re: regexp.MustCompile(`\b(?:(?:mysql|mysqldump|mysqladmin|mariadb)\b.*?\s-p(?:'([^'\s]+)'|"([^"\s]+)"|([^\s'"]+))|(?:sshpass|docker login|podman login|registry login)\b.*?\s(?:-p|--password)[\s=]+(?:'([^'\s]+)'|"([^"\s]+)"|([^\s'"]+)))`), groups: []int{1, 2, 3, 4, 5, 6}, check: strongPassword, generic: true},
	}
}

// passwordNames end the names (lowercase) whose assigned value is a
// password: db_password, PGPASSWORD, admin_pass, ldap_bind_pw. A short
// pass or pw counts only as a word of its own, not in compass or bypass.
// The rules search for the end of a name only: a pattern that first
// matched any prefix would be tried, and fail, at every character.
const passwordNames = `(?:password|passwd|passphrase|pwd|(?:^|[^a-z0-9])(?:pass|pw))`

// secretNames end the names (lowercase) whose assigned value is a secret:
// db_password, client_secret, x-api-key, SecretAccessKey.
const secretNames = `(?:password|passwd|passphrase|pwd|secret|token|credential|api[_\-.]?key|apikey|` +
	`(?:private|access|secret|auth|account|storage|master|signing|encryption|client|app)[_\-.]?key|secret_key_base|[_\-]pat)`

// dataURI matches inline data (base64 images in Markdown): random-looking
// but not secret, so it is blanked before the rules run.
var dataURI = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`data:[a-zA-Z0-9.+\-/]+;base64,[A-Za-z0-9+/=]+`) })

// zoomPasscode: Zoom puts a hashed meeting passcode in invitation links
// (https://zoom.us/j/123?pwd=...). Teams publish these on purpose, and the
// Kubernetes community pages carry dozens; other ?key= parameters still count.
func zoomPasscode(line string, m []int) bool {
	ks := m[2]
	name := line[ks:m[3]]
	return ks > 0 && (line[ks-1] == '?' || line[ks-1] == '&') && strings.EqualFold(name, "pwd")
}
