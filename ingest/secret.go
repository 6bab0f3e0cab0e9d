package ingest

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
)

// SecretFinding is one secret-shaped string in a text. It carries the kind
// and the position but never the matched text, so that a finding can be
// logged, printed or returned over MCP without leaking what it found.
type SecretFinding struct {
	Kind   string `json:"kind"`
	Line   int    `json:"line"`   // 1-based
	Column int    `json:"column"` // 1-based byte offset in the line
}

// SecretError is returned by CheckSecrets when a text carries a secret. It is
// a type (not a sentinel) because callers report the kind and the line to the
// person who tried to write the page. The message never includes the secret.
type SecretError struct {
	Path string
	Kind string
	Line int // 0 for a one-line value
	// Op is the operation that refused the text ("ingest" when empty), so
	// that a consult's or a retro's refusal does not read as an ingest's.
	Op string
	// Field names a caller's value (CheckLine's title, a consult's
	// answer) instead of a page.
	Field string
}

// Error names the operation, the page or the value, the kind and the line,
// in the project's error style; the secret itself is never part of it.
func (e *SecretError) Error() string {
	op := e.Op
	if op == "" {
		op = "ingest"
	}
	var at string
	if e.Line > 0 {
		at = fmt.Sprintf(" at line %d", e.Line)
	}
	if e.Field != "" {
		return fmt.Sprintf("%s: %s: refusing secret (%s)%s", op, e.Field, e.Kind, at)
	}
	return fmt.Sprintf("%s %s: refusing secret (%s)%s", op, e.Path, e.Kind, at)
}

// CheckSecrets is the secret gate that every write path runs before anything
// is written (DESIGN.md §5). It returns nil, or a *SecretError naming the
// first finding of ScanSecrets.
func CheckSecrets(path string, text []byte) error {
	return checkSecretsAs("ingest", path, text)
}

// checkSecretsAs is CheckSecrets for the operation op ("consult", "retro").
func checkSecretsAs(op, path string, text []byte) error {
	f := ScanSecrets(text)
	if len(f) == 0 {
		return nil
	}
	return &SecretError{Op: op, Path: path, Kind: f[0].Kind, Line: f[0].Line}
}

// secretRule finds one kind of secret in a line. A line is tried only when
// it contains one of the hints (a cheap prefilter), and a match is kept only
// when the group that holds the secret value passes check. Generic rules
// yield to specific ones that matched the same span.
type secretRule struct {
	kind    string
	hints   []string // lowercase substrings; nil means always try
	also    string   // a second substring the line must hold too ("" for none)
	re      *regexp.Regexp
	group   int // submatch holding the secret value (0: whole match)
	check   func(value string) bool
	generic bool
	// skip, when set, rejects a match by its context in the line.
	skip func(line string, m []int) bool
	// folded rules match the ASCII-lowercased line with a lowercase
	// pattern: much faster than (?i), and offsets stay the same, so the
	// value is still read from the original line.
	folded bool
}

