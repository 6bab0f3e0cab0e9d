package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// pageAt parses a page at a revision with plain git.
func pageAt(t testing.TB, dir, rev, p string) *content.Page {
	t.Helper()
	pg, err := content.Parse(p, []byte(git(t, dir, "show", rev+":"+p)+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	return pg
}

func TestIngestRevisesInPlace(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	v1 := ingest.Source{Title: "Checkout latency postmortem", Kind: ingest.SourcePostmortem, Topics: []string{"checkout"},
		Body: []byte("# Checkout latency\n\nThe checkout p99 rose to 4 s because the tax service timed out.\n"), ApprovedBy: "dana", Author: dana}
	if _, err := ingest.Ingest(ctx, s, v1); err != nil {
		t.Fatal(err)
	}
	created := pageAt(t, dir, "HEAD", "sources/checkout-latency-postmortem.md").Meta.Created
	old := git(t, dir, "rev-parse", "HEAD:sources/checkout-latency-postmortem.md")
	v2 := v1
	v2.Kind = "" // a revision keeps its kind
	v2.Body = []byte("# Checkout latency\n\nThe checkout p99 rose to 4 s because the tax service timed out; retries doubled the load.\n")
	res, err := ingest.Ingest(ctx, s, v2)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]wiki.Revised{{Path: "sources/checkout-latency-postmortem.md", From: old}}, res.Revised); d != "" {
		t.Errorf("revised (-want +got):\n%s", d)
	}
	src := pageAt(t, dir, "HEAD", "sources/checkout-latency-postmortem.md")
	sum := pageAt(t, dir, "HEAD", "summaries/checkout-latency-postmortem.md")
	blob := git(t, dir, "rev-parse", "HEAD:sources/checkout-latency-postmortem.md")
	if !strings.Contains(string(src.Body), "retries doubled") || src.Meta.SourceKind != ingest.SourcePostmortem || !src.Meta.Created.Equal(created) {
		t.Errorf("revised source: kind %q created %v (want %v)\n%s", src.Meta.SourceKind, src.Meta.Created, created, src.Body)
	}
	if df := sum.Meta.Provenance.DerivedFrom; len(df) != 1 || df[0].Revision != blob || sum.Meta.Provenance.Batch != res.Batch {
		t.Errorf("summary not re-pinned in the same batch: %+v, source blob %s", sum.Meta.Provenance, blob)
	}
	if n := git(t, dir, "log", "--format=%h", "--", "sources/checkout-latency-postmortem.md"); len(strings.Fields(n)) != 2 {
		t.Errorf("git keeps both revisions of one file; log:\n%s", n)
	}
	rep, err := lint.Run(ctx, s, lint.Options{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Open() {
		if f.Check == lint.CheckDrift {
			t.Errorf("drift after a revision: %+v", f)
		}
	}
}

func TestIngestRevisionRefusals(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	base := ingest.Source{Title: "Deploy policy", Kind: ingest.SourceDecision, Topics: []string{"deploys"},
		Body: []byte("Deploys stop on Fridays.\n"), ApprovedBy: "dana", Author: dana}
	if _, err := ingest.Ingest(ctx, s, base); err != nil {
		t.Fatal(err)
	}
	other := base
	other.Title, other.Body = "Other policy", []byte("Other text.\n")
	if _, err := ingest.Ingest(ctx, s, other); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Retire(ctx, s, ingest.Retirement{Old: "sources/other-policy.md", Reason: "wrong", ApprovedBy: "dana", Author: dana}); err != nil {
		t.Fatal(err)
	}
	before := stateOf(t, dir)
	for name, tc := range map[string]struct {
		mod  func(*ingest.Source)
		want string
	}{
		"another kind":      {func(s *ingest.Source) { s.Kind = ingest.SourceChat }, "it is a decision, not a chat"},
		"agent over person": {func(s *ingest.Source) { s.Author = agent }, "a person owns it (dana)"},
		"retracted":         {func(s *ingest.Source) { s.Title = "Other policy" }, "it is retracted"},
		"update missing":    {func(s *ingest.Source) { s.Update = "sources/nope.md" }, "no such page"},
		"update no source":  {func(s *ingest.Source) { s.Update = "topics/deploys.md" }, "it is no source"},
	} {
		t.Run(name, func(t *testing.T) {
			in := base
			in.Body = []byte("Deploys stop on Thursdays.\n")
			tc.mod(&in)
			_, err := ingest.Ingest(ctx, s, in)
			if err == nil || !strings.Contains(err.Error(), "cannot revise") || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line with %q", err, tc.want)
			}
			if got := stateOf(t, dir); got != before {
				t.Errorf("repository changed: %+v -> %+v", before, got)
			}
		})
	}
	// --update names the page whatever the title says.
	in := base
	in.Title, in.Update, in.Body = "", "sources/deploy-policy.md", []byte("Deploys stop on Thursdays.\n")
	res, err := ingest.Ingest(ctx, s, in)
	if err != nil || len(res.Revised) != 1 || res.Revised[0].Path != "sources/deploy-policy.md" {
		t.Fatalf("--update: %v %+v", err, res)
	}
}

// A person edits a source with git; lint marks its summary stale and the
// summary drops out of its spoke. Ingesting that source again refreshes the
// summary from the text in git, in one batch, leaving the person's page.
func TestIngestRefreshesSummaryAfterGitEdit(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	src := ingest.Source{Title: "Storage standup", Topics: []string{"storage"}, Body: []byte(standup), ApprovedBy: "dana", Author: dana}
	if _, err := ingest.Ingest(ctx, s, src); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "sources", "storage-standup.md")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "keep bluge", "replace bluge with tantivy", 1)
	writeFile(t, p, edited)
	git(t, dir, "commit", "-q", "-am", "standup: correct the decision")
	if rep, err := lint.Run(ctx, s, lint.Options{}); err != nil || len(rep.MarkedStale) != 1 {
		t.Fatalf("lint: %v %+v", err, rep)
	}
	if spoke, _ := gitErr(dir, "show", "HEAD:topics/storage.md"); strings.Contains(spoke, "storage-standup.md") {
		t.Fatalf("stale summary still in its spoke:\n%s", spoke)
	}
	srcBlob := git(t, dir, "rev-parse", "HEAD:sources/storage-standup.md")
	pg, _ := content.Parse("x.md", []byte(edited))
	src.Body = pg.Body
	res, err := ingest.Ingest(ctx, s, src)
	if err != nil {
		t.Fatal(err)
	}
	if res.Unchanged || len(res.Revised) != 1 || res.Revised[0].Path != "summaries/storage-standup.md" {
		t.Fatalf("refresh: %+v", res)
	}
	if got := git(t, dir, "rev-parse", "HEAD:sources/storage-standup.md"); got != srcBlob {
		t.Error("the person's source page was rewritten")
	}
	sum := pageAt(t, dir, "HEAD", "summaries/storage-standup.md")
	if sum.Meta.Status != "" || sum.Meta.Provenance.DerivedFrom[0].Revision != srcBlob || !strings.Contains(string(sum.Body), "tantivy") {
		t.Errorf("summary not refreshed: status %q pin %s\n%s", sum.Meta.Status, sum.Meta.Provenance.DerivedFrom[0].Revision, sum.Body)
	}
	if spoke := git(t, dir, "show", "HEAD:topics/storage.md"); !strings.Contains(spoke, "summaries/storage-standup.md") {
		t.Errorf("refreshed summary not back in its spoke:\n%s", spoke)
	}
	again, err := ingest.Ingest(ctx, s, src)
	if err != nil || !again.Unchanged {
		t.Errorf("a second ingest of the same text: %v %+v", err, again)
	}
}
