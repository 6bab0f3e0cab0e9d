package retrieve

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ptwiki/pt/retrieve/internal/index"
)

// section is a page section of the shapes that tripped excerpts: prose, a
// list longer than any excerpt, and a code block with blank lines and
// indentation inside.
func section() string {
	var list strings.Builder
	for i := 0; i < 120; i++ {
		fmt.Fprintf(&list, "* City %d: the Go meetup of city %d, every month\n", i, i)
	}
	list.WriteString("* Lima, Peru: Golang Lima meetup\n")
	return "## Meetups\n\nGo user groups meet all over the world.\n\n" + list.String() +
		"\nTo throttle calls, use a ticker:\n\n```go\nconst rateLimit = time.Second / 10\n\nthrottle := time.Tick(rateLimit)\nfor _, payload := range payloads {\n  <-throttle\n  go client.Call(\"Service.Method\", payload)\n}\n```\n\nThat keeps the client to ten calls a second.\n"
}

func TestExcerptStaysWithinLimit(t *testing.T) {
	text := section()
	for _, q := range []string{"Peru meetup", "throttle ticker payload", "nothing here matches", "go"} {
		terms := index.Terms(q)
		for limit := minExcerptTokens; limit <= 800; limit += 7 {
			ex := excerpt(text, terms, limit)
			if n := EstimateTokens(ex); n > limit {
				t.Fatalf("%q at limit %d: %d tokens:\n%s", q, limit, n, ex)
			}
			if ex == "" || ex == "## Meetups" {
				t.Fatalf("%q at limit %d: excerpt %q holds none of the section's text", q, limit, ex)
			}
		}
	}
}

// What an excerpt keeps is the page's text: pieces between gap marks occur
// in the section verbatim (a cut piece up to its " …").
func TestExcerptIsThePagesText(t *testing.T) {
	text := section()
	for _, q := range []string{"Peru meetup", "throttle ticker payload", "ten calls a second"} {
		for _, limit := range []int{60, 150, 300, 700} {
			ex := excerpt(text, index.Terms(q), limit)
			for _, piece := range strings.Split(strings.TrimPrefix(ex, "…\n\n"), "\n\n…\n\n") {
				for _, line := range strings.Split(strings.TrimSuffix(piece, " …"), "\n") {
					if line != "…" && !strings.Contains(text, line) {
						t.Errorf("%q at limit %d: line %q is not in the section:\n%s", q, limit, line, ex)
					}
				}
			}
			if strings.Count(ex, "```")%2 != 0 {
				t.Errorf("%q at limit %d: a code fence is left open:\n%s", q, limit, ex)
			}
		}
	}
}

func TestExcerptKeepsWhatWasAsked(t *testing.T) {
	text := section()
	ex := excerpt(text, index.Terms("Is there a Go meetup in Peru?"), 350)
	if !strings.Contains(ex, "Lima, Peru") || !strings.HasPrefix(ex, "## Meetups") {
		t.Errorf("the list too long for the excerpt lost the item asked about:\n%s", ex)
	}
	ex = excerpt(text, index.Terms("how do I throttle calls to the payload service"), 350)
	if !strings.Contains(ex, "  <-throttle") || !strings.Contains(ex, "\n\nthrottle := time.Tick") {
		t.Errorf("the code block lost its indentation or blank lines:\n%s", ex)
	}
	if ex := excerpt("First paragraph about nothing.\n\n"+strings.Repeat("filler words here. ", 200)+"\n\nThe ticker answer.", index.Terms("ticker"), 60); !strings.HasPrefix(ex, "…\n\n") {
		t.Errorf("an excerpt that starts after the section's opening says so:\n%s", ex)
	}
}

// A code block with text right before or after it (no blank line between)
// is still cut with both fences, and the text after it stays outside.
func TestExcerptFenceBesideText(t *testing.T) {
	var code strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&code, "key%d: value %d\n", i, i)
	}
	text := "## Config\n\nPut this in the yaml file:\n```yaml\n" + code.String() + "```\nThe rollback is manual.\n"
	for _, q := range []string{"yaml file", "rollback manual", "key150 value"} {
		ex := excerpt(text, index.Terms(q), 200)
		if strings.Count(ex, "```")%2 != 0 {
			t.Errorf("%q: a code fence is left open:\n%s", q, ex)
		}
		if EstimateTokens(ex) > 200 {
			t.Errorf("%q: %d tokens, limit 200", q, EstimateTokens(ex))
		}
	}
}

// FuzzExcerpt checks what every excerpt promises, whatever the section and
// question: it fits its limit, it is not empty when the section is not, and
// each of its lines is the section's text (a cut line up to its " …").
func FuzzExcerpt(f *testing.F) {
	f.Add(section(), "Peru meetup", 120)
	f.Add("## A\n\n```\ncode\n\nmore\n```\ntext after\n", "code text", 20)
	f.Add("# T\n\n"+strings.Repeat("word ", 400), "word", 50)
	f.Add("\t\tindented\n\n\n\n  - item one\n  - item two\n", "item", 16)
	f.Fuzz(func(t *testing.T, text, question string, limit int) {
		if limit < minExcerptTokens || limit > 2000 || !utf8.ValidString(text) {
			return
		}
		ex := excerpt(text, index.Terms(question), limit)
		if n := EstimateTokens(ex); n > limit {
			t.Fatalf("%d tokens at limit %d:\n%s", n, limit, ex)
		}
		if strings.TrimSpace(text) != "" && strings.Trim(ex, "…\n ") == "" {
			t.Fatalf("empty excerpt %q of a section with text", ex)
		}
		for _, line := range strings.Split(ex, "\n") {
			line = strings.TrimSuffix(line, " …")
			if line != "…" && !strings.Contains(text, line) {
				t.Fatalf("line %q is not in the section:\n%s", line, ex)
			}
		}
	})
}

// TestClipParagraphIsStable: two lines whose weights tie (1/2+1/3+1/6
// against 1) must be kept the same way every time. Summed in a map's
// order, 1/2+1/3+1/6 is sometimes 1 and sometimes just under it, and the
// same question got another excerpt from one run to the next.
func TestClipParagraphIsStable(t *testing.T) {
	pad := strings.Repeat(" filler", 20)
	lines := []string{
		"amber basalt cobalt",
		"dolomite",
		"amber" + pad,
		"basalt" + pad,
		"basalt" + pad,
	}
	for i := 0; i < 5; i++ {
		lines = append(lines, "cobalt"+pad)
	}
	p := strings.Join(lines, "\n")
	want := termSet("amber basalt cobalt dolomite")
	first := clipParagraph(p, want, 25)
	if first == "" {
		t.Fatal("nothing kept")
	}
	for i := 0; i < 200; i++ {
		if got := clipParagraph(p, want, 25); got != first {
			t.Fatalf("run %d kept %q, the first run %q", i, got, first)
		}
	}
}
