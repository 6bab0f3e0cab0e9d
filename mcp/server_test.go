package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

func TestToolsListAnnotations(t *testing.T) {
	cs := connect(t, newSpace(t), "test-agent")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	type hints struct {
		ReadOnly, Idempotent bool
		Destructive, Open    *bool
		HasOutput            bool
	}
	got := map[string]hints{}
	for _, tool := range res.Tools {
		a := tool.Annotations
		if a == nil {
			t.Fatalf("%s has no annotations", tool.Name)
		}
		if tool.Description == "" {
			t.Errorf("%s has no description", tool.Name)
		}
		got[tool.Name] = hints{a.ReadOnlyHint, a.IdempotentHint, a.DestructiveHint, a.OpenWorldHint, tool.OutputSchema != nil}
	}
	f, tr := new(false), new(true)
	want := map[string]hints{
		ToolQuery:     {ReadOnly: true, Idempotent: true, Open: f, HasOutput: true},
		ToolReadPage:  {ReadOnly: true, Idempotent: true, Open: f, HasOutput: true},
		ToolBrowse:    {ReadOnly: true, Idempotent: true, Open: f, HasOutput: true},
		ToolLint:      {ReadOnly: true, Idempotent: true, Open: f, HasOutput: true},
		ToolLog:       {ReadOnly: true, Idempotent: true, Open: f, HasOutput: true},
		ToolIngest:    {Destructive: f, Open: f, HasOutput: true},
		ToolRevert:    {Destructive: tr, Open: f, HasOutput: true},
		ToolFileBack:  {Destructive: f, Open: f, HasOutput: true},
		ToolSupersede: {Destructive: tr, Open: f, HasOutput: true},
		ToolRetract:   {Destructive: tr, Open: f, HasOutput: true},
		ToolObsolete:  {Destructive: tr, Open: f, HasOutput: true},
		ToolArchive:   {Destructive: tr, Open: f, HasOutput: true},
		ToolPropose:   {Destructive: f, Open: f, HasOutput: true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
	init := cs.InitializeResult()
	for _, w := range []string{"query_knowledge_base", "cite", "file_back_consult"} {
		if !strings.Contains(init.Instructions, w) {
			t.Errorf("instructions do not mention %q", w)
		}
	}
}

func TestQueryIsRetrieveQuery(t *testing.T) {
	s := newSpace(t)
	cs := connect(t, s, "test-agent")
	q := "why is the index keyed by commit"
	res := call(t, cs, ToolQuery, map[string]any{"question": q, "k": 3})
	if res.IsError {
		t.Fatalf("isError: %s", textOf(res))
	}
	var got retrieve.Result
	remarshal(t, res.StructuredContent, &got)
	e := retrieve.Open(s, retrieve.Options{IndexDir: t.TempDir()})
	defer e.Close()
	want, err := e.Query(context.Background(), retrieve.Request{Question: q, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, &got, cmpopts.IgnoreFields(retrieve.Trace{}, "Index")); d != "" {
		t.Errorf("MCP answer differs from retrieve.Query (-want +got):\n%s", d)
	}
	if !got.Sufficient || len(got.Results) == 0 {
		t.Fatalf("want a sufficient answer, got %+v", got)
	}
	top := got.Results[0]
	if blob := git(t, s, "rev-parse", "HEAD:"+top.Path); blob != top.Revision {
		t.Errorf("top result %s cites revision %s, git says %s", top.Path, top.Revision, blob)
	}
	if txt := textOf(res); !strings.Contains(txt, top.Path+"@"+top.Revision[:12]) {
		t.Errorf("text content does not cite %s@%s:\n%s", top.Path, top.Revision[:12], txt)
	}
	// The structured output is the JSON of DESIGN.md §9: these keys, no more
	// at the top level.
	var raw map[string]json.RawMessage
	remarshal(t, res.StructuredContent, &raw)
	var keys []string
	for k := range raw {
		keys = append(keys, k)
	}
	if d := cmp.Diff([]string{"coverage", "missing_terms", "nearest", "question", "results", "sufficient", "tokens", "trace"}, keys, cmpopts.SortSlices(func(a, b string) bool { return a < b })); d != "" {
		t.Errorf("top-level keys (-want +got):\n%s", d)
	}
}

func TestReadPageAndBrowse(t *testing.T) {
	s := newSpace(t)
	cs := connect(t, s, "test-agent")
	p := "sources/why-the-index-is-keyed-by-commit.md"
	res := call(t, cs, ToolReadPage, map[string]any{"path": p})
	if res.IsError {
		t.Fatalf("isError: %s", textOf(res))
	}
	var pg Page
	remarshal(t, res.StructuredContent, &pg)
	if want := git(t, s, "show", "HEAD:"+p); strings.TrimSpace(pg.Content) != want {
		t.Errorf("content differs from git show")
	}
	if want := git(t, s, "rev-parse", "HEAD:"+p); pg.Revision != want {
		t.Errorf("revision %s, git says %s", pg.Revision, want)
	}
	if pg.Meta.Title != "Why the index is keyed by commit" || pg.Commit != git(t, s, "rev-parse", "HEAD") {
		t.Errorf("meta %+v commit %s", pg.Meta, pg.Commit)
	}

	hub := call(t, cs, ToolBrowse, map[string]any{})
	if hub.IsError || !strings.Contains(textOf(hub), "topics/storage.md") {
		t.Errorf("hub does not link the storage spoke:\n%s", textOf(hub))
	}
	spoke := call(t, cs, ToolBrowse, map[string]any{"topic": "storage"})
	if spoke.IsError || !strings.Contains(textOf(spoke), "why-the-index-is-keyed-by-commit.md") {
		t.Errorf("storage spoke does not list the page:\n%s", textOf(spoke))
	}
	missing := call(t, cs, ToolBrowse, map[string]any{"topic": "astrology"})
	if !missing.IsError || !strings.Contains(textOf(missing), "storage") {
		t.Errorf("unknown topic: want isError listing the topics, got %v %q", missing.IsError, textOf(missing))
	}
}

func TestIngestIsOneAgentCommit(t *testing.T) {
	s := newSpace(t)
	cs := connect(t, s, "claude-code")
	before := git(t, s, "rev-list", "--count", "HEAD")
	res := call(t, cs, ToolIngest, map[string]any{
		"title":       "Weekly sync 2026-11-30",
		"body":        "# Weekly sync\n\nWe agreed that spoke pages are regenerated on every batch and never hand-edited.\n",
		"approved_by": "dana",
		"kind":        "meeting-notes",
		"topics":      []string{"storage"},
	})
	if res.IsError {
		t.Fatalf("isError: %s", textOf(res))
	}
	var r wiki.Result
	remarshal(t, res.StructuredContent, &r)
	if after := git(t, s, "rev-list", "--count", "HEAD"); after != inc(before) {
		t.Errorf("commits %s -> %s, want one more", before, after)
	}
	if head := git(t, s, "rev-parse", "HEAD"); head != r.Commit {
		t.Errorf("result commit %s, HEAD %s", r.Commit, head)
	}
	msg := git(t, s, "log", "-1", "--format=%an%n%B")
	for _, w := range []string{"claude-code\n", "Batch-Kind: ingest", "Approved-By: dana", "Agent: claude-code", "Batch-Id: " + r.Batch} {
		if !strings.Contains(msg, w) {
			t.Errorf("commit lacks %q:\n%s", w, msg)
		}
	}
	src := git(t, s, "show", "HEAD:sources/weekly-sync-2026-11-30.md")
	pg, err := content.Parse("x.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(content.Author{Kind: "agent", Name: "claude-code"}, pg.Meta.Author); d != "" {
		t.Errorf("frontmatter author (-want +got):\n%s", d)
	}
	git(t, s, "fsck", "--strict")

	// Revert undoes it as one more commit, once confirmed; the source is gone.
	rv := confirmCall(t, cs, ToolRevert, map[string]any{"batch": r.Batch})
	if rv.IsError {
		t.Fatalf("revert isError: %s", textOf(rv))
	}
	if out := git(t, s, "ls-tree", "--name-only", "HEAD", "sources/"); strings.Contains(out, "weekly-sync") {
		t.Errorf("source still there after revert:\n%s", out)
	}
	if msg := git(t, s, "log", "-1", "--format=%B"); !strings.Contains(msg, "Reverts: "+r.Batch) || !strings.Contains(msg, "Agent: claude-code") {
		t.Errorf("revert commit:\n%s", msg)
	}
}

func TestFileBackConsult(t *testing.T) {
	s := newSpace(t)
	cs := connect(t, s, "cursor")
	q := "how does pt keep the full-text index up to date after a pull"
	ans := "pt keys the full-text index by the commit it reflects and, after a pull, updates it incrementally from the tree diff between that commit and HEAD instead of rebuilding it. Deleting the index is safe because pt rebuilds it."
	before := git(t, s, "rev-parse", "HEAD")
	res := call(t, cs, ToolFileBack, map[string]any{
		"question": q, "answer": ans, "durability": "durable",
		"citations": []string{"sources/why-the-index-is-keyed-by-commit.md"},
	})
	if res.IsError {
		t.Fatalf("isError: %s", textOf(res))
	}
	var v ingest.Verdict
	remarshal(t, res.StructuredContent, &v)
	switch v.Verdict {
	case ingest.VerdictFiled:
		if head := git(t, s, "rev-parse", "HEAD"); head != v.Commit || head == before {
			t.Errorf("filed at %s, HEAD %s (was %s)", v.Commit, head, before)
		}
		page := git(t, s, "show", "HEAD:"+v.Page)
		if !strings.Contains(page, "kind: agent") || !strings.Contains(page, "name: cursor") {
			t.Errorf("synthesis page is not agent-authored:\n%s", page)
		}
		if !strings.Contains(git(t, s, "log", "-1", "--format=%B"), "Agent: cursor") {
			t.Errorf("commit lacks the Agent trailer")
		}
	case ingest.VerdictSkipped:
		if v.Reason == "" || git(t, s, "rev-parse", "HEAD") != before {
			t.Errorf("skipped without reason or with a commit: %+v", v)
		}
		t.Logf("skipped: %s: %s", v.Gate, v.Reason)
	default:
		t.Fatalf("verdict %q", v.Verdict)
	}

	// Planning is ephemeral and never filed, whatever the caller says.
	eph := call(t, cs, ToolFileBack, map[string]any{
		"question": "what should dana work on next week", "answer": "Dana should prioritise the replay worker next week.",
		"durability": "durable", "citations": []string{"sources/ledger-outage-postmortem.md"},
	})
	var ev ingest.Verdict
	remarshal(t, eph.StructuredContent, &ev)
	if eph.IsError || ev.Verdict != ingest.VerdictSkipped {
		t.Errorf("ephemeral consult: isError=%v verdict %+v", eph.IsError, ev)
	}
}

// TestBadInput: every caller mistake is an isError result with a clear
// message; the repository is left as it was and the server keeps serving.
func TestBadInput(t *testing.T) {
	s := newSpace(t)
	cs := connect(t, s, "test-agent")
	head := git(t, s, "rev-parse", "HEAD")
	big := strings.Repeat("lorem ipsum dolor sit amet ", 10<<20/27)
	tests := []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"path outside the space", ToolReadPage, map[string]any{"path": "../../etc/passwd.md"}, "climbs out of the space"},
		{"absolute path", ToolReadPage, map[string]any{"path": "/etc/passwd"}, "absolute"},
		{"git internals", ToolReadPage, map[string]any{"path": ".git/config.md"}, "hidden path segment"},
		{"missing page", ToolReadPage, map[string]any{"path": "pages/nope.md"}, "no such page"},
		{"missing argument", ToolQuery, map[string]any{}, "question"},
		{"wrong type", ToolQuery, map[string]any{"question": "x", "k": "three"}, "k"},
		{"empty question", ToolQuery, map[string]any{"question": "  "}, "empty question"},
		{"negative k", ToolQuery, map[string]any{"question": "index", "k": -1}, "negative"},
		{"unknown batch", ToolRevert, map[string]any{"batch": "b-20990101-000000", "approved_by": "dana"}, "not found"},
		{"bad kind", ToolIngest, map[string]any{"title": "t", "body": "b", "approved_by": "dana", "kind": "novel"}, "kind"},
		{"secret", ToolIngest, map[string]any{"title": "Deploy notes", "approved_by": "dana",
			"body": "# Deploy\n\nDATABASE_URL=postgres://app:S3cr3tPassw0rd@db.internal:5432/app\n"}, "credentialed URL"},
		{"10 MB source", ToolIngest, map[string]any{"title": "Huge", "body": big, "approved_by": "dana"}, "too large"},
		{"unknown related page", ToolIngest, map[string]any{"title": "t", "body": "some text here", "approved_by": "dana", "related": []string{"pages/nope.md"}}, "nope.md"},
		{"file-back without answer", ToolFileBack, map[string]any{"question": "q", "answer": "", "citations": []string{}}, "answer is required"},
		{"bad status", ToolLint, map[string]any{"status": "closed"}, "status"},
		{"lint path outside the space", ToolLint, map[string]any{"path": "../../etc/passwd.md"}, "climbs out of the space"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, cs, tt.tool, tt.args)
			if !res.IsError {
				t.Fatalf("want isError, got %s", textOf(res))
			}
			if msg := textOf(res); !strings.Contains(msg, tt.want) {
				t.Errorf("message %q does not say %q", msg, tt.want)
			}
		})
	}
	// An unknown tool is a protocol error, and the server keeps serving.
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "drop_database", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "drop_database") {
		t.Errorf("unknown tool: err = %v", err)
	}
	if res := call(t, cs, ToolLog, map[string]any{"n": 1}); res.IsError {
		t.Errorf("server stopped serving after bad input: %s", textOf(res))
	}
	if got := git(t, s, "rev-parse", "HEAD"); got != head {
		t.Errorf("bad input moved HEAD %s -> %s", head, got)
	}
	if st := git(t, s, "status", "--porcelain"); st != "" {
		t.Errorf("bad input left the work tree dirty:\n%s", st)
	}
	git(t, s, "fsck", "--strict")
}

