package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/content/secret"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// QueryInput is the input of query_knowledge_base.
type QueryInput struct {
	Question string   `json:"question,omitempty" jsonschema:"the question or task, in plain words (may be omitted when paths are given)"`
	Paths    []string `json:"paths,omitempty" jsonschema:"files of the code repository you are about to change, relative to its root (internal/ledger/replay.go): pages that apply to them come first"`
	K        int      `json:"k,omitempty" jsonschema:"at most this many excerpts (omitted or 0: the default, 8; at most 50)"`
	Budget   int      `json:"budget,omitempty" jsonschema:"context budget in tokens (omitted or 0: the default, 4000; at least 40)"`
	Topics   []string `json:"topics,omitempty" jsonschema:"only pages of one of these topics"`
	Kinds    []string `json:"kinds,omitempty" jsonschema:"only pages of one of these kinds (source, source_summary, page, synthesis, retrospective)"`
	Since    string   `json:"since,omitempty" jsonschema:"only pages updated (else created) on or after this date (2026-11-01) or RFC 3339 time"`
	Also     []string `json:"also,omitempty" jsonschema:"alternative phrasings or keywords (the names, flags or terms you expect the pages to use), searched beside the question"`
}

// PageInput is the input of read_page.
type PageInput struct {
	Path     string `json:"path" jsonschema:"the page's path relative to the space root, e.g. pages/storage.md"`
	Revision string `json:"revision,omitempty" jsonschema:"a commit to read the page at (default: the head of the space)"`
}

// BrowseInput is the input of browse_index.
type BrowseInput struct {
	Topic string `json:"topic,omitempty" jsonschema:"a topic whose spoke to read; empty for the hub, which lists every topic"`
}

// LintInput is the input of lint_findings.
type LintInput struct {
	Status string `json:"status,omitempty" jsonschema:"open (default), resolved or all"`
	Path   string `json:"path,omitempty" jsonschema:"only findings about this page"`
	Check  string `json:"check,omitempty" jsonschema:"only findings of this check, e.g. broken_crossref"`
}

// LogInput is the input of kb_log.
type LogInput struct {
	N int `json:"n,omitempty" jsonschema:"how many commits, newest first (default 20, at most 500)"`
}

// Page is a page as read_page and browse_index return it: the file verbatim
// with its parsed frontmatter, pinned to the blob and the commit it was read
// at.
type Page struct {
	Path     string       `json:"path"`
	Revision string       `json:"revision" jsonschema:"the git blob id of the page: cite path@revision"`
	Commit   string       `json:"commit" jsonschema:"the commit the page was read at"`
	Meta     content.Meta `json:"meta"`
	Content  string       `json:"content" jsonschema:"the file verbatim, frontmatter included"`
}

// Findings is the output of lint_findings.
type Findings struct {
	Commit   string         `json:"commit"`
	Findings []lint.Finding `json:"findings"`
}

// Log is the output of kb_log.
type Log struct {
	Commits []wiki.Commit `json:"commits"`
}

const maxLog = 500

func (t *tools) addRead(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name: ToolQuery,
		Description: "Search the knowledge base before you implement or answer: returns ranked excerpts, each with the page path and the revision to cite. " +
			"sufficient=false means the space does not cover the question's subject; nearest then names up to three pages to look at. " +
			"Every answer carries coverage (how much of the question the excerpts hold, 0 to 1) and missing_terms (key words no excerpt contains): " +
			"before relying on an excerpt, check that it states the fact you need, and say so when none does. " +
			"Pass also with other phrasings or keywords when the first answer misses. " +
			"Pass paths (the files you are about to change) to get the pages that apply to them first, with or without a question.",
		Annotations: readOnly("Query the knowledge base"),
	}, t.query)
	sdk.AddTool(srv, &sdk.Tool{
		Name:        ToolReadPage,
		Description: "Read one page of the knowledge base in full (frontmatter and body), at the head or at a given commit.",
		Annotations: readOnly("Read a page"),
	}, t.readPage)
	sdk.AddTool(srv, &sdk.Tool{
		Name:        ToolBrowse,
		Description: "Read the hub (every topic, one line each) or, given a topic, its spoke (every page of the topic with a one-line summary).",
		Annotations: readOnly("Browse the index"),
	}, t.browse)
	sdk.AddTool(srv, &sdk.Tool{
		Name:        ToolLint,
		Description: "List the lint findings recorded in the space (broken links, orphan pages, provenance drift, expired pages, invalid frontmatter).",
		Annotations: readOnly("Lint findings"),
		InputSchema: inputSchema[LintInput](map[string][]string{"status": {"open", "resolved", "all"}}),
	}, t.lint)
	sdk.AddTool(srv, &sdk.Tool{
		Name:        ToolLog,
		Description: "List the space's latest commits, newest first, with their batch id, kind and approver.",
		Annotations: readOnly("Knowledge base log"),
	}, t.log)
}

