package wiki_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

var t0 = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=person", "GIT_AUTHOR_EMAIL=p@example.com", "GIT_COMMITTER_NAME=person", "GIT_COMMITTER_EMAIL=p@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func newSpace(t *testing.T) (*wiki.Space, string) {
	t.Helper()
	dir := t.TempDir()
	s, res, err := wiki.Init(context.Background(), dir, wiki.InitOptions{Name: "team", When: t0, Clock: wiki.SteppingClock(t0, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if res.Commit == "" {
		t.Fatal("init made no commit")
	}
	return s, dir
}

func page(title string, topics ...string) *content.Page {
	return content.NewPage(content.Meta{Title: title, Kind: content.KindPage, Topics: topics, Summary: title + " in one line."},
		[]byte("# "+title+"\n\nBody of "+title+".\n"))
}

func TestInitApplyRevert(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	for _, f := range []string{"kb.yaml", "index.md", "log.md", ".gitignore"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatalf("init did not write %s: %v", f, err)
		}
	}
	before := git(t, dir, "rev-parse", "HEAD^{tree}")
	res, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: "two pages", ApprovedBy: "dana", When: t0.Add(time.Hour)},
		func(ctx context.Context, tx *wiki.Tx) error {
			if _, err := tx.Put(ctx, "pages/storage.md", page("Storage", "storage"), wiki.RolePage); err != nil {
				return err
			}
			_, err := tx.Put(ctx, "pages/index-keys.md", page("Index keys", "storage", "retrieval"), wiki.RolePage)
			return err
		})
	if err != nil {
		t.Fatal(err)
	}
	msg := git(t, dir, "log", "-1", "--format=%B")
	for _, want := range []string{"ingest: two pages", "Batch-Id: " + res.Batch, "Batch-Kind: ingest", "Approved-By: dana"} {
		if !strings.Contains(msg, want) {
			t.Errorf("commit message lacks %q:\n%s", want, msg)
		}
	}
	if n := git(t, dir, "rev-list", "--count", "HEAD"); n != "2" {
		t.Fatalf("want 2 commits, got %s", n)
	}
	spoke := git(t, dir, "show", "HEAD:topics/storage.md")
	if !strings.Contains(spoke, "[Index keys](../pages/index-keys.md) — Index keys in one line.") || !strings.Contains(spoke, "[Storage](../pages/storage.md)") {
		t.Fatalf("spoke:\n%s", spoke)
	}
	hub := git(t, dir, "show", "HEAD:index.md")
	if !strings.Contains(hub, "[retrieval](topics/retrieval.md)") || !strings.Contains(hub, "[storage](topics/storage.md)") {
		t.Fatalf("hub:\n%s", hub)
	}
	if !strings.Contains(git(t, dir, "show", "HEAD:log.md"), res.Batch) {
		t.Fatal("log entry missing")
	}
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Fatalf("work tree not in step:\n%s", st)
	}
	// Revert: the tree is back as it was, log aside.
	rv, err := s.Revert(ctx, res.Batch, wiki.RevertOptions{ApprovedBy: "dana", When: t0.Add(2 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(git(t, dir, "log", "-1", "--format=%B"), "Reverts: "+res.Batch) {
		t.Fatal("revert trailer missing")
	}
	diff := git(t, dir, "diff", "--name-only", before, rv.Commit)
	if diff != "log.md" {
		t.Fatalf("after revert, tree differs from before in: %q", diff)
	}
	git(t, dir, "fsck", "--strict")
	// A second revert conflicts: the revert changed every path, and the
	// error names the batch that already reverted it.
	_, err = s.Revert(ctx, res.Batch, wiki.RevertOptions{ApprovedBy: "dana"})
	if !errors.Is(err, wiki.ErrConflict) || !strings.Contains(err.Error(), "already reverted by "+rv.Batch) {
		t.Fatalf("second revert: %v, want a conflict naming %s", err, rv.Batch)
	}
}

func TestRevertRefusesLaterEdit(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	res, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: "one", ApprovedBy: "dana"}, func(ctx context.Context, tx *wiki.Tx) error {
		_, err := tx.Put(ctx, "pages/a.md", page("A", "x"), wiki.RolePage)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "pages/a.md"), []byte("# edited by a person\n"), 0o644)
	git(t, dir, "commit", "-qam", "person edits a")
	head := git(t, dir, "rev-parse", "HEAD")
	_, err = s.Revert(ctx, res.Batch, wiki.RevertOptions{ApprovedBy: "dana"})
	paths, ok := wiki.IsConflict(err)
	if !ok || len(paths) != 1 || paths[0] != "pages/a.md" || strings.Contains(err.Error(), "already reverted") {
		t.Fatalf("want conflict on pages/a.md, got %v", err)
	}
	if git(t, dir, "rev-parse", "HEAD") != head {
		t.Fatal("refused revert moved HEAD")
	}
}

