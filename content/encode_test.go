package content

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// viaNode is how Bytes encoded every changed page's frontmatter before a
// new page was encoded straight from Meta: into a yaml.Node, with a date
// written bare, then marshalled.
func viaNode(m Meta) ([]byte, error) {
	var n yaml.Node
	if err := n.Encode(m); err != nil {
		return nil, err
	}
	bareExpires(&n)
	out, err := yaml.Marshal(&n)
	if err != nil {
		return nil, err
	}
	return append(append(append([]byte("---\n"), out...), "---\n"...), "body\n"...), nil
}

// checkNewPageBytes fails unless a new page with meta m encodes as it did
// through a yaml.Node, or fails as it did.
func checkNewPageBytes(t *testing.T, m Meta) {
	t.Helper()
	got, err := NewPage(m, []byte("body\n")).Bytes()
	want, werr := viaNode(m)
	if (err != nil) != (werr != nil) {
		t.Fatalf("NewPage(%#v).Bytes(): error %v, through a yaml.Node: %v", m, err, werr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("NewPage(%#v).Bytes():\n%s\nwant (through a yaml.Node):\n%s", m, got, want)
	}
}

func TestNewPageBytesAsThroughANode(t *testing.T) {
	when := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	for _, m := range []Meta{
		{Title: "plain", Kind: KindSource, Created: when, Updated: when},
		{Title: "yes", Summary: "no", Topics: []string{"null", "~", "123", "0x1f", "1e3", "true"}},
		{Title: "2026-01-02", Summary: "a: b # c", Aliases: []string{"- x", "'q'", `"d"`, "@at", "`tick`", "%p", "!t", "&a", "*b"}},
		{Title: " lead and trail ", Summary: "line one\nline two", Topics: []string{"{x}", "[y]", "a, b", "? q", "| l", "> f"}},
		{Title: strings.Repeat("a long title that runs on ", 8), Summary: strings.Repeat("word ", 40)},
		{Title: "not utf-8 \xff\xfe", Summary: "tab\there", Author: Author{Kind: AuthorAgent, Name: "summarizer"}},
		{Title: "x", Expires: "2027-01-31"},           // written bare
		{Title: "x", Expires: "2027-01-31T10:00:00Z"}, // written bare
		{Title: "x", Expires: "soon"},                 // not a date
		{Title: "x", Expires: "2027-01-31 # c"},       // quoted
		{Title: "Ünïcödé ✓", Summary: "emoji 🚀 and \u2028 separator"},
		{Provenance: Provenance{Batch: "b-1", ApprovedBy: "dana", DerivedFrom: []Ref{{Path: "sources/a b.md", Revision: "0123abc"}}, Origin: "a.md@0123"}},
		{Title: "created only", Created: when.Add(123456789 * time.Nanosecond)},
	} {
		checkNewPageBytes(t, m)
	}
}

// TestNewPageBytesAsThroughANodeRandomly compares the two encodings on
// frontmatter made of the characters and words YAML treats specially.
func TestNewPageBytesAsThroughANodeRandomly(t *testing.T) {
	parts := []string{
		"a", "word", " ", "  ", ":", ": ", "#", " #", "-", "- ", "'", `"`, "\\", "\n", "\t", "\r", "yes", "No",
		"null", "~", "true", "0", "12", "0x1f", "0o7", "1e3", ".5", "-.inf", ".nan", "2026-01-02", "12:30",
		"@", "`", "%", "!", "&", "*", "{", "}", "[", "]", ",", "?", "|", ">", "=", "<<", "é", "✓", "🚀",
		"\xff", "\u0085", "\u00a0", "\u2028", "\ufeff", "\x00", "\x7f", "---", "...",
	}
	r := rand.New(rand.NewPCG(3, 4))
	whole := []string{"", "<<", "~", "null", "Null", "NULL", "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "NO",
		"on", "On", "ON", "off", "Off", "OFF", "true", "True", "TRUE", "false", "FALSE", ".nan", ".NaN", ".inf",
		"-.inf", "+.inf", ".Inf", "0", "-0", "+1", "0b101", "0o17", "017", "0x_1f", "1_000", "1:20", "190:20:30.15",
		"1.5e+3", "2001-12-14t21:59:43.10-05:00", "2002-12-14", "=", "-", "?", ":", "#", "@", "`", "!", "&", "*", "|", ">", "%"}
	str := func() string {
		if r.IntN(4) == 0 {
			return whole[r.IntN(len(whole))]
		}
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		if r.IntN(10) == 0 {
			b.WriteString(strings.Repeat("long words ", 1+r.IntN(12)))
		}
		return b.String()
	}
	strs := func() []string {
		var out []string
		for range r.IntN(3) {
			out = append(out, str())
		}
		return out
	}
	when := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	for range 2000 {
		m := Meta{
			Title: str(), Aliases: strs(), Kind: str(), Topics: strs(), Summary: str(),
			Author: Author{Kind: str(), Name: str()}, Status: str(), AppliesTo: strs(),
			Provenance: Provenance{Batch: str(), ApprovedBy: str(), Origin: str(), Question: str()},
			Created:    when.Add(time.Duration(r.IntN(1e6)) * time.Second),
		}
		if r.IntN(2) == 0 {
			m.Provenance.DerivedFrom = []Ref{{Path: str(), Revision: str()}}
		}
		if r.IntN(4) == 0 {
			m.Expires = str()
		}
		checkNewPageBytes(t, m)
	}
}
