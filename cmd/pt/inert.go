package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// inertWriter is what pt prints for people through: a control character
// in a page (an ANSI escape, a bell, a C1 control) shows as an escape such
// as \x1b instead of acting on the terminal. Tab, newline and a carriage
// return before a newline pass. JSON output needs none of it: encoding/json
// escapes control characters itself.
type inertWriter struct{ w io.Writer }

func (iw inertWriter) Write(p []byte) (int, error) {
	s := string(p)
	if !strings.ContainsFunc(s, unsafeRune) {
		return iw.w.Write(p)
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
			b.WriteByte('\r')
		case r < 0x80 && unsafeRune(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	if _, err := io.WriteString(iw.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

func unsafeRune(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f
}
