package secret

import (
	"bytes"
	"sort"
	"strings"
)

// Finding is one secret-shaped string in a text. It carries the kind and
// the position but never the matched text, so that a finding can be logged,
// printed or returned over MCP without leaking what it found.
type Finding struct {
	Kind   string `json:"kind"`
	Line   int    `json:"line"`   // 1-based
	Column int    `json:"column"` // 1-based byte offset in the line
}

// Scan reports every secret-shaped string in text, in order of position.
// The kinds are those of the rules in rules.go, "private key" for key
// material in PEM, PuTTY or base64-wrapped PEM form, and two generic ones:
// "secret assignment" (a password, secret, key or token assigned a random
// value of 16 characters or more) and "password" (a shorter password
// assigned, passed on a command line or written in a config file).
//
// Placeholders are not secrets: a value containing EXAMPLE (AWS documents
// AKIAIOSFODNN7EXAMPLE), runs of x or *, <angle>, ${VAR}, $VAR or {{tmpl}}
// references, values without both letters and digits, well-known default
// passwords and documented public keys (Azurite's). A private key header
// counts only when key material follows it, so documentation that shows the
// header with "..." for the body passes.
func Scan(text []byte) []Finding {
	var out []Finding
	lines := bytes.Split(text, []byte("\n"))
	for i, raw := range lines {
		line := strings.TrimSuffix(string(raw), "\r")
		if col := privateKeyAt(line, lines[i+1:]); col > 0 {
			out = append(out, Finding{Kind: "private key", Line: i + 1, Column: col})
		}
		if i > 0 {
			if kind, col := namedValueAt(string(lines[i-1]), line); col > 0 {
				out = append(out, Finding{Kind: kind, Line: i + 1, Column: col})
			}
		}
		out = append(out, scanLine(line, i+1)...)
	}
	return out
}

func scanLine(line string, lineNo int) []Finding {
	if len(line) < 12 {
		return nil
	}
	if strings.Contains(line, ";base64,") {
		line = dataURI().ReplaceAllStringFunc(line, func(s string) string { return strings.Repeat(" ", len(s)) })
	}
	lower := asciiLower(line)
	rules, hints := compiledRules()
	active := hints.match(lower)
	var spans [][2]int
	var out []Finding
	for i, r := range rules {
		if !active.has(i) || r.also != "" && !strings.Contains(line, r.also) || r.sep != "" && !strings.ContainsAny(line, r.sep) {
			continue
		}
		subject := line
		if r.folded {
			subject = lower
		}
		for _, m := range r.re.FindAllStringSubmatchIndex(subject, -1) {
			vs, ve := valueSpan(m, r.groups)
			if vs < 0 || !r.check(line[vs:ve]) {
				continue
			}
			if r.generic && overlaps(spans, vs, ve) || r.skip != nil && r.skip(line, m) {
				continue
			}
			spans = append(spans, [2]int{m[0], m[1]})
			out = append(out, Finding{Kind: r.kind, Line: lineNo, Column: m[0] + 1})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Column < out[j].Column })
	return out
}

// valueSpan is the first of groups that took part in match m (0 is the
// whole match), or -1.
func valueSpan(m []int, groups []int) (int, int) {
	if len(groups) == 0 {
		return m[0], m[1]
	}
	for _, g := range groups {
		if s := m[2*g]; s >= 0 {
			return s, m[2*g+1]
		}
	}
	return -1, -1
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

func overlaps(spans [][2]int, s, e int) bool {
	for _, sp := range spans {
		if s < sp[1] && sp[0] < e {
			return true
		}
	}
	return false
}
