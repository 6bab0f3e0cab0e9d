package secret

import (
	"encoding/base64"
	"regexp"
	"strings"
	"sync"
)

var privateKeyHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`)
})

// privateKeyAt returns the 1-based column of a private key that starts on
// line, 0 when none does: a PEM header followed by key material on the
// next lines (also inside a blockquote, a comment or an indented YAML
// block), or on the same line after escaped newlines (a JSON string, as in
// a GCP service-account file, or an environment variable), or PuTTY's
// Private-Lines.
func privateKeyAt(line string, next [][]byte) int {
	if strings.HasPrefix(line, "Private-Lines:") && keyMaterialFollows(next) {
		return 1
	}
	loc := privateKeyHeader().FindStringIndex(line)
	if loc == nil {
		return 0
	}
	if rest := line[loc[1]:]; strings.HasPrefix(rest, `\n`) || strings.HasPrefix(rest, `\r\n`) {
		parts := strings.Split(strings.ReplaceAll(rest, `\r\n`, `\n`), `\n`)
		for i := 1; i < len(parts) && i < 5; i++ {
			if keyMaterial(parts[i]) {
				return loc[0] + 1
			}
		}
		return 0
	}
	if keyMaterialFollows(next) {
		return loc[0] + 1
	}
	return 0
}

// keyMaterialFollows reports whether one of the next few lines looks like
// the base64 body of a key (headers like Proc-Type may come first).
func keyMaterialFollows(next [][]byte) bool {
	for i := 0; i < len(next) && i < 4; i++ {
		if keyMaterial(string(next[i])) {
			return true
		}
	}
	return false
}

// keyMaterial reports whether l, once the quoting around it is dropped
// (blockquote, comment, indentation, a JSON string's quotes), is a line of
// random base64.
func keyMaterial(l string) bool {
	l = strings.TrimSuffix(l, "\r")
	l = strings.TrimLeft(l, " \t>#;*|")
	l = strings.TrimPrefix(l, "// ")
	l = strings.Trim(strings.TrimSpace(l), `"',\`)
	return len(l) >= 32 && isBase64(l) && looksRandom(l)
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

// base64PrivateKey reports whether v is base64 of a PEM private key with
// its body (a Kubernetes Secret's data, a CI variable).
func base64PrivateKey(v string) bool {
	s := strings.TrimRight(v, "=")
	data, err := base64.StdEncoding.DecodeString(s[:len(s)/4*4])
	if err != nil {
		return false
	}
	text := string(data)
	loc := privateKeyHeader().FindStringIndex(text)
	if loc == nil {
		return false
	}
	lines := strings.Split(text[loc[1]:], "\n")
	for i := 1; i < len(lines) && i < 5; i++ {
		if keyMaterial(lines[i]) {
			return true
		}
	}
	return false
}
