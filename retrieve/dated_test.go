package retrieve

import (
	"context"
	"testing"

	"github.com/ptwiki/pt/content"
)

func TestYearly(t *testing.T) {
	for k, want := range map[string]bool{
		"events/2017/12-contributor-summit/notes.md": true,
		"sig-node/archive/meeting-notes-2019.md":     true,
		"sig-security/annual-report-2020.md":         true,
		"2026-11-standup.md":                         false, // a record named by its date
		"postmortems/2026-09-ledger-outage.md":       false,
		"meetings/2026/2026-11-standup.md":           true,
		"sources/weekly-sync-2026-11-20.md":          false,
		"sig-apps/minutes/2016-06-29.md":             false,
		"transparency-reports/2022-h1.md":            true,
		"notes-2026-13.md":                           true, // no month 13
		"sig-network/role-sig-chair.md":              false,
	} {
		if got := yearly(k); got != want {
			t.Errorf("yearly(%q) = %v, want %v", k, got, want)
		}
	}
}

func TestHasYear(t *testing.T) {
	for s, want := range map[string]bool{
		"committee-code-of-conduct/transparency-reports/2022-h1.md": true,
		"events/2017/12-contributor-summit/notes.md":                true,
		"sig-node/archive/meeting-notes-2019.md":                    true,
		"How many reports came in during H1 2022?":                  true,
		"sig-network/role-sig-chair.md":                             false,
		"build 20220 and 3000 and 1899 and port 8080":               false,
		"": false,
	} {
		if got := hasYear(s); got != want {
			t.Errorf("hasYear(%q) = %v, want %v", s, got, want)
		}
	}
}

// A page filed under a year ranks behind a timeless page that answers
// nearly as well (the dated one repeats the question's words once more),
// unless the question names a year.
func TestDatedPagesYieldToTimeless(t *testing.T) {
	s := newSpace(t)
	eng := openEngine(t, s)
	body := "# Reviews\n\nEvery change needs two approvals from the owners of the code it touches before it merges.\n"
	put(t, s, map[string]string{
		"pages/meetings/2021/review-notes.md": page(content.Meta{Title: "Review policy"}, body+"\nThe owners of the code give the approvals a change needs.\n"),
		"pages/review-policy.md":              page(content.Meta{Title: "Review policy"}, body),
	})
	ctx := context.Background()
	first := func(q string) string {
		t.Helper()
		res, err := eng.Query(ctx, Request{Question: q, Now: testWhen})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 {
			t.Fatalf("%q: no results (%s)", q, res.Trace.Reason)
		}
		return res.Results[0].Path
	}
	if got := first("How many approvals does a change need from the owners of the code?"); got != "pages/review-policy.md" {
		t.Errorf("no year asked: first %s, want pages/review-policy.md", got)
	}
	if got := first("How many approvals did a change need from the owners of the code in 2021?"); got != "pages/meetings/2021/review-notes.md" {
		t.Errorf("2021 asked: first %s, want pages/meetings/2021/review-notes.md", got)
	}
}