func TestApplyAfterPlainGitCommit(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	os.MkdirAll(filepath.Join(dir, "pages"), 0o755)
	os.WriteFile(filepath.Join(dir, "pages/human.md"), []byte("---\ntitle: Human\nauthor: {kind: human}\n---\nhello\n"), 0o644)
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-qm", "person adds a page")
	_, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: "b", ApprovedBy: "x"}, func(ctx context.Context, tx *wiki.Tx) error {
		pa, err := tx.ReadPage(ctx, "pages/human.md")
		if err != nil {
			return err
		}
		if !pa.Page.Meta.OwnedByHuman() {
			t.Error("human page not seen")
		}
		_, err = tx.Put(ctx, "pages/b.md", page("B"), wiki.RolePage)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := git(t, dir, "rev-list", "--count", "HEAD"); n != "3" {
		t.Fatalf("commits = %s", n)
	}
	git(t, dir, "fsck", "--strict")
}

func TestUnchangedBatchWritesNothing(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	head := git(t, dir, "rev-parse", "HEAD")
	data, _, _ := s.ReadFile(ctx, wiki.Rev(head), "index.md")
	res, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindLint, Title: "nothing"}, func(ctx context.Context, tx *wiki.Tx) error {
		_, err := tx.PutFile(ctx, "index.md", data, wiki.RoleHub)
		return err
	})
	if err != nil || !res.Unchanged {
		t.Fatalf("res %+v err %v", res, err)
	}
	if git(t, dir, "rev-parse", "HEAD") != head {
		t.Fatal("empty batch committed")
	}
}

