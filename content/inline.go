package content

import (
	"strings"
	"unicode/utf8"
)

// Inert returns s without what a terminal or a renderer would act on
// rather than show: ANSI escape sequences (CSI "ESC [ ... m", OSC
// "ESC ] ... BEL", and two-byte ones) whole, and every other C0 or C1
// control character and DEL, except tab and newline. Text pt generates from
// what it was given (summaries, spoke entries, log entries) goes through it.
func Inert(s string) string {
	if !hasControl(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b:
			i += escapeLen(s[i:])
			continue
		case r == '\t' || r == '\n':
			b.WriteRune(r)
		case isControl(r):
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f }

func hasControl(s string) bool {
	for _, r := range s {
		if isControl(r) && r != '\t' && r != '\n' {
			return true
		}
	}
	return false
}

// escapeLen is the length of the escape sequence at the start of s (which
// starts with ESC): CSI up to its final byte, OSC, DCS, SOS, PM or APC up
// to BEL or ST, else ESC and the byte after it.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']', 'P', 'X', '^', '_':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	_, n := utf8.DecodeRuneInString(s[1:])
	return 1 + n
}

// inlineEscaper backslash-escapes the characters that make Markdown inline
// text live: links and images ([ ]), emphasis (* _ ~), code (`), HTML and
// autolinks (< >), entities (&) and the backslash itself.
var inlineEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "~", `\~`,
	"[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "&", `\&`,
)

// EscapeInline makes s literal text on one line of Markdown: inert, its
// white space folded to single spaces, and every character that would
// start a link, emphasis, code, HTML or an entity escaped. A title shows
// as written wherever pt puts it (spokes, the hub, log.md, summaries), and
// a title such as "<img onerror=...>" or "[x](javascript:...)" stays text.
func EscapeInline(s string) string {
	return inlineEscaper.Replace(strings.Join(strings.Fields(Inert(s)), " "))
}

// UnescapeInline reverses EscapeInline, and any backslash escape of ASCII
// punctuation (CommonMark's), so that entries pt wrote with fewer escapes
// read back the same.
func UnescapeInline(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
