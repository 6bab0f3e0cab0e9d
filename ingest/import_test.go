package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

// writeCorpus writes a small corpus with the shapes real ones have: own
// frontmatter, links without .md, site-prefixed and root-absolute links,
// a folder, and bad files.
func writeCorpus(t *testing.T, dir string) {
	files := map[string]string{
		"Home.md":           "---\ntitle: Home\nweight: 3\n---\n# Home\n\nSee [Modules](Modules), [the FAQ](/wiki/FAQ#top), [guide](guide/) and [Go](https://go.dev/).\n",
		"Modules.md":        "# Modules\n\nModules are how Go manages dependencies. See [the FAQ](https://go.dev/wiki/FAQ).\n",
		"FAQ.md":            "# FAQ\n\nFrequently asked questions about modules. Back [home](./Home.md).\n",
		"guide/README.md":   "# Guide\n\nStart with [setup](setup.md) and the [root](/Home.md).\n",
		"guide/setup.md":    "# Setup\n\nInstall Go, then read [the guide](README.md).\n",
		"guide/advanced.md": "# Advanced\n\nFor experts.\n",
		"guide/notes.txt":   "not markdown\n",
		"bad/empty.md":      "\n\n",
		"bad/binary.md":     "text\x00more\n",
		"bad/latin1.md":     "caf\xe9\n",
		"bad/secret.md":     "token: ghp_abcdefghijklmnopqrstuvwxyz0123456789\n",
		".hidden/skip.md":   "# never imported\n",
		"guide/.draft/x.md": "# never imported\n",
	}
	for p, c := range files {
		writeFile(t, filepath.Join(dir, p), c)
	}
}

// treeHash is the hash of a directory's files, to prove an import leaves
// its originals alone.
func treeHash(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			data, _ := os.ReadFile(p)
			b.WriteString(p + "\x00" + wiki.BlobID(data) + "\n")
		}
		return nil
	})
	return wiki.BlobID([]byte(b.String()))
}

