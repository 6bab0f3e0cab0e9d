package web

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/content/starter"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// t0 is the fixture's first moment; its clock steps a minute per reading.
var t0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

// Paths of the fixture that tests look at.
const (
	pathPostmortem = "sources/2026-09-postmortem-ledger-outage.md"
	pathRunbookSum = "summaries/runbook-write-queue-replay.md"
	pathReplay     = "synthesis/is-it-safe-to-replay-the-ledger-write-queue-after-an-outage.md"
	pathRunbook    = "sources/runbook-write-queue-replay.md"
	pathChecklist  = "pages/release-checklist.md"
	pathFreezeV1   = "pages/deploy-freeze-v1.md"
	pathFreezeV2   = "pages/deploy-freeze-v2.md"
	pathHostile    = "pages/hostile.md"
	pathRefunds    = "sources/refunds-share-the-write-queue.md"
	agentName      = "claude-code"
)

// demoTopics are the topics each demo source is ingested under.
var demoTopics = map[string][]string{
	"2026-09-postmortem-ledger-outage.md":  {"ledger", "incidents"},
	"2026-10-decision-idempotency-keys.md": {"ledger", "payments-api"},
	"2026-11-weekly-sync.md":               {"planning"},
	"conventions-code-review.md":           {"engineering"},
	"glossary.md":                          {"payments-api"},
	"runbook-write-queue-replay.md":        {"ledger", "on-call"},
}

// fixture builds a space the way a team's would grow, through pt's own
// functions: people ingest the demo knowledge, an agent ingests a source
// and files consults back (one filed, one time-bound, two skipped), a
// person edits a source on the git host so its summary drifts, pages are
// superseded, a checklist links to a page that does not exist, and lint
// runs. hostile adds a page written to run script in the view.
//
// Tests only read it, so each variant is built once per test binary
// (fixtures.get) and shared.
func fixture(t testing.TB, hostile bool) (*wiki.Space, string) {
	t.Helper()
	return fixtures.get(t, hostile)
}

// fixtureCache holds the fixtures built so far, removed by TestMain.
type fixtureCache struct {
	mu    sync.Mutex
	root  string
	built map[bool]builtFixture
}

type builtFixture struct {
	s   *wiki.Space
	dir string
}

var fixtures = &fixtureCache{built: map[bool]builtFixture{}}

func (c *fixtureCache) get(t testing.TB, hostile bool) (*wiki.Space, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.built[hostile]; ok {
		return f.s, f.dir
	}
	if c.root == "" {
		root, err := os.MkdirTemp("", "pt-web-test-")
		if err != nil {
			t.Fatal(err)
		}
		c.root = root
	}
	dir := filepath.Join(c.root, fmt.Sprintf("kb-%v", hostile))
	s := buildFixture(t, dir, hostile)
	c.built[hostile] = builtFixture{s, dir}
	return s, dir
}

