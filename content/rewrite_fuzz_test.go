package content

import (
	"reflect"
	"testing"
	"unicode"
)

// FuzzRewrite changes a parsed page's status and summary and checks the
// rewrite reads back as the changed meta, whatever the frontmatter's shape.
func FuzzRewrite(f *testing.F) {
	f.Add(samplePage, "stale", "s")
	f.Add("---\n# c\ntitle: x\n\n# above\nkind: page\n---\nb\n", "", "two words")
	f.Add("---\nsummary: |\n  # not a comment\n\ntopics: [a]\n---\n", "stale", "")
	f.Fuzz(func(t *testing.T, src, status, summary string) {
		for _, r := range status + summary {
			if unicode.IsControl(r) {
				return // pt writes one-line values only (ingest.CheckLine)
			}
		}
		p, err := Parse("p.md", []byte(src))
		if err != nil {
			return
		}
		p.Meta.Status, p.Meta.Summary = status, summary
		out, err := p.Bytes()
		if err != nil {
			return
		}
		q, err := Parse("p.md", out)
		if err != nil {
			t.Fatalf("rewrite does not parse: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(q.Meta, p.Meta) {
			t.Fatalf("rewrite reads back as %+v, want %+v\n%s", q.Meta, p.Meta, out)
		}
	})
}