func (t *tools) query(ctx context.Context, req *sdk.CallToolRequest, in QueryInput) (*sdk.CallToolResult, *retrieve.Result, error) {
	if in.K < 0 || in.Budget < 0 {
		return nil, nil, errors.New("query_knowledge_base: k and budget must not be negative")
	}
	e, done := t.retriever()
	defer done()
	who := t.callerOf(req)
	rq := retrieve.Request{Question: in.Question, Also: in.Also, K: in.K, Budget: in.Budget, Paths: in.Paths, Topics: in.Topics, Kinds: in.Kinds,
		Clearance: who.readClearance()}
	if in.Since != "" {
		var err error
		if rq.Since, err = parseSince(in.Since); err != nil {
			return nil, nil, fmt.Errorf("query_knowledge_base: since: %w", err)
		}
	}
	give, err := t.queries.take(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("query_knowledge_base: %w", err)
	}
	res, err := e.Query(ctx, rq)
	give()
	if err != nil {
		return nil, nil, fmt.Errorf("query_knowledge_base: %w", err)
	}
	ingest.RecordGap(t.space, res)
	return text(renderQuery(res)), res, nil
}

func (t *tools) readPage(ctx context.Context, req *sdk.CallToolRequest, in PageInput) (*sdk.CallToolResult, *Page, error) {
	pg, err := readPage(ctx, t.space, in.Path, in.Revision, t.callerOf(req))
	if err != nil {
		return nil, nil, fmt.Errorf("read_page: %w", err)
	}
	return text(pg.Content), pg, nil
}

// readPage reads a page given by a caller, refusing any path that is not a
// page of the space. A page above the caller's clearance is not found, and
// the lines of an index page (a spoke) that name one are left out. A page
// that carries a credential (one people committed with git, past the
// secret gate) is withheld.
func readPage(ctx context.Context, s *wiki.Space, p, rev string, who caller) (*Page, error) {
	clean, err := content.CleanPath(p)
	if err != nil {
		return nil, err
	}
	head, err := s.Resolve(ctx, rev)
	if err != nil {
		return nil, err
	}
	if head == "" {
		return nil, fmt.Errorf("%s: not found (the space has no commits)", clean)
	}
	at, err := s.ReadPage(ctx, head, clean)
	if err != nil {
		if errors.Is(err, wiki.ErrNotFound) {
			return nil, fmt.Errorf("%s: no such page at commit %s: %w", clean, short(string(head)), wiki.ErrNotFound)
		}
		return nil, err
	}
	if !visible(ctx, s, head, at, who) {
		return nil, fmt.Errorf("%s: no such page at commit %s: %w", clean, short(string(head)), wiki.ErrNotFound)
	}
	if f := secret.Scan(at.Raw); len(f) > 0 {
		return nil, fmt.Errorf("%s: %w: it carries a credential (%s) at line %d; pt lint reports it as %s until a person removes it", clean, errWithheld, f[0].Kind, f[0].Line, lint.CheckSecret)
	}
	text := string(at.Raw)
	if wiki.IsIndexPage(clean) && !who.owner {
		text = redactIndex(ctx, s, head, clean, text, who)
	}
	return &Page{Path: clean, Revision: at.Revision, Commit: string(head), Meta: at.Page.Meta, Content: text}, nil
}

