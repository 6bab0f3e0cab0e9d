package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

// IngestInput is the input of ingest_source.
type IngestInput struct {
	Title      string   `json:"title" jsonschema:"the source's title, one line"`
	Body       string   `json:"body" jsonschema:"the source verbatim, in Markdown (meeting notes, a postmortem, a decision, a thread)"`
	ApprovedBy string   `json:"approved_by,omitempty" jsonschema:"ignored: the approver is the person the token belongs to"`
	Kind       string   `json:"kind,omitempty" jsonschema:"what the source is (default other)"`
	Summary    string   `json:"summary,omitempty" jsonschema:"a one-line summary; by default one is extracted"`
	Topics     []string `json:"topics,omitempty" jsonschema:"topics of the source; by default assigned from the space's taxonomy"`
	Related    []string `json:"related,omitempty" jsonschema:"paths of existing pages that should link back to this source's summary"`
	Update     string   `json:"update,omitempty" jsonschema:"path of a source page to revise with this text (a source with the same title is revised too)"`
}

// RevertInput is the input of revert_ingest_batch.
type RevertInput struct {
	Batch        string `json:"batch" jsonschema:"the batch id to undo, e.g. b-20261129-7f3a (from ingest_source or kb_log)"`
	ApprovedBy   string `json:"approved_by,omitempty" jsonschema:"ignored: the approver is the person the token belongs to"`
	ConfirmToken string `json:"confirm_token,omitempty" jsonschema:"the confirm_token of this call's preview; leave it out to get the preview"`
}

func (t *tools) addWrite(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:        ToolIngest,
		Description: "Add a source to the knowledge base as one commit: the source verbatim, its summary, links back from related pages, the topic spokes and the log. A source already there (same title, or update) is revised in place. Content carrying a secret is refused and nothing is written.",
		Annotations: writes("Ingest a source", false, false),
		InputSchema: inputSchema[IngestInput](map[string][]string{"kind": ingest.SourceKinds()}),
	}, t.ingest)
	sdk.AddTool(srv, &sdk.Tool{
		Name:         ToolRevert,
		Description:  "Undo a batch (an ingest, import or file-back) as one new commit that restores every page it wrote. The first call returns a preview (what would be deleted or restored, and whose pages) with a confirm_token; call again with it to revert. Refuses, writing nothing, when a later commit changed one of those pages, or when it would delete or rewrite a page a person owns.",
		Annotations:  writes("Revert a batch", true, false),
		OutputSchema: destructiveSchema(),
	}, t.revert)
	t.addFileBack(srv)
	t.addPropose(srv)
}

func (t *tools) ingest(ctx context.Context, req *sdk.CallToolRequest, in IngestInput) (*sdk.CallToolResult, *wiki.Result, error) {
	if err := mayWrite(req, ToolIngest); err != nil {
		return nil, nil, err
	}
	who := t.callerOf(req)
	res, err := ingest.Ingest(ctx, t.space, ingest.Source{
		Title:      in.Title,
		Body:       []byte(in.Body),
		Kind:       in.Kind,
		Summary:    in.Summary,
		Topics:     in.Topics,
		Related:    in.Related,
		Update:     in.Update,
		ApprovedBy: who.approver,
		Author:     who.agent,
		Propose:    who.proposes(t.space),
	})
	if err != nil {
		return nil, nil, fmt.Errorf("ingest_source: %w", err)
	}
	return text(renderResult(res)), res, nil
}

func (t *tools) revert(ctx context.Context, req *sdk.CallToolRequest, in RevertInput) (*sdk.CallToolResult, *Destructive, error) {
	if err := mayWrite(req, ToolRevert); err != nil {
		return nil, nil, err
	}
	id := strings.TrimSpace(in.Batch)
	if id == "" {
		return nil, nil, errors.New("revert_ingest_batch: batch is required")
	}
	who := t.callerOf(req)
	opts := wiki.RevertOptions{ApprovedBy: who.approver, Author: who.agent}
	preview := func() (*Preview, error) {
		steps, err := t.space.PlanRevert(ctx, id, opts)
		if err != nil {
			return nil, err
		}
		p := &Preview{Tool: ToolRevert, What: "revert " + id, Pages: []PreviewPage{}}
		for _, st := range steps {
			p.Pages = append(p.Pages, PreviewPage{Path: st.Path, Action: st.Action, Owner: st.Owner, HumanOwned: st.HumanOwned})
		}
		return p, nil
	}
	act := func() (*wiki.Result, error) { return t.space.Revert(ctx, id, opts) }
	return t.destructive(ToolRevert, who, struct{ Batch string }{id}, in.ConfirmToken, preview, act)
}
