package lint

import "testing"

// TestNamesApart: two sentences with values are about different things
// when each names something the other does not, a page's title standing
// in for a sentence that names nothing when the other does.
func TestNamesApart(t *testing.T) {
	ref := func(title, text string) claimRef {
		return claimRef{page: &curPage{path: "pages/x.md", f: &pageFacts{Title: title}}, c: &claim{Text: text}}
	}
	for _, tc := range []struct {
		a, b claimRef
		want bool
	}{
		{ref("", "Private Steering Committee Meeting: third Wednesdays at 8:00 PT (Pacific Time)."), ref("", "SIG Network Ingress NGINX Meeting: Thursdays at 9:00 PT (Pacific Time)."), true},
		{ref("", "Main SIG Meeting: Tuesdays at 10:00 PT (Pacific Time) (weekly)."), ref("", "The main SIG Node meeting is held weekly on Thursdays at 10:00 PT."), false},
		{ref("", "The release freeze begins in week 4 of May and November."), ref("", "The freeze starts in week 2."), false},
		{ref("Meet Our Contributors", "Every first Wednesday of the month at these times."), ref("", "Regular Localization Meeting: the first Monday of the month."), true},
		{ref("Pull requests", "Pull requests older than 90 days will be closed."), ref("PR lifecycle", "Pull requests with no activity are closed after 120 days."), false},
	} {
		if got := namesApart(tc.a, tc.b); got != tc.want {
			t.Errorf("namesApart(%q, %q) = %v, want %v", tc.a.c.Text, tc.b.c.Text, got, tc.want)
		}
	}
}

// TestTermLike: phrases that address the reader, or hold a possessive or
// a number, are not terms; a template's boilerplate is not a concept.
func TestTermLike(t *testing.T) {
	for p, want := range map[string]bool{"soak period": true, "familiarize yourself": false, "day's schedule": false, "99th percentile": false, "review debt": true} {
		if termLike(p) != want {
			t.Errorf("termLike(%q) = %v", p, !want)
		}
	}
	if !templateText([]string{"sig-a/README.md", "sig-b/README.md", "sig-c/README.md", "guide/x.md"}) {
		t.Error("a phrase on three groups' README.md is not a template's")
	}
	if !templateText([]string{"a/annual-report-2021.md", "b/annual-report-2022.md", "c/annual-report-2023.md"}) {
		t.Error("annual reports of different years are not one template")
	}
	if templateText([]string{"guide/pr-lifecycle.md", "guide/triage-faq.md", "sig-node/onboarding.md", "sig-storage/onboarding.md"}) {
		t.Error("two onboarding pages of four make a template")
	}
}

// TestRecordPath: pages named for a date or a release, or kept in an
// archive folder, are records of their time.
func TestRecordPath(t *testing.T) {
	for p, want := range map[string]bool{
		"sources/Go-1.10-Release-Party.md": true, "archive/sig-x/charter.md": true, "notes/2024-05-01.md": true,
		"pages/MinimumRequirements.md": false, "sig-node/README.md": false, "pages/ipv6.md": false,
	} {
		if recordPath(p) != want {
			t.Errorf("recordPath(%q) = %v", p, !want)
		}
	}
}

// TestWithoutCode: a token with inner punctuation breaks a phrase.
func TestWithoutCode(t *testing.T) {
	got := phrasesOf([]sentence{{Text: "edit the go.mod file and the module cache"}})
	for _, p := range got {
		if p == "mod file" {
			t.Errorf("phrases %q hold a piece of go.mod", got)
		}
	}
}
