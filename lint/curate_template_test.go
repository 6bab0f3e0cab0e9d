package lint

import "testing"

// TestSameTemplate: copies of one template for different subjects (each
// group's README.md, the SLO pages of two metrics) are not merge
// candidates; a reworded copy of one page about the same subject is.
func TestSameTemplate(t *testing.T) {
	page := func(p, body string) *curPage {
		return &curPage{path: p, f: extractFacts(p, []byte(body))}
	}
	slo := func(metric string) string {
		return "# In-cluster " + metric + " latency SLO\n\nThe " + metric + " latency is measured from a prober pod as the 99th percentile over five minutes. " +
			"We watch " + metric + " latency because users feel it first.\n"
	}
	for _, tc := range []struct {
		name string
		a, b *curPage
		want bool
	}{
		{"one file name in two folders", page("sig-a/README.md", "# Archive\n\nOld notes."), page("sig-b/README.md", "# Archive\n\nOld notes."), true},
		{"a template's two subjects", page("slos/dns.md", slo("dns")), page("slos/network.md", slo("network")), true},
		{"a renamed copy", page("quiet-weeks.md", "# Quiet weeks\n\nQuiet weeks are for fixing. During quiet weeks nobody lands features.\n"),
			page("focus-weeks.md", "# Focus weeks\n\nThese weeks are for fixing. During them nobody lands features, as in quiet weeks.\n"), false},
		{"a reworded copy", page("netlify-access.md", "# Netlify access\n\nWho has elevated access to Netlify, and how to ask for access.\n"),
			page("netlify-permissions.md", "# Netlify permissions\n\nHow to ask for elevated Netlify access, and who has that access.\n"), false},
		{"test fixtures", page("gen/testdata/a.md", "Some text."), page("gen/testdata/b.md", "Some text!"), true},
		// A reworded copy under a new title keeps its source's outline, so
		// an outline shared word for word does not make a template.
		{"one outline, one subject", page("release/freeze.md", "# Release freeze\n\nThe freeze starts in week four and lasts six weeks.\n\n## Exceptions\n\nAsk the release team.\n\n## Dates\n\nSee the calendar.\n\n## Contacts\n\nrelease@\n"),
			page("release/code-freeze.md", "# Code freeze\n\nThe freeze begins in week four and runs six weeks.\n\n## Exceptions\n\nAsk the release team.\n\n## Dates\n\nSee the calendar.\n\n## Contacts\n\nrelease@\n"), false},
	} {
		if got := sameTemplate(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: sameTemplate = %v, want %v", tc.name, got, tc.want)
		}
	}
}
