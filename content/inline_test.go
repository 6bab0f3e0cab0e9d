package content

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestInert(t *testing.T) {
	for in, want := range map[string]string{
		"plain text\tand\nlines":             "plain text\tand\nlines",
		"red \x1b[31mword\x1b[0m end":        "red word end",
		"title \x1b]0;pwned\x07 after":       "title  after",
		"osc with st \x1b]8;;http://x\x1b\\": "osc with st ",
		"bell\x07 and del\x7f":               "bell and del",
		"c1 \u009b2J csi":                    "c1 2J csi",
		"cr\r\nlf":                           "cr\nlf",
		"lone escape at the end \x1b":        "lone escape at the end ",
		"two-byte \x1bc reset":               "two-byte  reset",
		"unicode ∑ stays":                    "unicode ∑ stays",
	} {
		if got := Inert(in); got != want {
			t.Errorf("Inert(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEscapeInline(t *testing.T) {
	for in, want := range map[string]string{
		"Why the index is keyed by commit": "Why the index is keyed by commit",
		"[x](javascript:alert(1))":         `\[x\](javascript:alert(1))`,
		"*bold* _em_ ~del~ `code`":         "\\*bold\\* \\_em\\_ \\~del\\~ \\`code\\`",
		"<img src=x onerror=alert(1)>":     `\<img src=x onerror=alert(1)\>`,
		"end <!-- /pt:log --> early":       `end \<!-- /pt:log --\> early`,
		"&amp; entity":                     `\&amp; entity`,
		"a\\b":                             `a\\b`,
		"two\nlines  \x1b[1mand esc":       "two lines and esc",
	} {
		if got := EscapeInline(in); got != want {
			t.Errorf("EscapeInline(%q) = %q, want %q", in, got, want)
		}
	}
	// Entries pt wrote before escaped only brackets and "<!--".
	if got := UnescapeInline(`a \[b\] <\!-- c`); got != "a [b] <!-- c" {
		t.Errorf("UnescapeInline of an older entry = %q", got)
	}
}

// FuzzEscapeInline: escaping leaves no character that makes Markdown live
// unescaped, and unescaping gives the text back, inert and on one line.
func FuzzEscapeInline(f *testing.F) {
	for _, s := range []string{"[x](y)", "*a* _b_", "<script>", `\*`, "a\x1b[31mb", "x\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		e := EscapeInline(s)
		if strings.ContainsAny(e, "\n\x1b\x07") {
			t.Fatalf("EscapeInline(%q) = %q: not one inert line", s, e)
		}
		for i := 0; i < len(e); i++ {
			if strings.IndexByte("[]*_`<>&~", e[i]) >= 0 && (i == 0 || e[i-1] != '\\' || backslashes(e[:i])%2 == 0) {
				t.Fatalf("EscapeInline(%q) = %q: %q at %d is live", s, e, e[i], i)
			}
		}
		if got, want := UnescapeInline(e), strings.Join(strings.Fields(Inert(s)), " "); got != want {
			t.Fatalf("UnescapeInline(EscapeInline(%q)) = %q, want %q", s, got, want)
		}
	})
}

// backslashes counts the backslashes that end s.
func backslashes(s string) int {
	n := 0
	for n < len(s) && s[len(s)-1-n] == '\\' {
		n++
	}
	return n
}