// errWithheld: the page carries a credential and is not served.
var errWithheld = errors.New("withheld")

func (t *tools) browse(ctx context.Context, req *sdk.CallToolRequest, in BrowseInput) (*sdk.CallToolResult, *Page, error) {
	p := wiki.HubPath
	if topic := strings.TrimSpace(in.Topic); topic != "" {
		if !content.IsTopic(topic) {
			return nil, nil, fmt.Errorf("browse_index: topic %q has no letters or digits", topic)
		}
		p = wiki.SpokePath(topic)
	}
	pg, err := readPage(ctx, t.space, p, "", t.callerOf(req))
	if err != nil {
		if p != wiki.HubPath && errors.Is(err, wiki.ErrNotFound) {
			return nil, nil, fmt.Errorf("browse_index: no topic %q%s", in.Topic, t.topicsHint(ctx))
		}
		return nil, nil, fmt.Errorf("browse_index: %w", err)
	}
	return text(pg.Content), pg, nil
}

// topicsHint lists the space's topics for an error about an unknown one.
func (t *tools) topicsHint(ctx context.Context) string {
	head, err := t.space.Head(ctx)
	if err != nil {
		return ""
	}
	es, err := t.space.List(ctx, head, strings.TrimSuffix(wiki.TopicsDir, "/"))
	if err != nil || len(es) == 0 {
		return " (the space has no topics yet)"
	}
	var names []string
	for _, e := range es {
		names = append(names, strings.TrimSuffix(strings.TrimPrefix(e.Path, wiki.TopicsDir), ".md"))
		if len(names) == 30 {
			names = append(names, "...")
			break
		}
	}
	return "; topics: " + strings.Join(names, ", ")
}

func (t *tools) lint(ctx context.Context, _ *sdk.CallToolRequest, in LintInput) (*sdk.CallToolResult, *Findings, error) {
	if in.Path != "" {
		// A path no page of the space can have is the caller's mistake,
		// not a page without findings.
		clean, err := content.CleanPath(in.Path)
		if err != nil {
			return nil, nil, fmt.Errorf("lint_findings: %w", err)
		}
		in.Path = clean
	}
	head, err := t.space.Head(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("lint_findings: %w", err)
	}
	all, err := lint.Findings(ctx, t.space, head)
	if err != nil {
		return nil, nil, fmt.Errorf("lint_findings: %w", err)
	}
	out := &Findings{Commit: string(head), Findings: []lint.Finding{}}
	for _, f := range all {
		switch {
		case in.Status == "" || in.Status == "open":
			if !f.Open() {
				continue
			}
		case in.Status == "resolved":
			if f.Open() {
				continue
			}
		}
		if in.Path != "" && f.Path != in.Path || in.Check != "" && f.Check != in.Check {
			continue
		}
		out.Findings = append(out.Findings, f)
	}
	return text(renderFindings(out)), out, nil
}

func (t *tools) log(ctx context.Context, _ *sdk.CallToolRequest, in LogInput) (*sdk.CallToolResult, *Log, error) {
	n := in.N
	switch {
	case n < 0:
		return nil, nil, errors.New("kb_log: n must not be negative")
	case n == 0:
		n = 20
	case n > maxLog:
		n = maxLog
	}
	cs, err := t.space.History(ctx, "", n)
	if err != nil {
		return nil, nil, fmt.Errorf("kb_log: %w", err)
	}
	if cs == nil {
		cs = []wiki.Commit{}
	}
	out := &Log{Commits: cs}
	return text(renderLog(out)), out, nil
}

// text is a tool result whose readable content is s; the structured output
// is filled in by the SDK.
func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// parseSince reads a date or an RFC 3339 time.
func parseSince(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a date (2026-11-01) or an RFC 3339 time", s)
	}
	return t, nil
}