func TestSpokeSplitsIntoParts(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	os.WriteFile(filepath.Join(dir, "kb.yaml"), []byte("name: team\nspoke_limit: 3\n"), 0o644)
	git(t, dir, "commit", "-qam", "limit")
	s.Close()
	s, err := wiki.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	s.SetClock(wiki.SteppingClock(t0.Add(time.Hour), time.Second))
	defer s.Close()
	_, err = s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: "seven", ApprovedBy: "x"}, func(ctx context.Context, tx *wiki.Tx) error {
		for _, n := range []string{"a", "b", "c", "d", "e", "f", "g"} {
			if _, err := tx.Put(ctx, "pages/"+n+".md", page(strings.ToUpper(n), "big"), wiki.RolePage); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	parent := git(t, dir, "show", "HEAD:topics/big.md")
	if !strings.Contains(parent, "big/part-3.md") || strings.Contains(parent, "pages/a.md") {
		t.Fatalf("parent spoke:\n%s", parent)
	}
	if p3 := git(t, dir, "show", "HEAD:topics/big/part-3.md"); !strings.Contains(p3, "../../pages/g.md") {
		t.Fatalf("part 3:\n%s", p3)
	}
	// A page added in the middle rewrites the part it falls in (split,
	// being full) and the parent's list, not the parts after it.
	for _, add := range []struct{ name, want string }{{"bb", "topics/big/part-1.md topics/big/part-4.md"}, {"h", "topics/big/part-3.md"}} {
		_, err = s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: "add " + add.name, ApprovedBy: "x"}, func(ctx context.Context, tx *wiki.Tx) error {
			_, err := tx.Put(ctx, "pages/"+add.name+".md", page(strings.ToUpper(add.name), "big"), wiki.RolePage)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.Fields(git(t, dir, "diff", "--name-only", "HEAD~1", "HEAD", "--", "topics/big/"))
		if got := strings.Join(parts, " "); got != add.want {
			t.Errorf("adding %s rewrote parts %q, want %q", add.name, got, add.want)
		}
	}
	parent = git(t, dir, "show", "HEAD:topics/big.md")
	order := []string{"big/part-1.md", "big/part-4.md", "big/part-2.md", "big/part-3.md"}
	for i := 1; i < len(order); i++ {
		if a, b := strings.Index(parent, order[i-1]), strings.Index(parent, order[i]); a < 0 || b < a {
			t.Fatalf("parent lists parts out of title order (want %v):\n%s", order, parent)
		}
	}
	if p4 := git(t, dir, "show", "HEAD:topics/big/part-4.md"); !strings.Contains(p4, "../../pages/bb.md") || !strings.Contains(p4, "../../pages/c.md") {
		t.Fatalf("part 4:\n%s", p4)
	}
	// Removing pages shrinks it back to one spoke.
	_, err = s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: "drop", ApprovedBy: "x"}, func(ctx context.Context, tx *wiki.Tx) error {
		for _, n := range []string{"a", "b", "bb", "c", "d", "h"} {
			if err := tx.Delete(ctx, "pages/"+n+".md", wiki.RolePage); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if ls := git(t, dir, "ls-tree", "-r", "--name-only", "HEAD", "topics/"); ls != "topics/big.md" {
		t.Fatalf("topics after shrink: %q", ls)
	}
	git(t, dir, "fsck", "--strict")
}

func TestHistoryOfANestedSpace(t *testing.T) {
	ctx := context.Background()
	outer, root := newSpace(t)
	os.WriteFile(filepath.Join(root, "README.md"), []byte("# repo\n"), 0o644)
	git(t, root, "add", "README.md")
	git(t, root, "commit", "-qm", "outside the nested space")
	nested, _, err := wiki.Init(ctx, filepath.Join(root, "teams", "infra", "kb"), wiki.InitOptions{Name: "infra", Clock: wiki.SteppingClock(t0, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	defer nested.Close()
	if _, err := nested.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: "infra page", ApprovedBy: "x"}, func(ctx context.Context, tx *wiki.Tx) error {
		_, err := tx.Put(ctx, "pages/a.md", page("A", "infra"), wiki.RolePage)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "README.md"), []byte("# repo, edited\n"), 0o644)
	git(t, root, "commit", "-qam", "outside again")
	cs, err := nested.History(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for _, c := range cs {
		subjects = append(subjects, c.Subject)
	}
	want := []string{"ingest: infra page", "init: create space infra"}
	if strings.Join(subjects, "|") != strings.Join(want, "|") {
		t.Fatalf("nested history = %q, want %q", subjects, want)
	}
	if cs, _ := nested.History(ctx, "", 1); len(cs) != 1 || cs[0].Subject != want[0] {
		t.Fatalf("History with max 1 = %+v", cs)
	}

	// A batch is found by its id in its own space only.
	c, err := nested.FindBatch(ctx, cs[0].Batch.BatchID)
	if err != nil || c.Hash != cs[0].Hash {
		t.Fatalf("FindBatch(%s) = %+v, %v; want %s", cs[0].Batch.BatchID, c, err, cs[0].Hash)
	}
	oc, err := outer.History(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	outerInit := oc[len(oc)-1].Batch.BatchID
	if _, err := outer.FindBatch(ctx, outerInit); err != nil {
		t.Fatalf("outer space's own init batch: %v", err)
	}
	if _, err := nested.FindBatch(ctx, outerInit); !errors.Is(err, wiki.ErrNotFound) {
		t.Errorf("the outer space's batch from the nested space: %v, want not found", err)
	}
	if _, err := nested.FindBatch(ctx, "b-20000101-000000"); !errors.Is(err, wiki.ErrNotFound) {
		t.Errorf("unknown batch: %v, want not found", err)
	}

	// A path may climb to the repository's root (as Init's CI job does),
	// never to a folder of another space.
	head := git(t, root, "rev-parse", "HEAD")
	for _, p := range []string{"../sibling.md", "../../x.md", "../../../../outside.md"} {
		_, err := nested.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: "climb", ApprovedBy: "x"}, func(ctx context.Context, tx *wiki.Tx) error {
			_, err := tx.PutFile(ctx, p, []byte("x\n"), wiki.RoleConfig)
			return err
		})
		if err == nil {
			t.Errorf("writing %s from teams/infra/kb succeeded", p)
		}
	}
	if got := git(t, root, "rev-parse", "HEAD"); got != head {
		t.Errorf("a refused climb moved HEAD")
	}
}

// A batch id names the commit its batch made, wherever a revision is asked
// for (pt show --rev, pt retro --since).
func TestResolveBatchID(t *testing.T) {
	ctx := context.Background()
	s, _ := newSpace(t)
	res, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: "one", ApprovedBy: "dana"}, func(ctx context.Context, tx *wiki.Tx) error {
		_, err := tx.Put(ctx, "pages/a.md", page("A", "x"), wiki.RolePage)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.Resolve(ctx, res.Batch); err != nil || string(got) != res.Commit {
		t.Errorf("Resolve(%s) = %s, %v; want %s", res.Batch, got, err, res.Commit)
	}
	if _, err := s.Resolve(ctx, "b-20000101-000000"); !errors.Is(err, wiki.ErrNotFound) {
		t.Errorf("unknown batch id: %v, want not found", err)
	}
}
