package ingest_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/content/starter"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// fbWhen is the clock of the file-back tests: the demo pages are written at
// fbWhen and consults come an hour later.
var (
	fbWhen    = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	fbConsult = fbWhen.Add(time.Hour)
	fbAgent   = wiki.Author{Name: "claude", Kind: content.AuthorAgent}
)

// demoTopics gives each demo page its topics, as an ingest would.
var demoTopics = map[string][]string{
	"2026-09-postmortem-ledger-outage.md":  {"ledger", "incidents"},
	"2026-10-decision-idempotency-keys.md": {"payments", "api"},
	"2026-11-weekly-sync.md":               {"planning"},
	"conventions-code-review.md":           {"process"},
	"glossary.md":                          {"payments"},
	"runbook-write-queue-replay.md":        {"ledger", "operations"},
}

// fbSpace makes a space holding the demo knowledge as pages/<name>.md, with
// kbYAML (when given) as its kb.yaml, and returns it with its directory.
func fbSpace(t testing.TB, kbYAML string) (*wiki.Space, string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	s, _, err := wiki.Init(ctx, dir, wiki.InitOptions{Name: "team", When: fbWhen, Clock: wiki.SteppingClock(fbWhen, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	demo := starter.Demo()
	_, err = s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: "demo", ApprovedBy: "dana", When: fbWhen}, func(ctx context.Context, tx *wiki.Tx) error {
		if kbYAML != "" {
			if _, err := tx.PutFile(ctx, content.ConfigFile, []byte(kbYAML), wiki.RoleConfig); err != nil {
				return err
			}
		}
		for name, topics := range demoTopics {
			body, err := fs.ReadFile(demo, name)
			if err != nil {
				return err
			}
			title, _, _ := strings.Cut(strings.TrimPrefix(string(body), "# "), "\n")
			pg := content.NewPage(content.Meta{Title: title, Kind: content.KindPage, Topics: topics, Summary: title,
				Author: content.Author{Kind: content.AuthorHuman, Name: "dana"}, Created: fbWhen, Updated: fbWhen}, body)
			if _, err := tx.Put(ctx, "pages/"+name, pg, wiki.RolePage); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = wiki.Open(ctx, dir); err != nil {
		t.Fatal(err)
	}
	s.SetClock(wiki.SteppingClock(fbWhen.Add(time.Minute), time.Second))
	t.Cleanup(func() { s.Close() })
	return s, dir
}

// fbPut commits one page as its own batch.
func fbPut(t testing.TB, s *wiki.Space, p string, pg *content.Page, when time.Time) {
	t.Helper()
	_, err := s.Apply(context.Background(), wiki.Batch{Kind: wiki.KindIngest, Title: "put " + p, ApprovedBy: "dana", When: when}, func(ctx context.Context, tx *wiki.Tx) error {
		_, err := tx.Put(ctx, p, pg, wiki.RolePage)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func fbGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// fbState is what a refused or skipped consult must leave as it was.
func fbState(t testing.TB, dir string) string {
	return fbGit(t, dir, "rev-parse", "HEAD") + "\n" + fbGit(t, dir, "status", "--porcelain", "--untracked-files=all")
}

const (
	idemPage   = "pages/2026-10-decision-idempotency-keys.md"
	replayPage = "pages/runbook-write-queue-replay.md"
	outagePage = "pages/2026-09-postmortem-ledger-outage.md"
)

// idemAnswer says something the idempotency decision does not: it draws on
// two pages and adds the reasoning that connects them.
const idemAnswer = `Replaying the ledger write queue after an outage cannot double-charge a
customer, and the reason is the idempotency-key decision of October. Each
write that the consumer replays still carries the client's key, so the ledger
recognises a request it already applied and skips it. An operator can thus
reset the consumer group to the first failed offset without first working out
which writes had landed; the only care needed is that keys outlive the replay
window, so a replay that starts more than a day later has to be checked by hand.`

func TestFileBackFiles(t *testing.T) {
	ctx := context.Background()
	s, dir := fbSpace(t, "")
	idemBlob := fbGit(t, dir, "rev-parse", "HEAD:"+idemPage)
	s.SetClock(func() time.Time { return fbConsult })
	v, err := ingest.FileBack(ctx, s, ingest.Consult{
		Question:  "Is it safe to replay the ledger write queue after an outage?",
		Answer:    idemAnswer,
		Citations: []string{idemPage, "./" + replayPage + "#steps", idemPage},
		AskedBy:   "session-42",
		Author:    fbAgent,
	})
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != ingest.VerdictFiled || v.Gate != "" {
		t.Fatalf("verdict %s gate %q: %s", v.Verdict, v.Gate, v.Reason)
	}
	want := "synthesis/is-it-safe-to-replay-the-ledger-write-queue-after-an-outage.md"
	if v.Page != want || v.Durability != "durable" || v.AnswerBy != ingest.AnswerByCaller {
		t.Errorf("page %q durability %q by %q", v.Page, v.Durability, v.AnswerBy)
	}
	wantRefs := []content.Ref{{Path: idemPage, Revision: idemBlob}, {Path: replayPage, Revision: fbGit(t, dir, "rev-parse", "HEAD~1:"+replayPage)}}
	if d := cmp.Diff(wantRefs, v.Citations); d != "" {
		t.Errorf("citations (-want +got):\n%s", d)
	}
	// One commit, checked with git: its trailers, the page, the spokes, the log.
	if got := fbGit(t, dir, "log", "-1", "--format=%B"); !strings.Contains(got, "Batch-Kind: file-back") || !strings.Contains(got, "Batch-Id: "+v.Batch) {
		t.Errorf("commit message:\n%s", got)
	}
	if got := fbGit(t, dir, "rev-parse", "HEAD"); got != v.Commit {
		t.Errorf("HEAD %s, verdict commit %s", got, v.Commit)
	}
	fbGit(t, dir, "fsck", "--strict")
	if st := fbGit(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not clean:\n%s", st)
	}
	pa, err := s.ReadPage(ctx, wiki.Rev(v.Commit), v.Page)
	if err != nil {
		t.Fatal(err)
	}
	m := pa.Page.Meta
	wantMeta := content.Meta{
		Title:          "Is it safe to replay the ledger write queue after an outage?",
		Kind:           content.KindSynthesis,
		Topics:         []string{"payments", "api", "ledger"},
		Summary:        m.Summary,
		Author:         content.Author{Kind: content.AuthorAgent, Name: "claude"},
		Status:         content.StatusActive,
		Classification: content.Unclassified,
		Durability:     "durable",
		Provenance:     content.Provenance{Batch: v.Batch, Citations: wantRefs, Question: "Is it safe to replay the ledger write queue after an outage?", AskedBy: "session-42"},
		Created:        fbConsult,
		Updated:        fbConsult,
	}
	if d := cmp.Diff(wantMeta, m); d != "" {
		t.Errorf("synthesis frontmatter (-want +got):\n%s", d)
	}
	if m.Summary == "" || strings.Contains(m.Summary, "\n") {
		t.Errorf("summary %q", m.Summary)
	}
	body := string(pa.Page.Body)
	for _, s := range []string{
		"# Is it safe to replay the ledger write queue after an outage?\n",
		"Replaying the ledger write queue after an outage cannot double-charge",
		"## Sources\n\n- [Decision: idempotency keys for every payment-creating endpoint](../pages/2026-10-decision-idempotency-keys.md)\n- [Runbook: replaying the ledger write queue](../pages/runbook-write-queue-replay.md)\n",
	} {
		if !strings.Contains(body, s) {
			t.Errorf("body lacks %q:\n%s", s, body)
		}
	}
	spoke := fbGit(t, dir, "show", "HEAD:topics/ledger.md")
	if !strings.Contains(spoke, "../"+want) {
		t.Errorf("spoke topics/ledger.md does not list the synthesis:\n%s", spoke)
	}
	if log := fbGit(t, dir, "show", "HEAD:log.md"); !strings.Contains(log, v.Batch) {
		t.Errorf("log.md has no entry for %s", v.Batch)
	}

	// A later question on the same subject finds the synthesis.
	e := retrieve.Open(s, retrieve.Options{})
	defer e.Close()
	res, err := e.Query(ctx, retrieve.Request{Question: "can replaying the ledger write queue double-charge customers?", Now: fbConsult})
	if err != nil {
		t.Fatal(err)
	}
	if rank := rankOf(res, want); rank == 0 || rank > 3 {
		t.Errorf("synthesis ranked %d for a follow-up question; results %v", rank, paths(res))
	}

	// The batch is revertible as one unit.
	rv, err := s.Revert(ctx, v.Batch, wiki.RevertOptions{ApprovedBy: "dana", When: fbConsult.Add(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadPage(ctx, wiki.Rev(rv.Commit), want); !errors.Is(err, wiki.ErrNotFound) {
		t.Errorf("after revert, %s: %v", want, err)
	}
	if spoke := fbGit(t, dir, "show", "HEAD:topics/ledger.md"); strings.Contains(spoke, want) {
		t.Errorf("after revert the spoke still lists the synthesis")
	}
}

// rankOf is the 1-based rank of page p among res's distinct pages, 0 when
// absent.
func rankOf(res *retrieve.Result, p string) int {
	seen := map[string]bool{}
	for _, h := range res.Results {
		if !seen[h.Path] {
			seen[h.Path] = true
			if h.Path == p {
				return len(seen)
			}
		}
	}
	return 0
}

func paths(res *retrieve.Result) []string {
	var out []string
	for _, h := range res.Results {
		out = append(out, h.Path)
	}
	return out
}

// TestFileBackGates runs each gate on a consult that only it should stop,
// on a fresh space each, and checks that nothing is written.
func TestFileBackGates(t *testing.T) {
	vault := func(status, expires string) *content.Page {
		return content.NewPage(content.Meta{Title: "Card vault keys", Kind: content.KindPage, Topics: []string{"payments"}, Classification: "CONFIDENTIAL", Status: status, Expires: expires},
			[]byte("# Card vault keys\n\nThe card vault rotates its wrapping keys every ninety days through the HSM.\n"))
	}
	secretPage := vault("", "")
	expired := content.NewPage(content.Meta{Title: "Old freeze", Kind: content.KindPage, Topics: []string{"planning"}, Expires: "2026-01-31"},
		[]byte("# Old freeze\n\nThe code freeze ran until the end of January.\n"))
	echoed := "Mobile clients retry requests when the network drops. In September we saw 212\nduplicate charges caused by retries of `POST /v1/payments` after a timeout\nwhere the first request had in fact succeeded. We decided that every endpoint that creates a payment, a refund or a payout\nrequires an `Idempotency-Key` header. The key is a client-generated UUID."
	type gateCase struct {
		name      string
		kb        string
		extra     map[string]*content.Page
		c         ingest.Consult
		gate      string
		reason    string // a regexp-free substring of the reason
		durable   string
		citations int
	}
	// A classified page stops the answer however it is cited and whatever
	// its status: its text is no less classified for being stale.
	classified := func(name string, pg *content.Page, cite string, citations int) gateCase {
		return gateCase{name: name, extra: map[string]*content.Page{"pages/vault.md": pg},
			c:    ingest.Consult{Question: "Is it safe to replay the ledger write queue?", Answer: idemAnswer, Citations: []string{idemPage, cite}},
			gate: ingest.GateClassification, reason: "pages/vault.md is classified CONFIDENTIAL", citations: citations}
	}
	tests := []gateCase{
		{name: "compounding off", kb: "name: team\ncompounding: false\n", c: ingest.Consult{Question: "Is it safe to replay the ledger write queue?", Answer: idemAnswer, Citations: []string{idemPage}},
			gate: ingest.GateCompounding, reason: "compounding: false", citations: 1},
		{name: "space classified", kb: "name: team\nclassification: SECRET\n", c: ingest.Consult{Question: "Is it safe to replay the ledger write queue?", Answer: idemAnswer, Citations: []string{idemPage}},
			gate: ingest.GateClassification, reason: "the space is classified SECRET", citations: 1},
		{name: "cited page classified", extra: map[string]*content.Page{"pages/vault.md": secretPage},
			c:    ingest.Consult{Question: "Is it safe to replay the ledger write queue?", Answer: idemAnswer, Citations: []string{idemPage, "pages/vault.md"}},
			gate: ingest.GateClassification, reason: "pages/vault.md is classified CONFIDENTIAL", citations: 2},
		classified("cited page classified and stale", vault(content.StatusStale, ""), "pages/vault.md", 1),
		classified("cited page classified and retracted", vault(content.StatusRetracted, ""), "pages/vault.md", 1),
		classified("cited page classified and expired", vault("", "2026-01-31"), "pages/vault.md", 1),
		classified("classified page cited with //", secretPage, "pages//vault.md", 2),
		classified("classified page cited with /./", secretPage, "pages/./vault.md#keys", 2),
		classified("classified page cited through ..", secretPage, "pages/x/../vault.md", 2),
		{name: "ephemeral by rule", c: ingest.Consult{Question: "What should dana work on next?", Answer: "Dana should finish the replay tooling described in the runbook, then review the idempotency SDK change.", Citations: []string{replayPage}},
			gate: ingest.GateDurability, reason: "asks what to work on", durable: "ephemeral", citations: 1},
		{name: "ephemeral by caller", c: ingest.Consult{Question: "Is it safe to replay the ledger write queue?", Answer: idemAnswer, Citations: []string{idemPage}, Durability: "ephemeral"},
			gate: ingest.GateDurability, reason: "the caller said so", durable: "ephemeral", citations: 1},
		{name: "caller cannot loosen", c: ingest.Consult{Question: "What is the status of the ledger replay?", Answer: idemAnswer, Citations: []string{idemPage}, Durability: "durable"},
			gate: ingest.GateDurability, reason: "status", durable: "ephemeral", citations: 1},
		{name: "no citations", c: ingest.Consult{Question: "Is it safe to replay the ledger write queue?", Answer: idemAnswer},
			gate: ingest.GateCitations, reason: "cites no page", durable: "durable"},
		{name: "bad citations", extra: map[string]*content.Page{"pages/freeze.md": expired},
			c: ingest.Consult{Question: "Is it safe to replay the ledger write queue?", Answer: idemAnswer,
				Citations: []string{"pages/missing.md", "../outside.md", "/etc/passwd.md", "index.md", "kb.yaml", "pages/freeze.md"}},
			gate: ingest.GateCitations, reason: "pages/missing.md does not exist", durable: "durable"},
		{name: "echo of a cited page", c: ingest.Consult{Question: "Why do payment endpoints need idempotency keys?", Answer: echoed, Citations: []string{idemPage}},
			gate: ingest.GateEcho, reason: "restates " + idemPage, durable: "durable", citations: 1},
		{name: "echo of an uncited page", c: ingest.Consult{Question: "Why do payment endpoints need idempotency keys?", Answer: echoed, Citations: []string{replayPage}},
			gate: ingest.GateEcho, reason: "restates " + idemPage, durable: "durable", citations: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s, dir := fbSpace(t, tc.kb)
			for p, pg := range tc.extra {
				fbPut(t, s, p, pg, fbWhen)
			}
			before := fbState(t, dir)
			tc.c.When = fbConsult
			v, err := ingest.FileBack(ctx, s, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			if v.Verdict != ingest.VerdictSkipped || v.Gate != tc.gate || !strings.Contains(v.Reason, tc.reason) {
				t.Errorf("got %s gate %q reason %q; want skipped gate %q reason containing %q", v.Verdict, v.Gate, v.Reason, tc.gate, tc.reason)
			}
			if v.Durability != tc.durable || len(v.Citations) != tc.citations || v.Page != "" || v.Batch != "" || v.Answer == "" {
				t.Errorf("durability %q, %d citations, page %q, batch %q, answer %q", v.Durability, len(v.Citations), v.Page, v.Batch, v.Answer)
			}
			if after := fbState(t, dir); after != before {
				t.Errorf("repository changed:\n%s\n---\n%s", before, after)
			}
		})
	}
}

// TestFileBackNearDuplicate files an answer, then a paraphrase of it under
// another question: skipped within the window, filed after it.
func TestFileBackNearDuplicate(t *testing.T) {
	ctx := context.Background()
	s, dir := fbSpace(t, "name: team\nfile_back:\n  window: 7d\n")
	first, err := ingest.FileBack(ctx, s, ingest.Consult{Question: "Is it safe to replay the ledger write queue after an outage?", Answer: idemAnswer, Citations: []string{idemPage, replayPage}, When: fbConsult})
	if err != nil || first.Verdict != ingest.VerdictFiled {
		t.Fatalf("first consult: %v %+v", err, first)
	}
	para := strings.NewReplacer("cannot double-charge a\ncustomer", "will never charge a customer twice", "An operator can thus", "So an operator may").Replace(idemAnswer)
	c := ingest.Consult{Question: "Can a ledger queue replay charge customers twice?", Answer: para, Citations: []string{replayPage}, When: fbConsult.Add(24 * time.Hour)}
	before := fbState(t, dir)
	v, err := ingest.FileBack(ctx, s, c)
	if err != nil {
		t.Fatal(err)
	}
	if v.Gate != ingest.GateNearDuplicate || !strings.Contains(v.Reason, first.Page) {
		t.Fatalf("paraphrase within the window: %s %q %q", v.Verdict, v.Gate, v.Reason)
	}
	if fbState(t, dir) != before {
		t.Error("a skipped consult changed the repository")
	}
	// The same answer eight days later is outside the 7d window: filed
	// again, under its own question.
	c.When = fbConsult.Add(8 * 24 * time.Hour)
	v, err = ingest.FileBack(ctx, s, c)
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != ingest.VerdictFiled || v.Page != "synthesis/can-a-ledger-queue-replay-charge-customers-twice.md" {
		t.Errorf("outside the window: %s %q %q page %q", v.Verdict, v.Gate, v.Reason, v.Page)
	}
	// The first question asked again with a new answer (outside the
	// window of the first) takes the next free name.
	v, err = ingest.FileBack(ctx, s, ingest.Consult{Question: "Is it safe to replay the ledger write queue after an outage?",
		Answer:    "Only while the idempotency keys are still stored: Redis keeps them 24 hours, so a replay that starts later must first compare each write with the ledger by hand.",
		Citations: []string{idemPage}, When: fbConsult.Add(9 * 24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if v.Page != "synthesis/is-it-safe-to-replay-the-ledger-write-queue-after-an-outage-2.md" {
		t.Errorf("repeat question: %s %q %q page %q", v.Verdict, v.Gate, v.Reason, v.Page)
	}
}

func TestFileBackTimeBound(t *testing.T) {
	ctx := context.Background()
	s, dir := fbSpace(t, "name: team\nttl: 30d\n")
	v, err := ingest.FileBack(ctx, s, ingest.Consult{
		Question:  "How long are idempotency keys kept?",
		Answer:    "Keys are currently kept for 24 hours in Redis, keyed by tenant and key; the retention will be revisited once the SDKs persist keys across app restarts.",
		Citations: []string{idemPage},
		When:      fbConsult,
	})
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != ingest.VerdictFiled || v.Durability != "time_bound" {
		t.Fatalf("%s %q %q durability %q", v.Verdict, v.Gate, v.Reason, v.Durability)
	}
	pa, err := s.ReadPage(ctx, wiki.Rev(v.Commit), v.Page)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pa.Page.Meta.Expires, "2026-12-29"; got != want {
		t.Errorf("expires %q, want %q (now + ttl 30d)", got, want)
	}
	if !strings.Contains(fbGit(t, dir, "show", "HEAD:"+v.Page), "durability: time_bound") {
		t.Error("page does not say time_bound")
	}
}

// TestFileBackBadInput: each is one clear error, and nothing is written.
func TestFileBackBadInput(t *testing.T) {
	ctx := context.Background()
	s, dir := fbSpace(t, "")
	ok := ingest.Consult{Question: "Is it safe to replay the ledger write queue?", Answer: idemAnswer, Citations: []string{idemPage}, When: fbConsult}
	tests := []struct {
		name string
		edit func(c *ingest.Consult)
		want string
	}{
		{"empty question", func(c *ingest.Consult) { c.Question = " \n\t" }, "bad consult: empty question"},
		{"long question", func(c *ingest.Consult) { c.Question = strings.Repeat("why ", 400) }, "bad consult: question of"},
		{"blank answer", func(c *ingest.Consult) { c.Answer = "  \n \n" }, "bad consult: empty answer"},
		{"1 MB answer", func(c *ingest.Consult) { c.Answer = strings.Repeat("All writes carry keys. ", 1<<20/23+1) }, "bad consult: answer of"},
		{"binary answer", func(c *ingest.Consult) { c.Answer = "ok\x00no" }, "not UTF-8 text"},
		{"unknown durability", func(c *ingest.Consult) { c.Durability = "forever" }, `bad consult: unknown durability "forever"`},
		{"clock 1900", func(c *ingest.Consult) { c.When = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC) }, "clock out of range: 1900-01-01T00:00:00Z is not between"},
		{"clock 3000", func(c *ingest.Consult) { c.When = time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC) }, "clock out of range: 3000-01-01"},
		{"secret in answer", func(c *ingest.Consult) { c.Answer += "\nUse key AKIAIOSFODNN7EXAMPLF to read the bucket." },
			"consult: answer: refusing secret (AWS access key) at line 8"},
		{"secret after blank lines", func(c *ingest.Consult) { c.Answer = "\r\n\nKeys:\r\nAKIAIOSFODNN7EXAMPLF\n" },
			"consult: answer: refusing secret (AWS access key) at line 4"},
		{"secret in question", func(c *ingest.Consult) { c.Question = "Who owns AKIAIOSFODNN7EXAMPLF?" },
			"consult: question: refusing secret (AWS access key)"},
	}
	before := fbState(t, dir)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			v, err := ingest.FileBack(ctx, s, c)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v (verdict %+v), want one line containing %q", err, v, tc.want)
			}
			if se := (*ingest.SecretError)(nil); errors.As(err, &se) && strings.Contains(err.Error(), "ingest") {
				t.Errorf("%v: a consult's error speaks of ingest", err)
			}
			if after := fbState(t, dir); after != before {
				t.Errorf("repository changed:\n%s\n---\n%s", before, after)
			}
		})
	}
}

// TestFileBackExtractive lets pt compose the answer from retrieval.
func TestFileBackExtractive(t *testing.T) {
	ctx := context.Background()
	s, dir := fbSpace(t, "")
	v, err := ingest.FileBack(ctx, s, ingest.Consult{Question: "how do I replay the ledger write queue", When: fbConsult})
	if err != nil {
		t.Fatal(err)
	}
	if v.AnswerBy != ingest.AnswerByExtraction || v.ModelError != "" {
		t.Errorf("answer by %q (%s)", v.AnswerBy, v.ModelError)
	}
	cited := map[string]bool{}
	for _, c := range v.Citations {
		cited[c.Path] = true
		if !strings.Contains(v.Answer, "(From ") || !strings.Contains(v.Answer, ", "+c.Path+".)") {
			t.Errorf("answer does not attribute an excerpt to %s:\n%s", c.Path, v.Answer)
		}
	}
	if !cited[replayPage] || len(cited) < 2 {
		t.Errorf("citations %v lack %s, or cite one page only", v.Citations, replayPage)
	}
	// Quoting pages can only restate them: pt's own extractive answer is
	// returned, never filed, and the verdict says how to file one.
	if v.Verdict != ingest.VerdictSkipped || v.Gate != ingest.GateEcho || v.Page != "" ||
		!strings.Contains(v.Reason, "--answer") || !strings.Contains(v.Reason, "PT_LLM_URL") {
		t.Errorf("extractive answer: %s %q %q page %q", v.Verdict, v.Gate, v.Reason, v.Page)
	}
	if fbGit(t, dir, "log", "--format=%s", "-1") != "ingest: demo" {
		t.Errorf("an extractive answer was written: %s", fbGit(t, dir, "log", "--format=%s", "-1"))
	}

	// Nothing on the subject: nothing to compose, nothing written.
	before := fbState(t, dir)
	v, err = ingest.FileBack(ctx, s, ingest.Consult{Question: "zebra lattice chromodynamics quasar", When: fbConsult})
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != ingest.VerdictSkipped || v.Gate != ingest.GateCitations || v.Answer != "" {
		t.Errorf("unanswerable: %s %q %q answer %q", v.Verdict, v.Gate, v.Reason, v.Answer)
	}
	if fbState(t, dir) != before {
		t.Error("repository changed")
	}
}

// TestConsultLog: every verdict leaves one line in the local log, outside
// git, and none of the question.
func TestConsultLog(t *testing.T) {
	ctx := context.Background()
	s, dir := fbSpace(t, "")
	for _, q := range []string{"What should dana work on next?", "Is it safe to replay the ledger write queue after an outage?"} {
		if _, err := ingest.FileBack(ctx, s, ingest.Consult{Question: q, Answer: idemAnswer, Citations: []string{idemPage}, When: fbConsult}); err != nil {
			t.Fatal(err)
		}
	}
	data := fbGit(t, dir, "-c", "core.quotepath=off", "status", "--porcelain", "--untracked-files=all")
	if data != "" {
		t.Errorf("consult log shows in git status: %s", data)
	}
	logPath := filepath.Join(s.StateDir(), "consults.jsonl")
	log := readFile(t, logPath)
	lines := strings.Split(strings.TrimSpace(log), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"verdict":"skipped","gate":"durability"`) || !strings.Contains(lines[1], `"verdict":"filed"`) {
		t.Errorf("consult log:\n%s", log)
	}
	if strings.Contains(log, "dana") || strings.Contains(log, "after an outage?") {
		t.Errorf("consult log holds the question:\n%s", log)
	}
	if !strings.HasPrefix(path.Clean(logPath), path.Clean(s.GitDir())) {
		t.Errorf("consult log %s is not under %s", logPath, s.GitDir())
	}
	rs, err := ingest.ReadConsultLog(s, time.Time{})
	if err != nil || len(rs) != 2 {
		t.Fatalf("ReadConsultLog = %d records, %v", len(rs), err)
	}
	if r := rs[0]; r.Verdict != ingest.VerdictSkipped || r.Gate != ingest.GateDurability || !strings.Contains(r.Reason, "ephemeral") || !r.Time.Equal(fbConsult) {
		t.Errorf("skipped consult recorded as %+v", r)
	}
	if r := rs[1]; r.Verdict != ingest.VerdictFiled || r.Page == "" || r.Batch == "" {
		t.Errorf("filed consult recorded as %+v", r)
	}
	if later, err := ingest.ReadConsultLog(s, fbConsult.Add(time.Second)); err != nil || len(later) != 0 {
		t.Errorf("ReadConsultLog(after both) = %+v, %v", later, err)
	}
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A cited page that exists but does not parse has an unknown
// classification: the floor stops there rather than let its text through.
func TestFileBackUnreadableCitedPage(t *testing.T) {
	ctx := context.Background()
	s, dir := fbSpace(t, "")
	broken := "---\ntitle: Card vault keys\nclassification: CONFIDENTIAL\ntopics: [payments\n---\nThe card vault rotates its wrapping keys every ninety days.\n"
	if err := os.MkdirAll(filepath.Join(dir, "pages"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pages", "vault.md"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "pages/vault.md")
	git(t, dir, "commit", "-qm", "a page by hand")
	v, err := ingest.FileBack(ctx, s, ingest.Consult{Question: "Is it safe to replay the ledger write queue?",
		Answer: idemAnswer, Citations: []string{idemPage, "pages/vault.md"}, When: fbConsult})
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != ingest.VerdictSkipped || v.Gate != ingest.GateClassification || !strings.Contains(v.Reason, "pages/vault.md does not parse") {
		t.Errorf("got %s gate %q reason %q; want skipped at the classification floor", v.Verdict, v.Gate, v.Reason)
	}
}
