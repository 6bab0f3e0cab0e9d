package ingest_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

const standup = `# Storage standup

We decided to key the full-text index by commit, so that a rebuild is never needed after a checkout.
Dana will measure the incremental update on the 10k page space.

- Decision: keep bluge as the index library.
- Action: Sam to write the migration note by Friday.
`

func agentPage(title string, topics ...string) *content.Page {
	return content.NewPage(content.Meta{Title: title, Kind: content.KindPage, Topics: topics, Summary: title + ".", Author: content.Author{Kind: content.AuthorAgent, Name: "claude"}},
		[]byte("# "+title+"\n\nAbout "+title+".\n\n## Related\n\n- [Home](../index.md)\n\n## Notes\n\nMore text.\n"))
}

func humanPage(title string) *content.Page {
	return content.NewPage(content.Meta{Title: title, Kind: content.KindPage, Topics: []string{"storage"}, Author: content.Author{Kind: content.AuthorHuman, Name: "dana"}},
		[]byte("# "+title+"\n\nWritten by a person.\n"))
}

func TestIngestOneBatch(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	putPages(t, s, map[string]*content.Page{
		"pages/storage.md": agentPage("Storage", "storage"),
		"pages/index.md":   agentPage("Index"),
		"pages/charter.md": humanPage("Charter"),
	})
	before := git(t, dir, "rev-parse", "HEAD")
	charter := git(t, dir, "rev-parse", "HEAD:pages/charter.md")
	res, err := ingest.Ingest(ctx, s, ingest.Source{
		Title: "Storage standup 2026-11-29", Body: []byte(standup), Kind: "meeting-notes",
		Topics: []string{"storage"}, Related: []string{"pages/storage.md", "pages/index.md", "pages/charter.md"},
		ApprovedBy: "dana", Author: dana, When: t0.Add(time.Hour),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, dir, "rev-parse", "HEAD~1"); got != before {
		t.Fatalf("ingest made more than one commit: HEAD~1 = %s, want %s", got, before)
	}
	if res.Commit != git(t, dir, "rev-parse", "HEAD") {
		t.Errorf("result commit %s is not HEAD", res.Commit)
	}
	roles := map[string]string{}
	for _, p := range res.Pages {
		roles[p.Path] = p.Role
		if !p.Deleted && p.Revision != git(t, dir, "rev-parse", "HEAD:"+p.Path) {
			t.Errorf("%s: result revision %s is not the committed blob", p.Path, p.Revision)
		}
	}
	want := map[string]string{
		"sources/storage-standup-2026-11-29.md":   wiki.RoleSource,
		"summaries/storage-standup-2026-11-29.md": wiki.RoleSummary,
		"pages/storage.md":                        wiki.RoleFanOut,
		"pages/index.md":                          wiki.RoleFanOut,
		"topics/storage.md":                       wiki.RoleSpoke,
		"log.md":                                  wiki.RoleLog,
	}
	if d := cmp.Diff(want, roles); d != "" {
		t.Errorf("pages written (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]wiki.Skipped{{Path: "pages/charter.md"}}, res.NotUpdated, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Reason" }, cmp.Ignore())); d != "" {
		t.Errorf("not updated (-want +got):\n%s", d)
	}
	if len(res.NotUpdated) == 1 && !strings.HasPrefix(res.NotUpdated[0].Reason, "human-owned") {
		t.Errorf("reason %q does not say human-owned", res.NotUpdated[0].Reason)
	}
	if got := git(t, dir, "rev-parse", "HEAD:pages/charter.md"); got != charter {
		t.Error("the human-owned page was rewritten")
	}

	head, _ := s.Head(ctx)
	sum, err := s.ReadPage(ctx, head, "summaries/storage-standup-2026-11-29.md")
	if err != nil {
		t.Fatal(err)
	}
	srcBlob := git(t, dir, "rev-parse", "HEAD:sources/storage-standup-2026-11-29.md")
	if d := cmp.Diff([]content.Ref{{Path: "sources/storage-standup-2026-11-29.md", Revision: srcBlob}}, sum.Page.Meta.Provenance.DerivedFrom); d != "" {
		t.Errorf("derived_from (-want +got):\n%s", d)
	}
	m := sum.Page.Meta
	if m.Kind != content.KindSummary || m.Provenance.Batch != res.Batch || m.Provenance.ApprovedBy != "dana" || m.Summary == "" {
		t.Errorf("summary meta = %+v", m)
	}
	if !strings.Contains(string(sum.Page.Body), "](../sources/storage-standup-2026-11-29.md)") {
		t.Errorf("summary does not link its source:\n%s", sum.Page.Body)
	}
	src, err := s.ReadPage(ctx, head, "sources/storage-standup-2026-11-29.md")
	if err != nil {
		t.Fatal(err)
	}
	sm := src.Page.Meta
	if sm.Kind != content.KindSource || sm.SourceKind != "meeting-notes" || sm.Author != (content.Author{Kind: "human", Name: "dana"}) ||
		sm.Provenance.Batch != res.Batch || sm.Provenance.ApprovedBy != "dana" || !sm.Created.Equal(t0.Add(time.Hour)) {
		t.Errorf("source meta = %+v", sm)
	}
	if string(src.Page.Body) != standup {
		t.Errorf("source body is not verbatim:\n%s", src.Page.Body)
	}
	storage := git(t, dir, "show", "HEAD:pages/storage.md")
	wantRel := "## Related\n\n- [Home](../index.md)\n- [Storage standup 2026-11-29](../summaries/storage-standup-2026-11-29.md) — "
	if !strings.Contains(storage, wantRel) || !strings.Contains(storage, "## Notes\n\nMore text.") {
		t.Errorf("fan-out page:\n%s", storage)
	}
	index := git(t, dir, "show", "HEAD:pages/index.md")
	if strings.Count(index, "summaries/storage-standup") != 1 {
		t.Errorf("fan-out page:\n%s", index)
	}
	if spoke := git(t, dir, "show", "HEAD:topics/storage.md"); !strings.Contains(spoke, "](../summaries/storage-standup-2026-11-29.md)") {
		t.Errorf("spoke does not list the summary:\n%s", spoke)
	}
	if log := git(t, dir, "show", "HEAD:log.md"); !strings.Contains(log, "`"+res.Batch+"`") {
		t.Errorf("log has no entry for %s:\n%s", res.Batch, log)
	}
	git(t, dir, "fsck", "--strict")
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not in step:\n%s", st)
	}
}