func (c *fixtureCache) close() {
	for _, f := range c.built {
		f.s.Close()
	}
	if c.root != "" {
		os.RemoveAll(c.root)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	fixtures.close()
	os.Exit(code)
}

func buildFixture(t testing.TB, dir string, hostile bool) *wiki.Space {
	t.Helper()
	ctx := context.Background()
	s, _, err := wiki.Init(ctx, dir, wiki.InitOptions{Name: "payments-team", When: t0, Clock: wiki.SteppingClock(t0, time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	dana := wiki.Author{Name: "dana", Kind: content.AuthorHuman}
	agent := wiki.Author{Name: agentName, Kind: content.AuthorAgent}
	demo := starter.Demo()
	for _, name := range []string{"2026-09-postmortem-ledger-outage.md", "2026-10-decision-idempotency-keys.md", "2026-11-weekly-sync.md", "conventions-code-review.md", "glossary.md", "runbook-write-queue-replay.md"} {
		body, err := fs.ReadFile(demo, name)
		if err != nil {
			t.Fatal(err)
		}
		title, _, _ := strings.Cut(strings.TrimPrefix(string(body), "# "), "\n")
		if _, err := ingest.Ingest(ctx, s, ingest.Source{Title: title, Body: body, Topics: demoTopics[name], ApprovedBy: "dana", Author: dana, Slug: strings.TrimSuffix(name, ".md")}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ingest.Ingest(ctx, s, ingest.Source{Title: "Refunds share the write queue", Body: []byte(refundsSource), Kind: ingest.SourceDecision,
		Topics: []string{"ledger", "payments-api"}, ApprovedBy: "mei", Author: agent}); err != nil {
		t.Fatal(err)
	}
	put(t, s, wiki.Batch{Kind: wiki.KindIngest, Title: "release pages", ApprovedBy: "dana", Author: dana}, map[string]*content.Page{
		pathChecklist: content.NewPage(content.Meta{Title: "Release checklist", Kind: content.KindPage, Topics: []string{"releases"}, Summary: "What to check before a release goes out.",
			Author: content.Author{Kind: content.AuthorHuman, Name: "dana"}}, []byte(checklistBody)),
		pathFreezeV1: content.NewPage(content.Meta{Title: "Deploy freeze (2025)", Kind: content.KindPage, Topics: []string{"releases"}, Summary: "The old freeze rule.",
			Status: statusSuperseded, Author: content.Author{Kind: content.AuthorHuman, Name: "dana"}}, []byte("# Deploy freeze (2025)\n\nNo deploys on Fridays.\n")),
		pathFreezeV2: content.NewPage(content.Meta{Title: "Deploy freeze", Kind: content.KindPage, Topics: []string{"releases"}, Summary: "No deploys after Thursday noon.",
			Author: content.Author{Kind: content.AuthorHuman, Name: "dana"}}, []byte("# Deploy freeze\n\nNo deploys after Thursday noon; see the [release checklist](release-checklist.md).\n")),
	})
	for _, c := range []ingest.Consult{
		{Question: "Is it safe to replay the ledger write queue after an outage?", Answer: replayAnswer, Citations: []string{"summaries/2026-10-decision-idempotency-keys.md", pathRunbook}},
		// It cites the runbook's summary: the near-duplicate gate compares the
		// footprints of answers that cite the same page, and on a page this
		// short two different questions draw on the same lines.
		{Question: "Which ledger dashboards does on-call watch during the freeze this quarter?", Answer: freezeAnswer, Citations: []string{pathRunbookSum}, Durability: "time_bound"},
		{Question: "What should Jonas work on next?", Answer: "Jonas should pick up the refund consumer group next.", Citations: []string{pathRefunds}},
		{Question: "Who owns the on-call rota?", Answer: "Priya owns it, as far as anyone remembers."},
	} {
		c.Author, c.AskedBy = agent, "mei"
		if _, err := ingest.FileBack(ctx, s, c); err != nil {
			t.Fatal(err)
		}
	}
	// A person edits the runbook on the git host: its summary now pins a
	// revision that is no longer the source's content.
	runbook := filepath.Join(dir, pathRunbook)
	data, err := os.ReadFile(runbook)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(runbook, []byte(strings.Replace(string(data), "3 replicas", "4 replicas", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "commit", "-q", "-am", "runbook: scale the consumer to 4 replicas")
	// The freeze page names its successor in its frontmatter, as pt
	// supersede writes it.
	v1, err := os.ReadFile(filepath.Join(dir, pathFreezeV1))
	if err != nil {
		t.Fatal(err)
	}
	v1s := strings.Replace(string(v1), "status: superseded\n", "status: superseded\nsuperseded_by: "+pathFreezeV2+"\n", 1)
	if err := os.WriteFile(filepath.Join(dir, pathFreezeV1), []byte(v1s), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "commit", "-q", "-am", "deploy freeze: name the successor")
	if hostile {
		put(t, s, wiki.Batch{Kind: wiki.KindIngest, Title: "a hostile page", ApprovedBy: "dana"}, map[string]*content.Page{
			pathHostile: content.NewPage(content.Meta{Title: "Hostile <script>window.pwnedTitle=1</script>", Kind: content.KindPage, Topics: []string{"releases"},
				Summary: `<img src=x onerror="window.pwned=1">`, Author: content.Author{Kind: content.AuthorHuman, Name: `<b onmouseover="window.pwned=1">eve</b>`}},
				[]byte(hostileBody)),
		})
	}
	if _, err := lint.Run(ctx, s, lint.Options{}); err != nil {
		t.Fatal(err)
	}
	return s
}

// put writes pages as one batch.
func put(t testing.TB, s *wiki.Space, b wiki.Batch, pages map[string]*content.Page) {
	t.Helper()
	_, err := s.Apply(context.Background(), b, func(ctx context.Context, tx *wiki.Tx) error {
		for p, pg := range pages {
			if _, err := tx.Put(ctx, p, pg, wiki.RolePage); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// gitRun runs git in dir as a person would, and returns its output.
func gitRun(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=priya", "GIT_AUTHOR_EMAIL=priya@example.com", "GIT_COMMITTER_NAME=priya",
		"GIT_COMMITTER_EMAIL=priya@example.com", "GIT_AUTHOR_DATE=2026-11-23T12:00:00Z", "GIT_COMMITTER_DATE=2026-11-23T12:00:00Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

const refundsSource = `# Decision: refunds share the durable write queue

Date: 2026-11-25. Deciders: Mei Lin, Jonas Weber.

## Context

Refunds were written straight to the ledger database. During the September
ledger outage eleven refunds failed and had to be re-entered by hand.

## Decision

Refunds go through the same durable write queue as payments, with a separate
consumer group, so a backlog of payments never delays a refund.
`

const checklistBody = `# Release checklist

Before a release goes out, the release owner walks this list.

| Step | Owner | When |
|:-----|:------|-----:|
| Freeze the branch | release owner | T-2 days |
| Run the migration check | DBA on duty | T-1 day |
| Announce in #payments | release owner | T-0 |

- [x] Dashboards linked in the [runbook](../sources/runbook-write-queue-replay.md#steps)
- [ ] Rollback rehearsed, see [the rollback notes](../pages/rollback.md)
- [ ] ~~Manual smoke test~~ replaced by the canary

` + "```sh\nmake release VERSION=2026.11\n```\n"

const replayAnswer = `Replaying the ledger write queue after an outage cannot double-charge a
customer, and the reason is the idempotency-key decision of October. Each
write that the consumer replays still carries the client's key, so the ledger
recognises a request it already applied and skips it. An operator can thus
reset the consumer group to the first failed offset without first working out
which writes had landed; the only care needed is that keys outlive the replay
window, so a replay that starts more than a day later has to be checked by hand.`

const freezeAnswer = `During this quarter's freeze, on-call keeps two ledger panels open while a
replay runs: the lock-wait panel, to confirm the primary accepts writes before
the consumer is scaled back up, and the consumer lag panel, to watch the
backlog drain. Both are linked from the replay runbook.`

// hostileBody tries every way a page could run script in a viewer.
const hostileBody = `# Hostile page

<script>window.pwned = 1; document.title = "pwned";</script>

<img src="/nonexistent.png" onerror="window.pwned = 1; document.title = 'pwned'">

<svg onload="window.pwned = 1"></svg>

<iframe src="javascript:window.parent.pwned=1"></iframe>

<a href="javascript:window.pwned=1" id="html-js-link">html javascript link</a>

[markdown javascript link](javascript:window.pwned=1)

[entity javascript link](&#106;avascript:window.pwned=1)

<javascript:window.pwned=1>

![image](javascript:window.pwned=1)

[data link](data:text/html;base64,PHNjcmlwdD53aW5kb3cucHduZWQ9MTwvc2NyaXB0Pg==)

<div style="background:url(javascript:window.pwned=1)" onclick="window.pwned=1">styled</div>

<details open ontoggle="window.pwned = 1"><summary>x</summary>y</details>

<form action="https://evil.example/"><input autofocus onfocus="window.pwned=1"></form>

<meta http-equiv="refresh" content="0;url=https://evil.example/">

<base href="https://evil.example/">

Text with <b onmouseover="window.pwned=1">inline handler</b> and a [title attack](https://example.com/ "x\" onmouseover=\"window.pwned=1").
`
