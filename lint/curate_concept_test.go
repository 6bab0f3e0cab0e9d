package lint

import (
	"slices"
	"testing"
)

// TestConceptNames: a title or heading names a term in any inflection or
// spelling, an adverb's phrase is not a term, and records do not count
// toward the pages that use a term.
func TestConceptNames(t *testing.T) {
	for name, term := range map[string]string{"Backporting issues": "backport issue", "First class ports": "first-class port", "Freeze Exceptions": "freeze exception"} {
		if nameKey(name) != nameKey(term) {
			t.Errorf("nameKey(%q) = %q, nameKey(%q) = %q", name, nameKey(name), term, nameKey(term))
		}
	}
	if nameKey("Soak periods") == nameKey("soaking") {
		t.Error("a one-word name matches a two-word term")
	}
	if termLike("mutually exclusive") || !termLike("release shepherd") {
		t.Error(`termLike: "mutually exclusive" is an adverb's phrase, "release shepherd" a term`)
	}
	got := current([]string{"guide/a.md", "notes/2021-05-04.md", "archive/wg/README.md", "Go-1.10-Release-Party.md", "guide/b.md"})
	if !slices.Equal(got, []string{"guide/a.md", "guide/b.md"}) {
		t.Errorf("current = %q, want the two guide pages", got)
	}
}
