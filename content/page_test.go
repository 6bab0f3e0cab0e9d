package content

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const samplePage = `---
title: Why the index is keyed by commit
kind: page
topics: [storage, retrieval]
x-custom: {keep: me}
author: {kind: human, name: dana, team: infra}
provenance:
  batch: b-20261129-7f3a
  approved_by: dana
  reviewer: lee
created: 2026-11-29T18:00:00Z
---
# Keyed by commit

Body with *emphasis*   and trailing spaces.  
`

func TestParseRoundTripUnchanged(t *testing.T) {
	p, err := Parse("pages/x.md", []byte(samplePage))
	if err != nil {
		t.Fatal(err)
	}
	if p.Meta.Title != "Why the index is keyed by commit" || p.Meta.Author.Name != "dana" || p.Meta.Provenance.Batch != "b-20261129-7f3a" {
		t.Fatalf("meta not decoded: %+v", p.Meta)
	}
	if p.Meta.Created.IsZero() {
		t.Fatal("created not decoded")
	}
	got := string(p.MustBytes())
	if diff := cmp.Diff(samplePage, got); diff != "" {
		t.Fatalf("unchanged page did not round-trip (-want +got):\n%s", diff)
	}
}

func TestParseRewriteKeepsUnknownKeys(t *testing.T) {
	p, err := Parse("pages/x.md", []byte(samplePage))
	if err != nil {
		t.Fatal(err)
	}
	p.Meta.Summary = "One line."
	p.Meta.Topics = []string{"storage"}
	p.Meta.Provenance.ApprovedBy = "kim"
	out := string(p.MustBytes())
	for _, want := range []string{"x-custom:", "keep: me", "team: infra", "reviewer: lee", "summary: One line.", "approved_by: kim"} {
		if !strings.Contains(out, want) {
			t.Errorf("rewrite lost %q:\n%s", want, out)
		}
	}
	if !strings.HasSuffix(out, "---\n# Keyed by commit\n\nBody with *emphasis*   and trailing spaces.  \n") {
		t.Errorf("body not byte-exact:\n%q", out)
	}
	// Unknown key order is kept: x-custom stays before author.
	if strings.Index(out, "x-custom") > strings.Index(out, "author:") {
		t.Errorf("key order changed:\n%s", out)
	}
	q, err := Parse("pages/x.md", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(p.Meta, q.Meta); diff != "" {
		t.Errorf("meta changed across rewrite (-want +got):\n%s", diff)
	}
	// Clearing a known key removes it.
	q.Meta.Summary = ""
	if strings.Contains(string(q.MustBytes()), "summary:") {
		t.Error("cleared key still written")
	}
}

func TestParseNoFrontmatter(t *testing.T) {
	src := "# Title\n\ntext\n"
	p, err := Parse("a.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if string(p.MustBytes()) != src {
		t.Fatal("page without frontmatter changed")
	}
	p.Meta.Title = "T"
	if got := string(p.MustBytes()); got != "---\ntitle: T\n---\n"+src {
		t.Fatalf("got %q", got)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		is        error
		msg       string // how the error ends, when set
	}{
		{"binary", "abc\n\x00def", 2, ErrBinary, ""},
		{"utf8", "ok\nbad \xff\n", 2, ErrInvalidUTF8, ""},
		{"unclosed", "---\ntitle: x\n", 1, nil, ""},
		{"bad yaml", "---\ntitle: x\ntopics: [a,\n---\nbody", 0, nil, ""},
		{"not a mapping", "---\n- a\n- b\n---\nbody", 0, nil, ""},
		{"wrong type", "---\ntitle: x\ntopics: {a: b}\n---\nbody", 3, nil, ""},
		{"duplicate key", "---\ntitle: a\ntitle: b\n---\nbody", 3, nil, `mapping key "title" already defined at line 2`},
		{"too large", strings.Repeat("x", MaxPageSize+1), 0, ErrTooLarge, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("p.md", []byte(tc.src))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("want ParseError, got %v", err)
			}
			if tc.line != 0 && pe.Line != tc.line {
				t.Errorf("line = %d, want %d (%v)", pe.Line, tc.line, err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
			if tc.msg != "" && !strings.HasSuffix(err.Error(), tc.msg) {
				t.Errorf("error %q does not end with %q", err, tc.msg)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(samplePage))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("no front\n[a](b.md) [[c]]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("f.md", data)
		if err != nil {
			return
		}
		out, err := p.Bytes()
		if err != nil {
			return
		}
		if string(out) != string(data) {
			t.Fatalf("unchanged page did not round-trip: %q -> %q", data, out)
		}
		Analyze(data)
	})
}

// A rewrite changes only the lines of the keys whose values changed: a
// person's comments, flow lists, quoting and bare dates stay as written, so
// that marking a page stale is a one-line diff.
func TestRewriteKeepsLinesItDidNotChange(t *testing.T) {
	const src = `---
# written by hand
title: "Pinned page"
topics: [a, b]
provenance:
  derived_from: [{path: s.md, revision: 0123456789abcdef}]  # pinned by dana
notes: >
  folded text
  over two lines
created: 2026-01-01
---
Body.
`
	p, err := Parse("p.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p.Meta.Status = StatusStale
	want := strings.Replace(src, "created: 2026-01-01\n", "created: 2026-01-01\nstatus: stale\n", 1)
	if diff := cmp.Diff(want, string(p.MustBytes())); diff != "" {
		t.Errorf("marking stale changed more than one line (-want +got):\n%s", diff)
	}

	p, _ = Parse("p.md", []byte(src))
	p.Meta.Topics = []string{"a"}
	p.Meta.Title = ""
	out := string(p.MustBytes())
	for _, keep := range []string{"# written by hand\n", "# pinned by dana\n", "notes: >\n  folded text\n  over two lines\n", "created: 2026-01-01\n"} {
		if !strings.Contains(out, keep) {
			t.Errorf("rewrite lost %q:\n%s", keep, out)
		}
	}
	if strings.Contains(out, "title:") || !strings.Contains(out, "topics:\n    - a\n") {
		t.Errorf("changed keys not rewritten:\n%s", out)
	}
	q, err := Parse("p.md", []byte(out))
	if err != nil || !cmp.Equal(q.Meta, p.Meta) {
		t.Errorf("rewrite does not read back as its meta: %v\n%s", err, out)
	}
}

// expires is written as people write it, a bare date, and reads back as
// the same string.
func TestExpiresIsABareDate(t *testing.T) {
	for _, exp := range []string{"2027-01-31", "2027-01-31T10:00:00Z"} {
		p := NewPage(Meta{Title: "x", Durability: "time_bound", Expires: exp}, []byte("b\n"))
		out := string(p.MustBytes())
		if !strings.Contains(out, "\nexpires: "+exp+"\n") {
			t.Errorf("expires not bare:\n%s", out)
		}
		q, err := Parse("p.md", []byte(out))
		if err != nil || q.Meta.Expires != exp {
			t.Errorf("read back as %q, %v", q.Meta.Expires, err)
		}
	}
}

// TestFrontmatterLine finds a value by its keys, in block and flow style,
// not by its text: the summary on line 3 names the same path as the pin.
func TestFrontmatterLine(t *testing.T) {
	src := "---\ntitle: P\nsummary: Notes on sources/a.md\nprovenance:\n  derived_from:\n    - revision: abc1234\n      path: sources/a.md\n  citations: [{path: sources/a.md, revision: abc1234}]\n---\nbody\n"
	p, err := Parse("p.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		keys []any
		want int
	}{
		{[]any{"summary"}, 3},
		{[]any{"provenance", "derived_from", 0}, 6},
		{[]any{"provenance", "derived_from", 0, "path"}, 7},
		{[]any{"provenance", "citations", 0, "path"}, 8},
		{[]any{"provenance", "citations", 1, "path"}, 0},
		{[]any{"provenance", "derived_from", "path"}, 0},
		{[]any{"expires"}, 0},
	} {
		if got := p.FrontmatterLine(tc.keys...); got != tc.want {
			t.Errorf("FrontmatterLine(%v) = %d, want %d", tc.keys, got, tc.want)
		}
	}
	if got := NewPage(Meta{Title: "x"}, nil).FrontmatterLine("title"); got != 0 {
		t.Errorf("new page: line %d, want 0", got)
	}
}
