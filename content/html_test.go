package content_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/ptwiki/pt/content"
)

// TestRenderHTMLGitHubFeatures: the page renders as a git host shows it.
func TestRenderHTMLGitHubFeatures(t *testing.T) {
	src := "---\ntitle: T\nsecret_key: frontmatter-only\n---\n# Storage `engine`\n\n" +
		"| a | b |\n|:--|--:|\n| 1 | 2 |\n\n" +
		"- [x] done\n- [ ] todo\n\n~~gone~~ and https://example.com/x\n\n" +
		"```go\nfunc main() {}\n```\n\n## Storage engine\n\n[rel](../pages/x.md#why) ![img](pic.png)\n"
	link := func(dest string, image bool) string {
		if image {
			return "/img/" + dest
		}
		return "/view/" + dest
	}
	got := string(content.RenderHTML([]byte(src), content.HTMLOptions{Link: link}))
	for _, want := range []string{
		`<h1 id="storage-engine">Storage <code>engine</code></h1>`,
		`<h2 id="storage-engine-1">`,
		`<table>`, `<th align="left">a</th>`, `<td align="right">2</td>`,
		`<input checked="" disabled="" type="checkbox"> done`, `<input disabled="" type="checkbox"> todo`,
		`<del>gone</del>`,
		`<a href="https://example.com/x" rel="nofollow">https://example.com/x</a>`,
		`<code class="language-go">func main() {}`,
		`<a href="/view/../pages/x.md#why">rel</a>`,
		`<img src="/img/pic.png" alt="img">`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "frontmatter-only") {
		t.Errorf("frontmatter rendered:\n%s", got)
	}
}

// hostile are pages written to run script in whoever views them.
var hostile = []string{
	"<script>window.pwned=1</script>",
	"<img src=x onerror=\"document.title='pwned'\">",
	"<svg onload=alert(1)></svg>",
	"<a href=\"javascript:alert(1)\">html link</a>",
	"[md link](javascript:alert(1))",
	"[md link upper](JaVaScRiPt:alert(1))",
	"[md link entity](&#106;avascript:alert(1))",
	"[md link spaced]( javascript:alert(1))",
	"<javascript:alert(1)>",
	"![img](javascript:alert(1))",
	"[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
	"[vb](vbscript:msgbox(1))",
	"<iframe src=\"https://evil.example\"></iframe>",
	"<div style=\"background:url(javascript:alert(1))\">x</div>",
	"<details open ontoggle=alert(1)>x</details>",
	"# Heading {onclick=alert(1)}",
	"<form action=\"https://evil.example\"><button>go</button></form>",
	"<object data=\"x.swf\"></object><embed src=\"x.swf\">",
	"<style>body{display:none}</style>",
	"<base href=\"https://evil.example/\">",
	"<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example\">",
	"`<script>` in code is text",
	"```html\n<script>alert(1)</script>\n```",
	"<!-- <script>alert(1)</script> -->",
	"text <b onmouseover=alert(1)>bold</b>",
	"[x](https://ok.example \"title\\\" onmouseover=\\\"alert(1)\")",
}

var (
	scriptTag   = regexp.MustCompile(`(?i)<\s*(script|iframe|object|embed|style|base|meta|form|svg|link)\b`)
	eventAttr   = regexp.MustCompile(`(?i)<[^>]*\son\w+\s*=`)
	badScheme   = regexp.MustCompile(`(?i)(href|src)\s*=\s*"\s*(javascript|vbscript|data|file):`)
	styleAttr   = regexp.MustCompile(`(?i)<(?:[^>t]|t[^hd])[^>]*\sstyle\s*=`)
	benignLinks = []func(string, bool) string{nil, func(d string, _ bool) string { return d }}
)

// TestRenderHTMLHostile: no page can put script, event handlers or
// script-running links in the view, whatever the link mapping.
func TestRenderHTMLHostile(t *testing.T) {
	for _, link := range benignLinks {
		for _, src := range hostile {
			got := string(content.RenderHTML([]byte(src+"\n"), content.HTMLOptions{Link: link}))
			for _, re := range []*regexp.Regexp{scriptTag, eventAttr, badScheme, styleAttr} {
				if m := re.FindString(got); m != "" {
					t.Errorf("page %q rendered %q (matched %q)", src, got, m)
				}
			}
		}
	}
}

// TestRenderHTMLEscapesText: text that looks like markup stays text.
func TestRenderHTMLEscapesText(t *testing.T) {
	got := string(content.RenderHTML([]byte("`<script>alert(1)</script>` and 1 < 2 & \"q\"\n"), content.HTMLOptions{}))
	if !strings.Contains(got, "<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>") || !strings.Contains(got, "1 &lt; 2 &amp;") {
		t.Errorf("text not escaped: %s", got)
	}
}

func FuzzRenderHTML(f *testing.F) {
	for _, h := range hostile {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, src string) {
		got := string(content.RenderHTML([]byte(src), content.HTMLOptions{}))
		for _, re := range []*regexp.Regexp{scriptTag, eventAttr, badScheme} {
			if m := re.FindString(got); m != "" {
				t.Errorf("page %q rendered %q (matched %q)", src, got, m)
			}
		}
	})
}
