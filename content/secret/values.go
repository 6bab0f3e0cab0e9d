package secret

import (
	"encoding/base64"
	"math"
	"strings"
)

var placeholderWords = []string{"example", "xxxx", "****", "....", "your", "redacted", "placeholder", "changeme", "dummy", "<", "${", "{{", "%s", "$("}

// documentedKeys are secrets published on purpose: Azurite's (the Azure
// storage emulator's) account key.
var documentedKeys = map[string]bool{
	"Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==": true,
}

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
	return !strings.HasPrefix(v, "$") && !documentedKeys[v]
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

// mixedCase is looksRandom for tokens of letters only (Hugging Face's):
// both cases, or digits.
func mixedCase(v string) bool {
	return strings.ToLower(v) != v && strings.ToUpper(v) != v && notPlaceholder(v) || looksRandom(v)
}

// openAIKey keeps sk-ant- keys for their own rule and wants a random tail.
func openAIKey(v string) bool {
	return !strings.HasPrefix(v, "ant-") && looksRandom(v)
}

// base64Key is a random base64 value that is not a documented key.
func base64Key(v string) bool { return isBase64(v) && looksRandom(v) }

// basicCredentials reports whether v is base64 of user:password with a
// password that is not a placeholder (an Authorization: Basic header, a
// Docker config's auth).
func basicCredentials(v string) bool {
	data, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return false
	}
	_, pw, ok := strings.Cut(string(data), ":")
	if !ok || pw == "" {
		return false
	}
	for _, r := range pw {
		if r < 0x20 || r > 0x7e {
			return false
		}
	}
	return realPassword(pw) && len(pw) >= 6
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
	return !strings.ContainsAny(v, "$%{}*")
}

// weakPasswords are defaults and examples that documentation shows and
// nobody can keep secret.
var weakPasswords = map[string]bool{
	"123456": true, "12345678": true, "123456789": true, "abc123": true, "abcd1234": true,
	"password1": true, "password123": true, "passw0rd": true, "p@ssw0rd": true, "p@ssword": true,
	"qwerty123": true, "letmein1": true, "admin123": true, "root123": true, "test123": true,
	"test1234": true, "pass123": true, "pass1234": true, "welcome1": true, "secret123": true,
	"changeme1": true, "changeme123": true, "s3cr3t": true, "hunter2!": true,
}

// strongPassword reports whether v, assigned to a password or passed as
// one, is a real password rather than a placeholder, a reference or code:
// at least 6 characters mixing letters and digits, and not a default.
func strongPassword(v string) bool {
	if len(v) < 6 || passwordPlaceholders[strings.ToLower(v)] || !looksRandom(v) || weakPasswords[strings.ToLower(v)] {
		return false
	}
	l := strings.ToLower(v)
	for _, w := range []string{"password", "passwd", "secret", "sample", "test"} {
		if strings.Contains(l, w) {
			return false
		}
	}
	return !looksLikePath(v) && !strings.HasPrefix(v, "!")
}

// minSecretEntropy is the Shannon entropy (bits per character) above which a
// 16+ character assigned value counts as random. English words and
// identifiers sit near 3 or below at these lengths; random base62 of 16
// characters is near 3.7 and rises with length.
const minSecretEntropy = 3.3

func highEntropy(v string) bool {
	return len(v) >= 16 && looksRandom(v) && shannon(v) >= minSecretEntropy && !looksLikePath(v) && !publicToken(v)
}

// publicToken: Mapbox's pk. tokens go in web pages on purpose.
func publicToken(v string) bool { return strings.HasPrefix(v, "pk.eyJ") }

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
