package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

// SupersedeInput is the input of supersede_page.
type SupersedeInput struct {
	Page       string `json:"page" jsonschema:"the page to retire, e.g. sources/deploy-policy.md"`
	By         string `json:"by" jsonschema:"the active page that supersedes it"`
	ApprovedBy string `json:"approved_by,omitempty" jsonschema:"ignored: the approver is the person the token belongs to"`
}

// RetractInput is the input of retract_page.
type RetractInput struct {
	Page       string `json:"page" jsonschema:"the page that was wrong"`
	Reason     string `json:"reason" jsonschema:"what was wrong, one line"`
	ApprovedBy string `json:"approved_by,omitempty" jsonschema:"ignored: the approver is the person the token belongs to"`
}

func (t *tools) addLifecycle(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:        ToolSupersede,
		Description: "Mark a page superseded by an active successor, as one revertible commit: only the two pages' lifecycle fields change (status, superseded_by, supersedes), and a source's summary follows its source. Retrieval then answers from the successor.",
		Annotations: writes("Supersede a page", true, false),
	}, t.supersede)
	sdk.AddTool(srv, &sdk.Tool{
		Name:        ToolRetract,
		Description: "Retract a page that was wrong, with the reason, as one revertible commit: only its lifecycle fields change, and a source's summary follows its source. Retrieval never returns it again.",
		Annotations: writes("Retract a page", true, false),
	}, t.retract)
}

func (t *tools) supersede(ctx context.Context, req *sdk.CallToolRequest, in SupersedeInput) (*sdk.CallToolResult, *wiki.Result, error) {
	return t.retire(ctx, req, ToolSupersede, ingest.Retirement{Old: in.Page, New: in.By})
}

func (t *tools) retract(ctx context.Context, req *sdk.CallToolRequest, in RetractInput) (*sdk.CallToolResult, *wiki.Result, error) {
	return t.retire(ctx, req, ToolRetract, ingest.Retirement{Old: in.Page, Reason: in.Reason})
}

func (t *tools) retire(ctx context.Context, req *sdk.CallToolRequest, tool string, r ingest.Retirement) (*sdk.CallToolResult, *wiki.Result, error) {
	if err := mayWrite(req, tool); err != nil {
		return nil, nil, err
	}
	r.Author = agentOf(req)
	res, err := ingest.Retire(ctx, t.space, r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", tool, err)
	}
	return text(renderResult(res)), res, nil
}
