package web

import (
	"regexp"
	"strings"
	"testing"
)

// Marks of HTML that runs script: a script-capable element, an event
// handler attribute, a script-running URL.
var (
	scriptElem = regexp.MustCompile(`(?i)<\s*(script|iframe|object|embed|svg|math|meta|base|form|link|style)\b`)
	handler    = regexp.MustCompile(`(?i)<[^>]*\son[a-z]+\s*=`)
	scriptURL  = regexp.MustCompile(`(?i)(href|src|action)\s*=\s*"\s*(javascript|vbscript|data):`)
	ownForm    = regexp.MustCompile(`(?s)<form class="ask-big" action="/search" method="get" role="search">.*?</form>`)
)

// TestHostilePageIsInert: whatever a page holds, in its body or its
// frontmatter, every view that shows it carries no script, no handler and
// no script URL, and every response forbids script outright.
func TestHostilePageIsInert(t *testing.T) {
	s, _ := fixture(t, true)
	srv := serve(t, s, Options{})
	for _, u := range []string{
		pageURL(pathHostile),
		pageURL(pathHostile) + "?source",
		pageURL(pathHostile) + "?history",
		"/topics/releases.md",
		"/findings",
		"/log",
		"/search?q=" + "hostile+page+inline+handler+javascript+link",
		"/search?q=%3Cscript%3Ewindow.pwned%3D1%3C%2Fscript%3E",
	} {
		resp, body := getResp(t, srv.URL+u)
		if resp != 200 {
			t.Errorf("%s: %d", u, resp)
			continue
		}
		// the view's own search form aside
		main := ownForm.ReplaceAllString(body[strings.Index(body, "<main>"):], "")
		for _, re := range []*regexp.Regexp{scriptElem, handler, scriptURL} {
			if m := re.FindString(main); m != "" {
				t.Errorf("%s carries %q", u, m)
			}
		}
	}
	// The page's text is still there, escaped.
	body := mustGet(t, srv.URL+pageURL(pathHostile))
	for _, want := range []string{"html javascript link", "markdown javascript link", "inline handler", "&lt;b onmouseover=&#34;window.pwned=1&#34;&gt;eve&lt;/b&gt;"} {
		if !strings.Contains(body, want) {
			t.Errorf("the hostile page lost its text %q", want)
		}
	}
}

func getResp(t testing.TB, url string) (int, string) {
	t.Helper()
	code, body := get(t, url)
	return code, body
}
