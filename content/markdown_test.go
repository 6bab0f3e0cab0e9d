package content

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

const linkPage = `---
title: Links
---
# Top

See [storage](../pages/storage.md#keyed-by-commit) and [[Release Process#Freeze|the freeze]].

` + "```" + `
[not a link](x.md) [[nor this]]
` + "```" + `

## Second heading

An [external](https://example.com) link, a [self](#top) link and ` + "`[[code]]`" + `.

Setext
------
Last [one](other.md?x=1).
`

func TestAnalyzeLinks(t *testing.T) {
	s := Analyze([]byte(linkPage))
	type row struct {
		Target string
		Line   int
		Path   string
		Anchor string
		Wiki   bool
		Ext    bool
	}
	var got []row
	for _, l := range s.Links {
		got = append(got, row{l.Target, l.Line, l.Path, l.Anchor, l.Wiki, l.External})
	}
	want := []row{
		{"../pages/storage.md#keyed-by-commit", 6, "../pages/storage.md", "keyed-by-commit", false, false},
		{"[[Release Process#Freeze|the freeze]]", 6, "Release Process", "Freeze", true, false},
		{"https://example.com", 14, "", "", false, true},
		{"#top", 14, "", "top", false, false},
		{"other.md?x=1", 18, "other.md", "", false, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("links (-want +got):\n%s", diff)
	}
}

func TestAnalyzeHeadingsAndSections(t *testing.T) {
	s := Analyze([]byte(linkPage))
	var hs []Heading
	hs = append(hs, s.Headings...)
	want := []Heading{
		{1, "Top", "top", 4},
		{2, "Second heading", "second-heading", 12},
		{2, "Setext", "setext", 16},
	}
	if diff := cmp.Diff(want, hs); diff != "" {
		t.Fatalf("headings (-want +got):\n%s", diff)
	}
	if len(s.Sections) != 3 {
		t.Fatalf("want 3 sections, got %d: %+v", len(s.Sections), s.Sections)
	}
	if s.Sections[1].Path != "Top > Second heading" || s.Sections[1].Line != 12 || s.Sections[1].EndLine != 15 {
		t.Errorf("section 1: %+v", s.Sections[1])
	}
}

func TestSectionsIntroAndDuplicateAnchors(t *testing.T) {
	src := "intro text\n\n## A\nx\n## A\ny\n"
	s := Analyze([]byte(src))
	if len(s.Sections) != 3 || s.Sections[0].Heading != "" || s.Sections[2].Anchor != "a-1" {
		t.Fatalf("%+v", s.Sections)
	}
}

func TestResolveAndRelLink(t *testing.T) {
	l := newLink("../pages/a%20b.md#x", "", 1)
	if p, ok := l.Resolve("summaries/s.md"); !ok || p != "pages/a b.md" {
		t.Fatalf("resolve = %q %v", p, ok)
	}
	if _, ok := newLink("../../x.md", "", 1).Resolve("pages/a.md"); ok {
		t.Fatal("link escaping the space resolved")
	}
	for _, tc := range [][3]string{
		{"summaries/a.md", "sources/a.md", "../sources/a.md"},
		{"index.md", "topics/t.md", "topics/t.md"},
		{"topics/t.md", "index.md", "../index.md"},
		{"sources/x/y.md", "sources/z.md", "../z.md"},
	} {
		if got := RelLink(tc[0], tc[1]); got != tc[2] {
			t.Errorf("RelLink(%q,%q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
		if p, ok := newLink(RelLink(tc[0], tc[1]), "", 1).Resolve(tc[0]); !ok || p != tc[1] {
			t.Errorf("RelLink(%q,%q) does not resolve back: %q", tc[0], tc[1], p)
		}
	}
}

func FuzzAnalyze(f *testing.F) {
	f.Add([]byte(linkPage))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := Analyze(data)
		for _, sec := range s.Sections {
			if sec.Line > sec.EndLine {
				t.Fatalf("section lines inverted: %+v", sec)
			}
		}
	})
}

// TestAnalyzeSkipsHTMLComments: a wiki link inside an HTML comment is
// hidden like a Markdown link there, whether the comment is inline, spans
// lines of a paragraph or is a block of its own; one beside it still counts.
func TestAnalyzeSkipsHTMLComments(t *testing.T) {
	src := "---\ntitle: C\n---\n" +
		"Text <!-- [[Draft Page]] --> and <!-- [d](draft.md) --> then [[Real]].\n" +
		"\n" +
		"A paragraph <!-- spanning\n[[Hidden Too]] and\n[[Hidden Three]] --> ends [[After]].\n" +
		"\n" +
		"<!--\n[[Block Hidden]]\n-->\n" +
		"\n" +
		"<span title=\"[[Attr]]\">[[Inside Span]]</span>\n"
	var got []string
	for _, l := range Analyze([]byte(src)).Links {
		got = append(got, l.Target)
	}
	want := []string{"[[Real]]", "[[After]]", "[[Inside Span]]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("links (-want +got):\n%s", diff)
	}
}