// The patterns are RE2, so each runs in time linear in the line; the rule
// set is fixed, so a scan is linear in the text.
var secretRules = []secretRule{
	{kind: "AWS access key", hints: []string{"akia", "asia"},
		re: regexp.MustCompile(`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`), check: notPlaceholder},
	{kind: "GitHub token", hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{50,255})\b`), check: looksRandom},
	{kind: "GitLab token", hints: []string{"glpat-"},
		re: regexp.MustCompile(`\bglpat-[A-Za-z0-9_\-]{20,}`), check: looksRandom},
	{kind: "Slack webhook", hints: []string{"hooks.slack.com"},
		re: regexp.MustCompile(`https://hooks\.slack\.com/services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/([A-Za-z0-9]{16,})`), group: 1, check: looksRandom},
	{kind: "Slack token", hints: []string{"xox"},
		re: regexp.MustCompile(`\bxox[baprs]-[A-Za-z0-9\-]{20,}`), check: looksRandom},
	{kind: "Stripe live key", hints: []string{"_live_"},
		re: regexp.MustCompile(`\b[sr]k_live_[A-Za-z0-9]{20,}`), check: looksRandom},
	{kind: "Google API key", hints: []string{"aiza"},
		re: regexp.MustCompile(`\bAIza[A-Za-z0-9_\-]{35}`), check: looksRandom},
	{kind: "Anthropic API key", hints: []string{"sk-ant-"},
		re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_\-]{32,}`), check: looksRandom},
	{kind: "OpenAI API key", hints: []string{"sk-"},
		re: regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_\-]{32,})`), group: 1, check: openAIKey},
	{kind: "JWT", hints: []string{"eyj"},
		re: regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`), check: notPlaceholder},
	{kind: "bearer token", hints: []string{"bearer"},
		re: regexp.MustCompile(`\bauthorization["']?\s*[:=]\s*["']?bearer\s+([a-z0-9._~+/\-]{20,}=*)`), group: 1, check: looksRandom, generic: true, folded: true},
	{kind: "AWS secret access key", hints: []string{"aws"},
		re: regexp.MustCompile(`aws[a-z0-9_.\-]{0,20}secret[a-z0-9_.\-]{0,20}["']?\s*(?::=|=>|=|:)\s*["']?([a-z0-9/+=]{40})(?:[^a-z0-9/+=]|$)`), group: 1, check: looksRandom, folded: true},
	{kind: "credentialed URL", hints: []string{"://"}, also: "@",
		re: regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@?#\[\]()<>"'\x60]+:([^\s@/?#()<>"'\x60]+)@[A-Za-z0-9\[]`), group: 1, check: realPassword, generic: true},
	{kind: "secret assignment", hints: []string{"pass", "pwd", "secret", "key", "token", "credential"},
		re: regexp.MustCompile(`((?:password|passwd|pwd|secret|api[_\-]?key|access[_\-]?key|private[_\-]?key|token|credential)s?)["']?\s*(?::=|=>|=|:)\s*["']?([^\s"'\x60,;<>(){}\[\]]{16,})`), group: 2, check: highEntropy, generic: true, skip: zoomPasscode, folded: true},
}

// dataURI matches inline data (base64 images in Markdown): random-looking
// but not secret, so it is blanked before the rules run.
var dataURI = regexp.MustCompile(`data:[a-zA-Z0-9.+\-/]+;base64,[A-Za-z0-9+/=]+`)

var privateKeyHeader = regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`)

// ScanSecrets reports every secret-shaped string in text, in order of
// position. Kinds: "AWS access key", "AWS secret access key", "GitHub token",
// "GitLab token", "Slack token", "Slack webhook", "Stripe live key", "Google
// API key", "OpenAI API key", "Anthropic API key", "private key", "JWT",
// "bearer token", "credentialed URL" and "secret assignment" (a
// password/secret/key/token assignment whose value has high entropy).
//
// Placeholders are not secrets: a value containing EXAMPLE (AWS documents
// AKIAIOSFODNN7EXAMPLE), runs of x or *, <angle>, ${VAR}, $VAR or {{tmpl}}
// references, and values without both letters and digits. A private key
// header counts only when key material follows it, so documentation that
// shows the header with "..." for the body passes.
func ScanSecrets(text []byte) []SecretFinding {
	var out []SecretFinding
	lines := bytes.Split(text, []byte("\n"))
	for i, raw := range lines {
		line := strings.TrimSuffix(string(raw), "\r")
		if loc := privateKeyHeader.FindStringIndex(line); loc != nil && keyMaterialFollows(lines[i+1:]) {
			out = append(out, SecretFinding{Kind: "private key", Line: i + 1, Column: loc[0] + 1})
		}
		out = append(out, scanLine(line, i+1)...)
	}
	return out
}

func scanLine(line string, lineNo int) []SecretFinding {
	if len(line) < 16 {
		return nil
	}
	if strings.Contains(line, ";base64,") {
		line = dataURI.ReplaceAllStringFunc(line, func(s string) string { return strings.Repeat(" ", len(s)) })
	}
	lower := asciiLower(line)
	var spans [][2]int
	var out []SecretFinding
	for _, r := range secretRules {
		if !hasAny(lower, r.hints) || (r.also != "" && !strings.Contains(lower, r.also)) {
			continue
		}
		subject := line
		if r.folded {
			subject = lower
		}
		for _, m := range r.re.FindAllStringSubmatchIndex(subject, -1) {
			vs, ve := m[2*r.group], m[2*r.group+1]
			if vs < 0 || !r.check(line[vs:ve]) {
				continue
			}
			if r.generic && overlaps(spans, vs, ve) || r.skip != nil && r.skip(line, m) {
				continue
			}
			spans = append(spans, [2]int{m[0], m[1]})
			out = append(out, SecretFinding{Kind: r.kind, Line: lineNo, Column: m[0] + 1})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Column < out[j].Column })
	return out
}

// zoomPasscode: Zoom puts a hashed meeting passcode in invitation links
// (https://zoom.us/j/123?pwd=...). Teams publish these on purpose, and the
// Kubernetes community pages carry dozens; other ?key= parameters still count.
func zoomPasscode(line string, m []int) bool {
	ks := m[2]
	return ks > 0 && (line[ks-1] == '?' || line[ks-1] == '&') && strings.EqualFold(line[ks:m[3]], "pwd")
}

// asciiLower lowercases A-Z only, so that byte offsets are unchanged.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func hasAny(s string, subs []string) bool {
	if subs == nil {
		return true
	}
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func overlaps(spans [][2]int, s, e int) bool {
	for _, sp := range spans {
		if s < sp[1] && sp[0] < e {
			return true
		}
	}
	return false
}

// keyMaterialFollows reports whether one of the next few lines looks like
// the base64 body of a PEM block (headers like Proc-Type may come first).
func keyMaterialFollows(next [][]byte) bool {
	for i := 0; i < len(next) && i < 4; i++ {
		l := strings.TrimSpace(strings.TrimSuffix(string(next[i]), "\r"))
		if len(l) >= 32 && isBase64(l) && looksRandom(l) {
			return true
		}
	}
	return false
}

func isBase64(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}

var placeholderWords = []string{"example", "xxxx", "****", "....", "your", "redacted", "placeholder", "changeme", "dummy", "<", "${", "{{", "%s", "$("}

// notPlaceholder rejects values that documentation uses in place of a real
// secret. EXAMPLE is matched case-insensitively: AWS's documented keys end
// in EXAMPLE and EXAMPLEKEY, and nobody's real key says so.
func notPlaceholder(v string) bool {
	l := strings.ToLower(v)
	for _, w := range placeholderWords {
		if strings.Contains(l, w) {
			return false
		}
	}
	return !strings.HasPrefix(v, "$")
}

// looksRandom: a real token mixes letters and digits; prose, identifiers and
// YOUR_TOKEN_HERE do not.
func looksRandom(v string) bool {
	var letter, digit bool
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letter = true
		}
	}
	return letter && digit && notPlaceholder(v)
}

// openAIKey keeps sk-ant- keys for their own rule and wants a random tail.
func openAIKey(v string) bool {
	return !strings.HasPrefix(v, "ant-") && looksRandom(v)
}

var passwordPlaceholders = map[string]bool{
	"password": true, "passwd": true, "pass": true, "pwd": true, "pw": true,
	"secret": true, "token": true, "apikey": true, "mypassword": true,
	"yourpassword": true, "foo": true, "bar": true, "baz": true, "test": true,
	"user": true, "username": true, "x": true, "p": true,
}

// realPassword tells a credentialed URL from documentation of one:
// user:password@, user:<password>@, user:${PASS}@, user:****@ are not secrets.
func realPassword(v string) bool {
	if passwordPlaceholders[strings.ToLower(v)] || !notPlaceholder(v) {
		return false
	}
	if strings.ContainsAny(v, "$%{}*") {
		return false
	}
	return true
}

// minSecretEntropy is the Shannon entropy (bits per character) above which a
// 16+ character assigned value counts as random. English words and
// identifiers sit near 3 or below at these lengths; random base62 of 16
// characters is near 3.7 and rises with length.
const minSecretEntropy = 3.3

func highEntropy(v string) bool {
	return len(v) >= 16 && looksRandom(v) && shannon(v) >= minSecretEntropy && !looksLikePath(v)
}

// looksLikePath: "token: /var/run/secrets/..." names where a secret lives.
func looksLikePath(v string) bool {
	for _, p := range []string{"/", "./", "../", "~/", "-"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return strings.Contains(v, "://")
}

func shannon(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var h float64
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