func TestReadTokenCannotWrite(t *testing.T) {
	// mayWrite is what every write tool asks first.
	tok := func(scopes ...string) *sdk.CallToolRequest {
		return &sdk.CallToolRequest{Extra: &sdk.RequestExtra{TokenInfo: tokenInfo("bot", scopes...)}}
	}
	if err := mayWrite(tok(ScopeRead), ToolIngest); err == nil || !strings.Contains(err.Error(), "read scope") {
		t.Errorf("read token: %v", err)
	}
	if err := mayWrite(tok(ScopeRead, ScopeWrite), ToolIngest); err != nil {
		t.Errorf("write token: %v", err)
	}
	if err := mayWrite(&sdk.CallToolRequest{}, ToolIngest); err != nil {
		t.Errorf("no token (stdio): %v", err)
	}
}

func TestLogAndLint(t *testing.T) {
	s := newSpace(t)
	cs := connect(t, s, "test-agent")
	res := call(t, cs, ToolLog, map[string]any{"n": 2})
	var l Log
	remarshal(t, res.StructuredContent, &l)
	if len(l.Commits) != 2 || l.Commits[0].Hash != git(t, s, "rev-parse", "HEAD") || l.Commits[0].Batch == nil || l.Commits[0].Batch.Kind != "ingest" {
		t.Errorf("kb_log: %+v", l)
	}
	// the text says who approved each batch, as pt log does
	if txt, want := textOf(res), l.Commits[0].LogLine(); !strings.Contains(txt, want) || !strings.Contains(txt, "approved by dana") {
		t.Errorf("kb_log text %q, want the line %q", txt, want)
	}
	lf := call(t, cs, ToolLint, map[string]any{"status": "all"})
	var f Findings
	remarshal(t, lf.StructuredContent, &f)
	if lf.IsError || f.Commit != git(t, s, "rev-parse", "HEAD") || f.Findings == nil {
		t.Errorf("lint_findings: %v %+v", lf.IsError, f)
	}
}

