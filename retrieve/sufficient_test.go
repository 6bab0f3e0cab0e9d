package retrieve

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ptwiki/pt/content"
)

// A question whose subject word no page holds is refused even when the
// pages share its other words, and the refusal names the word as asked; the
// same question about what the pages do say is answered. The rule needs a
// space large enough to tell rare words from common ones.
func TestMissingWordRefuses(t *testing.T) {
	s := newSpace(t)
	files := map[string]string{}
	padSpace(files, "team", "Team note %d", func(i int) string {
		return fmt.Sprintf("# Note %d\n\nHow the team works with interns on release %d, how much and how many reviews each change gets each round, and who is paid for it.\n", i, i)
	})
	put(t, s, files)
	put(t, s, map[string]string{
		"pages/interns.md": page(content.Meta{Title: "Intern programme"},
			"# Intern programme\n\nInterns work on the scheduler with two mentors. The programme has three coordinators, who pick the projects each round.\n"),
		"pages/mentors.md": page(content.Meta{Title: "Mentors"},
			"# Mentors\n\nA mentor meets the interns every week and reviews their work. Mentors are paid by their employers; how much time they give each round is up to them.\n"),
		"pages/rounds.md": page(content.Meta{Title: "Rounds"},
			"# Rounds\n\nEach round lasts three months. Projects are proposed by the coordinators.\n"),
	})
	// Pages this uniform make any match a peak far above the rest; the
	// peak rule is checked elsewhere (TestStandsOut).
	rk := DefaultRanking()
	rk.PeakRatio = 1e9
	eng := Open(s, Options{Ranking: rk})
	defer eng.Close()
	ctx := context.Background()
	res, err := eng.Query(ctx, Request{Question: "How much is the stipend paid to interns who work on the scheduler each round?", Now: testWhen})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sufficient || len(res.Results) != 0 {
		t.Fatalf("stipend: want insufficient and no results, got %+v", res)
	}
	if !strings.Contains(res.Trace.Reason, `"stipend"`) {
		t.Errorf("reason %q does not name the missing word", res.Trace.Reason)
	}
	if res.Trace.Coverage < rk.MinCoverage {
		t.Errorf("coverage %.2f: the coverage rule refused, not the missing word", res.Trace.Coverage)
	}
	res, err = eng.Query(ctx, Request{Question: "How many coordinators pick the intern projects each round?", Now: testWhen})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Sufficient || len(res.Results) == 0 || res.Results[0].Path != "pages/interns.md" {
		t.Fatalf("coordinators: want pages/interns.md first, got sufficient %v (%s, coverage %.2f), %d results", res.Sufficient, res.Trace.Reason, res.Trace.Coverage, len(res.Results))
	}
}

func TestQuestionWord(t *testing.T) {
	for _, c := range []struct{ q, term, want string }{
		{"How much does the foundation pay speakers?", "foundat", "foundation"},
		{"Is Bazel supported?", "bazel", "Bazel"},
		{"what about (GOAMD64=v3)", "nosuchterm", "nosuchterm"},
	} {
		if got := questionWord(c.q, c.term); got != c.want {
			t.Errorf("questionWord(%q, %q) = %q, want %q", c.q, c.term, got, c.want)
		}
	}
}

// A missing word that the space uses in several places is a matter of
// wording, not a subject the space lacks: the question is answered.
func TestMissingCommonWordAnswers(t *testing.T) {
	s := newSpace(t)
	files := map[string]string{}
	padSpace(files, "team", "Team note %d", func(i int) string {
		return fmt.Sprintf("# Note %d\n\nHow the team works on release %d, how much and how many reviews each change gets, and who is paid for it.\n", i, i)
	})
	for i := range 6 {
		files[fmt.Sprintf("pages/equipment-%d.md", i)] = page(content.Meta{Title: fmt.Sprintf("Equipment %d", i)},
			fmt.Sprintf("# Equipment %d\n\nEvery new laptop is ordered through the office in batch %d.\n", i, i))
	}
	files["pages/interns.md"] = page(content.Meta{Title: "Intern programme"},
		"# Intern programme\n\nInterns work on the scheduler with two mentors. The programme has three coordinators, who pick the projects each round and hand over the equipment interns need.\n")
	files["pages/mentors.md"] = page(content.Meta{Title: "Mentors"},
		"# Mentors\n\nA mentor of the intern programme meets the interns every week; the coordinators pair them.\n")
	files["pages/rounds.md"] = page(content.Meta{Title: "Rounds"},
		"# Rounds\n\nEach round of the intern programme lasts three months. Projects are proposed by the coordinators.\n")
	put(t, s, files)
	// With every missing word counted as rare, "laptop" refuses.
	answeredOnlyWith(t, s, "Which laptop do interns get handed, and how much is paid?", "pages/interns.md", func(rk *Ranking) { rk.MissingMaxDF = 1 })
}