func TestImport(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	corpusDir := filepath.Join(t.TempDir(), "corpus")
	writeCorpus(t, corpusDir)
	originals := treeHash(t, corpusDir)
	before := git(t, dir, "rev-parse", "HEAD")
	opts := ingest.ImportOptions{ApprovedBy: "dana", Author: dana, When: t0.Add(time.Hour), SitePrefixes: []string{"/wiki/", "https://go.dev/wiki/"}}
	var progress []int
	opts.Progress = func(done, total int) { progress = append(progress, done, total) }
	res, err := ingest.Import(ctx, s, corpusDir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, dir, "rev-parse", "HEAD~1"); got != before {
		t.Fatal("import made more than one commit")
	}
	if res.Imported != 6 || res.Updated != 0 || res.UnchangedFiles != 0 || res.Kind != wiki.KindImport {
		t.Errorf("counts: imported %d updated %d unchanged %d kind %s", res.Imported, res.Updated, res.UnchangedFiles, res.Kind)
	}
	var skipped []string
	for _, sk := range res.Skipped {
		skipped = append(skipped, sk.Path+": "+sk.Reason)
	}
	want := []string{
		"bad/binary.md: line 1: binary content (NUL byte)",
		"bad/empty.md: empty source (no text after the frontmatter)",
		"bad/latin1.md: line 1: invalid UTF-8",
		"bad/secret.md: refusing secret",
	}
	if len(skipped) != len(want) {
		t.Fatalf("skipped:\n%s", strings.Join(skipped, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(skipped[i], want[i]) {
			t.Errorf("skipped[%d] = %q, want prefix %q", i, skipped[i], want[i])
		}
	}
	if len(progress) == 0 || progress[len(progress)-2] != progress[len(progress)-1] {
		t.Errorf("progress did not reach its total: %v", progress)
	}
	files := strings.Fields(git(t, dir, "ls-tree", "-r", "--name-only", "HEAD", "sources", "summaries"))
	wantFiles := []string{"sources/FAQ.md", "sources/Home.md", "sources/Modules.md", "sources/guide/README.md", "sources/guide/advanced.md", "sources/guide/setup.md",
		"summaries/FAQ.md", "summaries/Home.md", "summaries/Modules.md", "summaries/guide/README.md", "summaries/guide/advanced.md", "summaries/guide/setup.md"}
	if d := cmp.Diff(wantFiles, files); d != "" {
		t.Errorf("imported files (-want +got):\n%s", d)
	}
	home := git(t, dir, "show", "HEAD:sources/Home.md")
	for _, w := range []string{"weight: 3", "kind: source", "origin: Home.md@", "approved_by: dana",
		"[Modules](Modules.md)", "[the FAQ](FAQ.md#top)", "[guide](guide/README.md)", "[Go](https://go.dev/)"} {
		if !strings.Contains(home, w) {
			t.Errorf("sources/Home.md lacks %q:\n%s", w, home)
		}
	}
	if g := git(t, dir, "show", "HEAD:sources/guide/README.md"); !strings.Contains(g, "[setup](setup.md)") || !strings.Contains(g, "[root](../Home.md)") {
		t.Errorf("sources/guide/README.md:\n%s", g)
	}
	if m := git(t, dir, "show", "HEAD:sources/Modules.md"); !strings.Contains(m, "[the FAQ](FAQ.md)") {
		t.Errorf("site-prefixed link not rewritten:\n%s", m)
	}
	// every link between imported pages resolves in the space
	head, _ := s.Head(ctx)
	for _, f := range wantFiles {
		pa, err := s.ReadPage(ctx, head, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range content.Analyze(pa.Raw).Links {
			if to, ok := l.Resolve(f); ok {
				if _, _, err := s.ReadFile(ctx, head, to); err != nil {
					t.Errorf("%s:%d: link %s does not resolve: %v", f, l.Line, l.Target, err)
				}
			}
		}
		if strings.HasPrefix(f, "summaries/") {
			src := "sources/" + strings.TrimPrefix(f, "summaries/")
			if d := cmp.Diff([]content.Ref{{Path: src, Revision: git(t, dir, "rev-parse", "HEAD:"+src)}}, pa.Page.Meta.Provenance.DerivedFrom); d != "" {
				t.Errorf("%s derived_from (-want +got):\n%s", f, d)
			}
		}
	}
	if got := git(t, dir, "show", "HEAD:summaries/guide/setup.md"); !strings.Contains(got, "topics:\n    - guide") {
		t.Errorf("folder topic not assigned:\n%s", got)
	}
	if treeHash(t, corpusDir) != originals {
		t.Error("the originals changed")
	}
	git(t, dir, "fsck", "--strict")
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not in step:\n%s", st)
	}

	// the same directory again: nothing to write
	head1 := git(t, dir, "rev-parse", "HEAD")
	opts.Progress = nil
	res, err = ingest.Import(ctx, s, corpusDir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Unchanged || res.UnchangedFiles != 6 || res.Imported+res.Updated != 0 || git(t, dir, "rev-parse", "HEAD") != head1 {
		t.Errorf("re-import of an unchanged directory: %+v %+v", res, res.Result)
	}

	// one file changed: only its source and summary change, and a key a
	// person added to the summary stays
	sumPath := filepath.Join(dir, "summaries/guide/setup.md")
	data, err := os.ReadFile(sumPath)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, sumPath, strings.Replace(string(data), "kind: source_summary\n", "kind: source_summary\nreviewer_note: keep this\n", 1))
	git(t, dir, "commit", "-qam", "a person notes the summary")
	writeFile(t, filepath.Join(corpusDir, "guide/setup.md"), "# Setup\n\nInstall Go 1.26, then read [the guide](README.md).\n")
	opts.When = t0.Add(2 * time.Hour)
	res, err = ingest.Import(ctx, s, corpusDir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Updated != 1 || res.UnchangedFiles != 5 || res.Imported != 0 {
		t.Errorf("counts after one change: %+v", res)
	}
	changed := strings.Fields(git(t, dir, "diff", "--name-only", "HEAD~1", "HEAD"))
	sort.Strings(changed)
	if d := cmp.Diff([]string{"log.md", "sources/guide/setup.md", "summaries/guide/setup.md", "topics/guide.md"}, changed); d != "" {
		t.Errorf("paths changed by the second import (-want +got):\n%s", d)
	}
	if got := git(t, dir, "show", "HEAD:sources/guide/setup.md"); !strings.Contains(got, "created: 2026-11-29T19:00:00Z") || !strings.Contains(got, "updated: 2026-11-29T20:00:00Z") {
		t.Errorf("update lost created or did not set updated:\n%s", got)
	}
	if got := git(t, dir, "show", "HEAD:summaries/guide/setup.md"); !strings.Contains(got, "reviewer_note: keep this") || !strings.Contains(got, "Go 1.26") {
		t.Errorf("the rewritten summary lost a person's key or kept the old text:\n%s", got)
	}

}

func TestImportStrictWritesNothing(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	corpusDir := t.TempDir()
	writeCorpus(t, corpusDir)
	before := stateOf(t, dir)
	_, err := ingest.Import(ctx, s, corpusDir, ingest.ImportOptions{ApprovedBy: "dana", Strict: true})
	if err == nil || !strings.Contains(err.Error(), "bad file") || !strings.Contains(err.Error(), "bad/binary.md") {
		t.Errorf("strict import error = %v", err)
	}
	if _, err := ingest.Import(ctx, s, corpusDir, ingest.ImportOptions{}); err == nil || !strings.Contains(err.Error(), "approved_by is required") {
		t.Errorf("import without approver: %v", err)
	}
	if _, err := ingest.Import(ctx, s, " ", ingest.ImportOptions{ApprovedBy: "dana"}); err == nil || !strings.Contains(err.Error(), "name the directory") {
		t.Errorf("import of an empty directory name: %v", err)
	}
	if after := stateOf(t, dir); after != before {
		t.Errorf("repository changed: %+v -> %+v", before, after)
	}
}

func TestImportInPlace(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	writeFile(t, filepath.Join(dir, "notes/a.md"), "# Alpha\n\nAlpha is the first [letter](b.md).\n")
	writeFile(t, filepath.Join(dir, "notes/b.md"), "---\nowner: ops\n---\n# Beta\n\nBeta comes second.\n")
	res, err := ingest.Import(ctx, s, filepath.Join(dir, "notes"), ingest.ImportOptions{ApprovedBy: "dana", Author: dana, When: t0})
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported != 2 {
		t.Errorf("imported %d, want 2", res.Imported)
	}
	for _, f := range []string{"notes/a.md", "notes/b.md"} {
		data, _ := os.ReadFile(filepath.Join(dir, f))
		if git(t, dir, "rev-parse", "HEAD:"+f) != wiki.BlobID(data) {
			t.Errorf("%s was not committed as it is", f)
		}
		sum := git(t, dir, "show", "HEAD:summaries/"+f)
		if !strings.Contains(sum, "path: "+f) || !strings.Contains(sum, "revision: "+wiki.BlobID(data)) || !strings.Contains(sum, "](../../"+f+")") {
			t.Errorf("summary of %s:\n%s", f, sum)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "sources")); err == nil {
		t.Error("files in the space were copied to sources/")
	}
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not in step:\n%s", st)
	}
	res, err = ingest.Import(ctx, s, filepath.Join(dir, "notes"), ingest.ImportOptions{ApprovedBy: "dana", Author: dana, When: t0})
	if err != nil || !res.Unchanged || res.UnchangedFiles != 2 {
		t.Errorf("second in-place import: %v %+v", err, res)
	}
	// importing the whole space skips pt's own pages
	res, err = ingest.Import(ctx, s, dir, ingest.ImportOptions{ApprovedBy: "dana", Author: dana, When: t0})
	if err != nil || !res.Unchanged || res.UnchangedFiles != 2 || len(res.Skipped) != 0 {
		t.Errorf("import of the space itself: %v %+v", err, res)
	}
}

// A corpus folder that holds the space (notes beside kb/) imports the
// notes, not the space's own pages, and importing it again writes nothing.
func TestImportFolderAroundTheSpace(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "notes/x.md"), "# Caching\n\nNote about caching.\n")
	dir := filepath.Join(root, "kb")
	s, _, err := wiki.Init(ctx, dir, wiki.InitOptions{Name: "team", When: t0, Clock: wiki.SteppingClock(t0, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	opts := ingest.ImportOptions{ApprovedBy: "dana", Author: dana, When: t0.Add(time.Hour)}
	res, err := ingest.Import(ctx, s, root, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported != 1 || len(res.Skipped) != 1 || res.Skipped[0].Path != "kb/" {
		t.Errorf("imported %d, skipped %+v: want notes/x.md alone, kb/ skipped", res.Imported, res.Skipped)
	}
	if got := git(t, dir, "ls-tree", "-r", "--name-only", "HEAD", "sources"); got != "sources/notes/x.md" {
		t.Errorf("sources:\n%s", got)
	}
	head := git(t, dir, "rev-parse", "HEAD")
	opts.When = t0.Add(2 * time.Hour)
	if res, err = ingest.Import(ctx, s, root, opts); err != nil || !res.Unchanged {
		t.Errorf("second import: %+v, %v; want nothing to change", res, err)
	}
	if git(t, dir, "rev-parse", "HEAD") != head {
		t.Error("second import of the same folder made a commit")
	}
}

// Reverting an import of a folder inside the space undoes what pt wrote
// (summaries, spokes) but leaves the person's own files where they are:
// originals are never moved, changed or deleted.
func TestRevertImportInPlaceKeepsOriginals(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	writeFile(t, filepath.Join(dir, "notes/deploy.md"), "# Deploy\n\nWe deploy on Tuesdays.\n")
	res, err := ingest.Import(ctx, s, filepath.Join(dir, "notes"), ingest.ImportOptions{ApprovedBy: "dana", Author: dana, When: t0})
	if err != nil {
		t.Fatal(err)
	}
	rv, err := s.Revert(ctx, res.Batch, wiki.RevertOptions{ApprovedBy: "dana", When: t0.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "notes/deploy.md")); err != nil || !strings.Contains(string(data), "Tuesdays") {
		t.Fatalf("the revert removed the person's file: %v", err)
	}
	if len(rv.NotUpdated) != 1 || rv.NotUpdated[0].Path != "notes/deploy.md" {
		t.Errorf("the revert does not say it left the original: %+v", rv.NotUpdated)
	}
	if out := git(t, dir, "ls-tree", "-r", "--name-only", "HEAD", "summaries/"); out != "" {
		t.Errorf("summaries left after the revert: %s", out)
	}
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not in step:\n%s", st)
	}
}

// The same for a folder inside sources/, where originals and pt's copies
// share a prefix: what tells them apart is the origin copies record.
func TestRevertImportInSourcesKeepsOriginals(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "copied.md"), "# Copied\n\nA file from outside the space.\n")
	copied, err := ingest.Import(ctx, s, outside, ingest.ImportOptions{ApprovedBy: "dana", Author: dana, When: t0})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "sources/meetings/standup.md"), "# Standup\n\nWe ship on Fridays.\n")
	res, err := ingest.Import(ctx, s, filepath.Join(dir, "sources/meetings"), ingest.ImportOptions{ApprovedBy: "dana", Author: dana, When: t0.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err = s.Revert(ctx, res.Batch, wiki.RevertOptions{ApprovedBy: "dana", When: t0.Add(2 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sources/meetings/standup.md")); err != nil {
		t.Fatalf("the revert removed the person's file: %v", err)
	}
	// A copy pt made is still removed by reverting its own import.
	if _, err := s.Revert(ctx, copied.Batch, wiki.RevertOptions{ApprovedBy: "dana", When: t0.Add(3 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sources/copied.md")); err == nil {
		t.Error("reverting the import of an outside folder left its copy")
	}
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not in step:\n%s", st)
	}
}
