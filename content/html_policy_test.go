package content

import (
	"regexp"
	"testing"
)

// TestHTMLPolicyAlone: the sanitising policy stops script even in HTML
// that goldmark would never write (its safe mode is the first line of
// defence; this is the second).
func TestHTMLPolicyAlone(t *testing.T) {
	bad := regexp.MustCompile(`(?i)<\s*script|\son\w+\s*=|javascript:|<iframe|style="background`)
	for _, raw := range []string{
		`<script>window.pwned=1</script>`,
		`<img src=x onerror="window.pwned=1">`,
		`<a href="javascript:window.pwned=1">x</a>`,
		`<a href="  JAVASCRIPT:window.pwned=1">x</a>`,
		`<iframe src="javascript:window.pwned=1"></iframe>`,
		`<td style="background:url(javascript:x)">x</td>`,
		`<input type="text" onfocus="window.pwned=1" autofocus>`,
		`<h1 id="x" onclick="window.pwned=1">h</h1>`,
		`<code class="language-go" onmouseover="window.pwned=1">c</code>`,
	} {
		if got := htmlPolicy().Sanitize(raw); bad.MatchString(got) {
			t.Errorf("%s sanitised to %s", raw, got)
		}
	}
}
