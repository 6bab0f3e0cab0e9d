package wiki_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// A space inside a space's folder is a space of its own: the outer space
// neither lists its files nor sees them change, and a kb.yaml committed to
// a folder by hand takes that folder's pages out of the outer space (and
// its removal brings them back) in Diff as in List.
func TestNestedSpaceIsNotTheOuterOnes(t *testing.T) {
	ctx := context.Background()
	outer, dir := newSpace(t)
	put := func(s *wiki.Space, p string, when time.Time) {
		t.Helper()
		if _, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: p, ApprovedBy: "dana", When: when},
			func(ctx context.Context, tx *wiki.Tx) error {
				_, err := tx.Put(ctx, p, page(p, "x"), wiki.RolePage)
				return err
			}); err != nil {
			t.Fatal(err)
		}
	}
	put(outer, "notes/a.md", t0.Add(time.Hour))
	inner, _, err := wiki.Init(ctx, filepath.Join(dir, "inner"), wiki.InitOptions{Name: "inner", When: t0.Add(2 * time.Hour), Clock: wiki.SteppingClock(t0.Add(2*time.Hour), time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	defer inner.Close()
	put(inner, "pages/b.md", t0.Add(3*time.Hour))

	paths := func(rev wiki.Rev) []string {
		es, err := outer.Pages(ctx, rev)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			out = append(out, e.Path)
		}
		return out
	}
	diff := func(from, to wiki.Rev) map[string]string {
		cs, err := outer.Diff(ctx, from, to)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, c := range cs {
			switch {
			case c.From == "":
				out[c.Path] = "added"
			case c.To == "":
				out[c.Path] = "deleted"
			default:
				out[c.Path] = "changed"
			}
		}
		return out
	}
	rev := func(r string) wiki.Rev { return wiki.Rev(git(t, dir, "rev-parse", r)) }

	head := rev("HEAD")
	for _, p := range paths(head) {
		if strings.HasPrefix(p, "inner/") {
			t.Errorf("the outer space lists %s", p)
		}
	}
	for p := range diff("", head) {
		if strings.HasPrefix(p, "inner/") {
			t.Errorf("the outer space's diff holds %s", p)
		}
	}
	if !slices.Contains(paths(head), "notes/a.md") {
		t.Fatalf("notes/a.md missing from %v", paths(head))
	}

	// A person makes notes/ a space of its own, then undoes it.
	if err := os.WriteFile(filepath.Join(dir, "notes", "kb.yaml"), []byte("name: notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "notes/kb.yaml")
	git(t, dir, "commit", "-qm", "notes is a space")
	if got := diff(head, rev("HEAD")); len(got) != 1 || got["notes/a.md"] != "deleted" {
		t.Errorf("making notes/ a space: diff %v, want notes/a.md deleted", got)
	}
	if slices.Contains(paths(rev("HEAD")), "notes/a.md") {
		t.Error("notes/a.md is still listed once notes/ is a space")
	}
	git(t, dir, "rm", "-q", "notes/kb.yaml")
	git(t, dir, "commit", "-qm", "notes is a folder again")
	if got := diff(rev("HEAD~1"), rev("HEAD")); len(got) != 1 || got["notes/a.md"] != "added" {
		t.Errorf("undoing it: diff %v, want notes/a.md added", got)
	}
	if got := diff(head, rev("HEAD")); len(got) != 0 {
		t.Errorf("across both: diff %v, want none", got)
	}
}