func TestIngestRefusesBadInput(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "name: team\nmax_source_bytes: 4096\nowner: agent\n")
	putPages(t, s, map[string]*content.Page{"pages/storage.md": agentPage("Storage", "storage")})
	ok := ingest.Source{Title: "Notes", Body: []byte("Some notes.\n"), ApprovedBy: "dana", Author: dana, When: t0}
	cases := []struct {
		name   string
		edit   func(*ingest.Source)
		is     error
		substr string
	}{
		{"no approver", func(s *ingest.Source) { s.ApprovedBy = " " }, nil, "approved_by is required"},
		{"empty", func(s *ingest.Source) { s.Body = []byte(" \n\n") }, nil, "sources/notes.md: empty source"},
		{"frontmatter only", func(s *ingest.Source) { s.Body = []byte("---\ntitle: x\n---\n") }, nil, "empty source"},
		{"binary", func(s *ingest.Source) { s.Body = []byte("line one\nline\x00two\n") }, content.ErrBinary, "sources/notes.md:2: binary"},
		{"invalid utf-8", func(s *ingest.Source) { s.Body = []byte("ok\nok\nbad \xff\xfe\n") }, content.ErrInvalidUTF8, "sources/notes.md:3: invalid UTF-8"},
		{"too large", func(s *ingest.Source) { s.Body = []byte(strings.Repeat("word ", 1000)) }, nil, "source too large: 5000 bytes, limit 4096"},
		{"malformed frontmatter", func(s *ingest.Source) { s.Body = []byte("---\ntitle: [unclosed\n---\nbody\n") }, nil, "sources/notes.md:"},
		{"unclosed frontmatter", func(s *ingest.Source) { s.Body = []byte("---\ntitle: x\nbody\n") }, nil, "no closing ---"},
		{"secret", func(s *ingest.Source) { s.Body = []byte("notes\nkey AKIAIOSFODNN7Q3MPLE2 here\n") }, nil, "refusing secret (AWS access key"},
		{"bad kind", func(s *ingest.Source) { s.Kind = "memo" }, ingest.ErrBadKind, `"memo"`},
		{"no title", func(s *ingest.Source) { s.Title = "" }, nil, "a title is required"},
		{"related climbs out", func(s *ingest.Source) { s.Related = []string{"../x.md"} }, content.ErrUnsafePath, "climbs out"},
		{"related missing", func(s *ingest.Source) { s.Related = []string{"pages/storage.md", "pages/nope.md"} }, nil, "related page pages/nope.md: not found"},
		{"related spoke", func(s *ingest.Source) { s.Related = []string{"topics/storage.md"} }, nil, "related page topics/storage.md: generated"},
		// The caller's one-line values reach frontmatter, spokes, log.md and
		// the commit message: the secret gate covers them too.
		{"secret in title", func(s *ingest.Source) { s.Title = "key AKIAIOSFODNN7Q3MPLE2" }, nil, "ingest: title: refusing secret (AWS access key"},
		{"secret in summary", func(s *ingest.Source) { s.Summary = "tok ghp_abcdefghijklmnopqrstuvwxyz0123456789" }, nil, "ingest: summary: refusing secret"},
		{"secret as topic", func(s *ingest.Source) { s.Topics = []string{"ghp_abcdefghijklmnopqrstuvwxyz0123456789"} }, nil, "ingest: topic: refusing secret"},
		{"secret as approver", func(s *ingest.Source) { s.ApprovedBy = "ghp_abcdefghijklmnopqrstuvwxyz0123456789" }, nil, "ingest: approved_by: refusing secret"},
		{"escape in title", func(s *ingest.Source) { s.Title = "x\x1b[31mRED\a" }, nil, "ingest: title: control character U+001B"},
		{"newline in approver", func(s *ingest.Source) { s.ApprovedBy = "dana\nBatch-Kind: revert" }, nil, "ingest: approved_by: control character U+000A"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := stateOf(t, dir)
			src := ok
			c.edit(&src)
			_, err := ingest.Ingest(ctx, s, src)
			if err == nil {
				t.Fatal("no error")
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %v is not %v", err, c.is)
			}
			if !strings.Contains(err.Error(), c.substr) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q: want one line containing %q", err, c.substr)
			}
			if after := stateOf(t, dir); after != before {
				t.Errorf("repository changed: %+v -> %+v", before, after)
			}
		})
	}
	var se *ingest.SecretError
	src := ok
	src.Body = []byte("notes\nkey AKIAIOSFODNN7Q3MPLE2 here\n")
	if _, err := ingest.Ingest(ctx, s, src); !errors.As(err, &se) || se.Line != 2 {
		t.Errorf("secret error = %v, want a SecretError at line 2", err)
	}
}

