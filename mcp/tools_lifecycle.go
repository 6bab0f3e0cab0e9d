package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

// SupersedeInput is the input of supersede_page.
type SupersedeInput struct {
	Page         string `json:"page" jsonschema:"the page to retire, e.g. sources/deploy-policy.md"`
	By           string `json:"by" jsonschema:"the active page that supersedes it"`
	ApprovedBy   string `json:"approved_by,omitempty" jsonschema:"ignored: the approver is the person the token belongs to"`
	ConfirmToken string `json:"confirm_token,omitempty" jsonschema:"the confirm_token of this call's preview; leave it out to get the preview"`
}

// RetractInput is the input of retract_page.
type RetractInput struct {
	Page         string `json:"page" jsonschema:"the page that was wrong"`
	Reason       string `json:"reason" jsonschema:"what was wrong, one line"`
	ApprovedBy   string `json:"approved_by,omitempty" jsonschema:"ignored: the approver is the person the token belongs to"`
	ConfirmToken string `json:"confirm_token,omitempty" jsonschema:"the confirm_token of this call's preview; leave it out to get the preview"`
}

// StatusInput is the input of obsolete_page and archive_page.
type StatusInput struct {
	Page         string `json:"page" jsonschema:"the page to retire, e.g. sources/office-vpn.md"`
	Reason       string `json:"reason,omitempty" jsonschema:"why, one line (recorded in the commit)"`
	ApprovedBy   string `json:"approved_by,omitempty" jsonschema:"ignored: the approver is the person the token belongs to"`
	ConfirmToken string `json:"confirm_token,omitempty" jsonschema:"the confirm_token of this call's preview; leave it out to get the preview"`
}

func (t *tools) addLifecycle(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:         ToolSupersede,
		Description:  "Mark a page superseded by an active successor, as one revertible commit: only the two pages' lifecycle fields change (status, superseded_by, supersedes), and a source's summary follows its source. Retrieval then answers from the successor.",
		Annotations:  writes("Supersede a page", true, false),
		OutputSchema: destructiveSchema(),
	}, t.supersede)
	sdk.AddTool(srv, &sdk.Tool{
		Name:         ToolRetract,
		Description:  "Retract a page that was wrong, with the reason, as one revertible commit: only its lifecycle fields change, and a source's summary follows its source. Retrieval never returns it again.",
		Annotations:  writes("Retract a page", true, false),
		OutputSchema: destructiveSchema(),
	}, t.retract)
	sdk.AddTool(srv, &sdk.Tool{
		Name:         ToolObsolete,
		Description:  "Mark a page obsolete: what it says no longer applies and no page replaces it (supersede_page when one does). One revertible commit that changes only its status; a source's summary follows its source. Retrieval never returns it again.",
		Annotations:  writes("Make a page obsolete", true, false),
		OutputSchema: destructiveSchema(),
	}, t.obsolete)
	sdk.AddTool(srv, &sdk.Tool{
		Name:         ToolArchive,
		Description:  "Archive a page, kept in git for the record only: the last step of its life, from active, superseded or obsolete (a retracted page stays retracted). One revertible commit that changes only its status; a source's summary follows its source. Retrieval never returns it.",
		Annotations:  writes("Archive a page", true, false),
		OutputSchema: destructiveSchema(),
	}, t.archive)
}

func (t *tools) supersede(ctx context.Context, req *sdk.CallToolRequest, in SupersedeInput) (*sdk.CallToolResult, *Destructive, error) {
	return t.retire(ctx, req, ToolSupersede, ingest.Retirement{Old: in.Page, New: in.By}, in.ConfirmToken)
}

func (t *tools) retract(ctx context.Context, req *sdk.CallToolRequest, in RetractInput) (*sdk.CallToolResult, *Destructive, error) {
	return t.retire(ctx, req, ToolRetract, ingest.Retirement{Old: in.Page, Reason: in.Reason}, in.ConfirmToken)
}

func (t *tools) obsolete(ctx context.Context, req *sdk.CallToolRequest, in StatusInput) (*sdk.CallToolResult, *Destructive, error) {
	return t.retire(ctx, req, ToolObsolete, ingest.Retirement{Old: in.Page, Status: content.StatusObsolete, Reason: in.Reason}, in.ConfirmToken)
}

func (t *tools) archive(ctx context.Context, req *sdk.CallToolRequest, in StatusInput) (*sdk.CallToolResult, *Destructive, error) {
	return t.retire(ctx, req, ToolArchive, ingest.Retirement{Old: in.Page, Status: content.StatusArchived, Reason: in.Reason}, in.ConfirmToken)
}

func (t *tools) retire(ctx context.Context, req *sdk.CallToolRequest, tool string, r ingest.Retirement, token string) (*sdk.CallToolResult, *Destructive, error) {
	if err := mayWrite(req, tool); err != nil {
		return nil, nil, err
	}
	who := t.callerOf(req)
	r.Author, r.ApprovedBy = who.agent, who.approver
	preview := func() (*Preview, error) {
		plan, err := ingest.PlanRetire(ctx, t.space, r)
		if err != nil {
			return nil, err
		}
		p := &Preview{Tool: tool, What: plan.Title, Pages: []PreviewPage{}}
		for _, c := range plan.Pages {
			action := "retire"
			if c.Role != wiki.RoleRetired {
				action = "link"
			}
			p.Pages = append(p.Pages, PreviewPage{Path: c.Path, Action: action, Status: c.Status, Owner: c.Owner, HumanOwned: c.HumanOwned})
		}
		return p, nil
	}
	act := func() (*wiki.Result, error) { return ingest.Retire(ctx, t.space, r) }
	key := struct{ Old, New, Status, Reason string }{r.Old, r.New, r.Status, r.Reason}
	return t.destructive(tool, who, key, token, preview, act)
}

// destructive runs a destructive call in two steps: without a token it
// returns the preview and a confirm_token for this call by this caller;
// with one it redeems the token and acts. A refused token, like any bad
// input, leaves the repository as it was.
func (t *tools) destructive(tool string, who caller, args any, token string, preview func() (*Preview, error), act func() (*wiki.Result, error)) (*sdk.CallToolResult, *Destructive, error) {
	call := callKey(tool, args)
	if token = strings.TrimSpace(token); token == "" {
		p, err := preview()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", tool, err)
		}
		tok, exp := t.confirm.issue(call, who.key, t.space.Now())
		out := &Destructive{ConfirmToken: tok, Expires: exp.UTC().Format(time.RFC3339), Preview: p}
		return text(renderPreview(out)), out, nil
	}
	if err := t.confirm.redeem(token, call, who.key, t.space.Now()); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", tool, err)
	}
	res, err := act()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", tool, err)
	}
	return text(renderResult(res)), &Destructive{Result: res}, nil
}
