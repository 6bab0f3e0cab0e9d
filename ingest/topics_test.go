package ingest_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

const hints = `name: team
topics:
  - name: storage
    description: How pages are stored in git and indexed.
    keywords: [bluge, full-text index]
  - name: release process
    description: Cutting and shipping releases.
    keywords: [changelog, release branch]
`

func TestTopicsFromTaxonomy(t *testing.T) {
	ctx := context.Background()
	s, _ := newSpace(t, hints)
	putPages(t, s, map[string]*content.Page{"pages/oncall.md": agentPage("Pager rotation and escalation", "on-call")})
	cases := []struct {
		title, body string
		want        []string
	}{
		{"Index rebuild notes", "We moved the full-text index to bluge and keyed it by commit.", []string{"storage"}},
		{"Release process for 1.4", "Cut the release branch on Monday.", []string{"release process"}},
		{"Pager rotation handover", "The pager rotation changes on Monday; escalation goes to the lead.", []string{"on-call"}},
		{"Lunch menu", "Soup, bread and a salad of seasonal vegetables.", []string{"lunch"}},
		{"Weekly sync 2026-11-24", "Soup, bread and a salad of seasonal vegetables.", []string{"meeting-notes"}},
		{"Lunch rota", "Who brings the soup on Fridays: the lunch rota.", []string{"lunch"}},
	}
	for i, c := range cases {
		res, err := ingest.Ingest(ctx, s, ingest.Source{Title: c.title, Body: []byte(c.body), Kind: "meeting-notes", ApprovedBy: "dana", Author: dana, When: t0.Add(time.Duration(i) * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		var sum string
		for _, p := range res.Pages {
			if p.Role == wiki.RoleSummary {
				sum = p.Path
			}
		}
		head, _ := s.Head(ctx)
		pa, err := s.ReadPage(ctx, head, sum)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.want, pa.Page.Meta.Topics); d != "" {
			t.Errorf("%q topics (-want +got):\n%s", c.title, d)
		}
	}
}

// TestSpokesAndHubOnlyWhenChanged checks that an ingest rewrites only the
// spokes of the topics it touches, and the hub only when a topic appears.
func TestSpokesAndHubOnlyWhenChanged(t *testing.T) {
	ctx := context.Background()
	s, _ := newSpace(t, "")
	putPages(t, s, map[string]*content.Page{"pages/a.md": agentPage("A", "alpha"), "pages/b.md": agentPage("B", "beta")})
	written := func(topics []string, i int) []string {
		res, err := ingest.Ingest(ctx, s, ingest.Source{Title: "Note " + string(rune('a'+i)), Body: []byte("Note text number " + string(rune('a'+i)) + ".\n"),
			Topics: topics, ApprovedBy: "dana", Author: dana, When: t0.Add(time.Duration(i) * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range res.Pages {
			if p.Role == wiki.RoleSpoke || p.Role == wiki.RoleHub {
				out = append(out, p.Path)
			}
		}
		return out
	}
	if d := cmp.Diff([]string{"topics/alpha.md"}, written([]string{"alpha"}, 0)); d != "" {
		t.Errorf("existing topic (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"topics/gamma.md", "index.md"}, written([]string{"gamma"}, 1)); d != "" {
		t.Errorf("new topic (-want +got):\n%s", d)
	}
}
