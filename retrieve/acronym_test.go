package retrieve

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ptwiki/pt/content"
)

// The long form is the shortest that holds the short form's letters
// (Schwartz and Hearst): "Conduct Committee" for CoCC, which still matches
// a question that says "code of conduct committee".
func TestAcronyms(t *testing.T) {
	text := `Kubernetes Enhancement Proposals (KEPs) describe changes. A working group (WG) is temporary.
The Code of Conduct Committee (CoCC) meets monthly. Fields marked (optional) may be left out.
See the Special Interest Group (SIG) list. Ask on Slack (SLACK). Continuous integration (CI) runs.`
	var got []string
	for _, a := range acronyms(text) {
		got = append(got, a.short+"="+strings.Join(a.long, " "))
	}
	want := "kep=kubernet enhanc propos|wg=work group|cocc=conduct committe|sig=special interest group|ci=continu integr"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("acronyms:\n got %s\nwant %s", g, want)
	}
}

// A question that spells out a long form the space abbreviates ranks the
// page that only uses the short form higher than it would without, and the
// trace says so.
func TestAcronymExpansion(t *testing.T) {
	s := newSpace(t)
	eng := openEngine(t, s)
	files := map[string]string{
		"pages/glossary.md": page(content.Meta{Title: "Glossary"}, "# Glossary\n\nA working group (WG) is a temporary group with a charter.\n\n"+
			strings.Repeat("Other terms of the project are listed here with their meaning, for readers new to it.\n\n", 12)),
		"pages/lifecycle.md": page(content.Meta{Title: "Lifecycle"},
			"# Lifecycle\n\nTo start a new WG, send the proposal to the steering committee, which approves it.\n"),
	}
	for i := range 6 {
		files[fmt.Sprintf("pages/steering-%d.md", i)] = page(content.Meta{Title: fmt.Sprintf("Steering note %d", i)},
			fmt.Sprintf("# Note %d\n\nThe steering committee approves the budget of round %d and starts new programs.\n", i, i))
	}
	put(t, s, files)
	ctx := context.Background()
	q := "How do I start a new working group, and who approves it?"
	rankWith := func(eng *Engine) (int, *Result) {
		t.Helper()
		res, err := eng.Query(ctx, Request{Question: q, Now: testWhen})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range res.Results {
			if r.Path == "pages/lifecycle.md" {
				return i + 1, res
			}
		}
		return 99, res
	}
	rank := func() (int, *Result) { return rankWith(eng) }
	with, res := rank()
	if strings.Join(res.Trace.Expanded, ",") != "wg" {
		t.Errorf("trace.expanded = %v, want [wg]", res.Trace.Expanded)
	}
	rk := DefaultRanking()
	rk.Acronyms = false
	off := Open(s, Options{Ranking: rk, IndexDir: t.TempDir()})
	defer off.Close()
	without, _ := rankWith(off)
	if with > 2 || with >= without {
		t.Errorf("pages/lifecycle.md ranks %d with the expansion, %d without", with, without)
	}
	// Once the definition is gone, so is the expansion.
	put(t, s, map[string]string{"pages/glossary.md": page(content.Meta{Title: "Glossary"}, "# Glossary\n\nNothing defined here.\n")})
	if _, res := rank(); len(res.Trace.Expanded) != 0 {
		t.Errorf("expanded %v after the definition was removed", res.Trace.Expanded)
	}
}

// FuzzAcronyms: any text yields definitions whose short form is one term
// not among its long form's two or more, at most maxPageAcronyms of them.
func FuzzAcronyms(f *testing.F) {
	for _, s := range []string{"A working group (WG) met.", "(WG)", "x (AB) (CD) (EF)", "Ünïcode Ŵord (ÜW)", "a\xffb (AB)", strings.Repeat("Big Word (BW) ", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		as := acronyms(text)
		if len(as) > maxPageAcronyms {
			t.Fatalf("%d definitions", len(as))
		}
		for _, a := range as {
			if a.short == "" || len(a.long) < 2 || slices.Contains(a.long, a.short) {
				t.Fatalf("bad definition %+v", a)
			}
		}
	})
}

// The graded signal counts a long form as held by an excerpt that uses its
// short form: "working group" is what a page saying "WG" is about, not a
// word the answer lacks.
func TestAcronymHeldByShortForm(t *testing.T) {
	s := newSpace(t)
	files := map[string]string{
		"pages/glossary.md": page(content.Meta{Title: "Glossary"}, "# Glossary\n\nA working group (WG) is a temporary group with a charter.\n\n"+
			strings.Repeat("Other terms of the project are listed here with their meaning, for readers new to it.\n\n", 200)),
		"pages/lifecycle.md": page(content.Meta{Title: "Lifecycle"},
			"# Lifecycle\n\nTo start a new WG, send the charter to the steering committee, which approves it.\n"),
		"pages/budget.md": page(content.Meta{Title: "Budget"},
			"# Budget\n\nTo start a new budget, send it to the steering committee, which approves it.\n"),
		"pages/events.md": page(content.Meta{Title: "Events"},
			"# Events\n\nTo start a new event, ask the steering committee, who approves it.\n"),
	}
	padSpace(files, "steering", "Steering note %d", func(i int) string {
		return fmt.Sprintf("# Note %d\n\nThe steering committee approves the new budget of round %d.\n", i, i)
	})
	put(t, s, files)
	coveredOnlyWith(t, s, "How do I start a new working group, and who approves it?", "pages/lifecycle.md", "working", func(rk *Ranking) { rk.Acronyms = false })
}