func TestIngestSlugsAndRepeats(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	in := ingest.Source{Title: "Weekly sync", Body: []byte("First week: we shipped the index.\n"), Topics: []string{"sync"}, ApprovedBy: "dana", Author: dana, When: t0}
	if _, err := ingest.Ingest(ctx, s, in); err != nil {
		t.Fatal(err)
	}
	head := git(t, dir, "rev-parse", "HEAD")
	in.When = t0.Add(time.Hour)
	res, err := ingest.Ingest(ctx, s, in)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Unchanged || res.Commit != "" || len(res.NotUpdated) != 1 || res.NotUpdated[0].Path != "sources/weekly-sync.md" {
		t.Errorf("re-ingest of the same text: %+v", res)
	}
	if git(t, dir, "rev-parse", "HEAD") != head {
		t.Error("re-ingest of the same text made a commit")
	}
	// A different text under the same title is a revision of the same
	// source, not a second source beside it.
	first := git(t, dir, "rev-parse", "HEAD:sources/weekly-sync.md")
	in.Body = []byte("Second week: we shipped the spokes.\n")
	res, err = ingest.Ingest(ctx, s, in)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range res.Pages {
		if p.Role == wiki.RoleSource || p.Role == wiki.RoleSummary {
			got = append(got, p.Path)
		}
	}
	if d := cmp.Diff([]string{"sources/weekly-sync.md", "summaries/weekly-sync.md"}, got); d != "" {
		t.Errorf("second text with the same title (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]wiki.Revised{{Path: "sources/weekly-sync.md", From: first}}, res.Revised); d != "" {
		t.Errorf("revised (-want +got):\n%s", d)
	}
	if out := git(t, dir, "ls-tree", "--name-only", "HEAD", "sources/"); out != "sources/weekly-sync.md" {
		t.Errorf("sources after a revision:\n%s", out)
	}
}

func TestIngestKeepsOwnFrontmatter(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	body := "---\ntitle: Retro notes\nweight: 7\ntopics: [retros]\n---\n# Retro\n\nWe agreed to ship weekly.\n"
	res, err := ingest.Ingest(ctx, s, ingest.Source{Body: []byte(body), ApprovedBy: "dana", Author: agent, When: t0})
	if err != nil {
		t.Fatal(err)
	}
	src := git(t, dir, "show", "HEAD:sources/retro-notes.md")
	for _, want := range []string{"weight: 7", "title: Retro notes", "kind: source", "approved_by: dana", "batch: " + res.Batch, "kind: agent", "# Retro\n\nWe agreed to ship weekly."} {
		if !strings.Contains(src, want) {
			t.Errorf("source lacks %q:\n%s", want, src)
		}
	}
	if spoke := git(t, dir, "show", "HEAD:topics/retros.md"); !strings.Contains(spoke, "summaries/retro-notes.md") {
		t.Errorf("the source's own topics were not used:\n%s", spoke)
	}
	if msg := git(t, dir, "log", "-1", "--format=%B"); !strings.Contains(msg, "Agent: claude") || !strings.Contains(msg, "Approved-By: dana") {
		t.Errorf("commit message:\n%s", msg)
	}
}

// Topics that differ only in symbols are different topics ("C++", "C#",
// "C"), and "page" is a topic like any other; one ingest keeps both of two
// such topics.
func TestTopicsThatDifferBySymbols(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	for i, src := range []struct{ title, body string }{
		{"Templates", "Templates in C++."}, {"Linq", "LINQ in C#."}, {"Pointers", "Pointers in C."}, {"Render", "Rendering a page."},
	} {
		topic := []string{"C++", "C#", "C", "page"}[i]
		if _, err := ingest.Ingest(ctx, s, ingest.Source{Title: src.title, Body: []byte(src.body + "\n"), Topics: []string{topic},
			ApprovedBy: "dana", Author: dana, When: t0.Add(time.Duration(i) * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ingest.Ingest(ctx, s, ingest.Source{Title: "Interop", Body: []byte("Calling C++ from C#.\n"), Topics: []string{"C++", "C#"},
		ApprovedBy: "dana", Author: dana, When: t0.Add(5 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	for spoke, want := range map[string][]string{
		"topics/c-plus-plus.md": {"templates.md", "interop.md"},
		"topics/c-sharp.md":     {"linq.md", "interop.md"},
		"topics/c.md":           {"pointers.md"},
		"topics/page.md":        {"render.md"},
	} {
		text := git(t, dir, "show", "HEAD:"+spoke)
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s lacks %s:\n%s", spoke, w, text)
			}
		}
		if n := strings.Count(text, "\n- ["); n != len(want) {
			t.Errorf("%s lists %d pages, want %d:\n%s", spoke, n, len(want), text)
		}
	}
}
