package ingest

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/ptwiki/pt/content/secret"
)

// CheckLine is the gate for a caller's one-line value (a title, a summary,
// a topic, who approved): no control characters and no secret. These values
// end up in frontmatter, the spokes, log.md and the commit message, where
// the secret gate over a source's text never looks, and a terminal escape
// in them would reach everyone who runs pt log. op and field name the value
// in the error ("ingest", "title").
func CheckLine(op, field, value string) error {
	if i := strings.IndexFunc(value, unicode.IsControl); i >= 0 {
		return fmt.Errorf("%s: %s: control character %U is not allowed", op, field, []rune(value[i:])[0])
	}
	if f := secret.Scan([]byte(value)); len(f) > 0 {
		return &SecretError{Op: op, Field: field, Kind: f[0].Kind}
	}
	return nil
}

// lineField is a caller's one-line value and its name in errors.
type lineField struct{ name, value string }

// checkLines is CheckLine over several values, stopping at the first bad one.
func checkLines(op string, fields []lineField) error {
	for _, f := range fields {
		if err := CheckLine(op, f.name, f.value); err != nil {
			return err
		}
	}
	return nil
}

// checkApprover is CheckLine for who approved a batch, which is mandatory.
func checkApprover(op, name string) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("%s: %w", op, errNoApprover)
	}
	return CheckLine(op, "approved_by", name)
}

// oneLine folds a caller's text onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
