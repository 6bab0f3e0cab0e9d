package ingest

import (
	"fmt"

	"github.com/ptwiki/pt/content/secret"
)

// SecretError is returned by checkSecrets when a text carries a secret. It is
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

// checkSecrets is the secret gate that every write path runs before anything
// is written (DESIGN.md §5). It returns nil, or a *SecretError naming the
// first finding of secret.Scan.
func checkSecrets(path string, text []byte) error {
	return checkSecretsAs("ingest", path, text)
}

// checkSecretsAs is checkSecrets for the operation op ("consult", "retro").
func checkSecretsAs(op, path string, text []byte) error {
	f := secret.Scan(text)
	if len(f) == 0 {
		return nil
	}
	return &SecretError{Op: op, Path: path, Kind: f[0].Kind, Line: f[0].Line}
}