func TestResourcesAndPrompt(t *testing.T) {
	s := newSpace(t)
	cs := connect(t, s, "test-agent")
	ctx := context.Background()
	rs, err := cs.ListResources(ctx, nil)
	if err != nil || len(rs.Resources) != 1 || rs.Resources[0].URI != HubURI {
		t.Fatalf("resources: %+v %v", rs, err)
	}
	ts, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(ts.ResourceTemplates) != 1 || ts.ResourceTemplates[0].URITemplate != PageURITemplate {
		t.Fatalf("templates: %+v %v", ts, err)
	}
	hub, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: HubURI})
	if err != nil || hub.Contents[0].Text != git(t, s, "show", "HEAD:index.md")+"\n" {
		t.Errorf("hub resource: %v", err)
	}
	for _, uri := range []string{"kb://page/sources/ledger-outage-postmortem.md", "kb://page/sources%2Fledger-outage-postmortem.md"} {
		pg, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			t.Errorf("%s: %v", uri, err)
			continue
		}
		if !strings.Contains(pg.Contents[0].Text, "idempotency keys") || pg.Contents[0].MIMEType != "text/markdown" {
			t.Errorf("%s: %+v", uri, pg.Contents[0])
		}
	}
	notFound := sdk.ResourceNotFoundError("").(*jsonrpc.Error).Code // the SDK's code for it
	for uri, code := range map[string]int64{"kb://page/pages/nope.md": notFound, "kb://page/../secret.md": jsonrpc.CodeInvalidParams, "kb://page/kb.yaml": jsonrpc.CodeInvalidParams, "kb://other/x.md": notFound} {
		var we *jsonrpc.Error
		if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri}); !errors.As(err, &we) || we.Code != code {
			t.Errorf("%s: error %v, want JSON-RPC code %d", uri, err, code)
		}
	}

	ps, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(ps.Prompts) != 1 || ps.Prompts[0].Name != PromptConsult {
		t.Fatalf("prompts: %+v %v", ps, err)
	}
	gp, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: PromptConsult, Arguments: map[string]string{"task": "add a retry to the replay worker"}})
	if err != nil {
		t.Fatal(err)
	}
	msg := gp.Messages[0].Content.(*sdk.TextContent).Text
	for _, w := range []string{"query_knowledge_base", "path@revision", "add a retry to the replay worker"} {
		if !strings.Contains(msg, w) {
			t.Errorf("prompt lacks %q:\n%s", w, msg)
		}
	}
	var we *jsonrpc.Error
	if _, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: PromptConsult}); !errors.As(err, &we) || we.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("prompt without task: error %v, want invalid params (-32602)", err)
	}
}

func TestCleanName(t *testing.T) {
	for in, want := range map[string]string{
		"":                      unnamedAgent,
		"claude-code":           "claude-code",
		"evil\nApproved-By: me": "evil Approved-By: me",
		"<x> y\x00":             "x y",
		strings.Repeat("é", 80): strings.Repeat("é", 64),
	} {
		if got := cleanName(in); got != want {
			t.Errorf("cleanName(%q) = %q, want %q", in, got, want)
		}
	}
}

func remarshal(t testing.TB, from, to any) {
	t.Helper()
	b, err := json.Marshal(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, to); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
}

func inc(n string) string {
	i, _ := strconv.Atoi(n)
	return strconv.Itoa(i + 1)
}

func tokenInfo(name string, scopes ...string) *auth.TokenInfo {
	return &auth.TokenInfo{UserID: name, Scopes: scopes}
}
