package mcp

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// Resource addresses: the hub, and every page through one template whose
// path may hold slashes (kb://page/pages/storage.md).
const (
	HubURI          = "kb://hub"
	PageURITemplate = "kb://page/{+path}"
	pageURIPrefix   = "kb://page/"
)

// PageURI is the resource address of a page.
func PageURI(p string) string { return pageURIPrefix + p }

func (t *tools) addResources(srv *sdk.Server) {
	s := t.space
	srv.AddResource(&sdk.Resource{
		URI:         HubURI,
		Name:        "hub",
		Title:       "Knowledge base hub",
		Description: "The hub of the knowledge base: every topic, one line each, linking its spoke.",
		MIMEType:    "text/markdown",
	}, func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		return readResource(ctx, s, req.Params.URI, wiki.HubPath, t.callerFrom(req.Extra, req.Session))
	})
	srv.AddResourceTemplate(&sdk.ResourceTemplate{
		URITemplate: PageURITemplate,
		Name:        "page",
		Title:       "Knowledge base page",
		Description: "A page of the knowledge base at the head, by its path relative to the space root (kb://page/pages/storage.md).",
		MIMEType:    "text/markdown",
	}, func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		raw := strings.TrimPrefix(req.Params.URI, pageURIPrefix)
		p, err := url.PathUnescape(raw)
		if err != nil {
			return nil, sdk.ResourceNotFoundError(req.Params.URI)
		}
		return readResource(ctx, s, req.Params.URI, p, t.callerFrom(req.Extra, req.Session))
	})
}

func readResource(ctx context.Context, s *wiki.Space, uri, p string, who caller) (*sdk.ReadResourceResult, error) {
	pg, err := readPage(ctx, s, p, "", who)
	if err != nil {
		switch {
		case errors.Is(err, wiki.ErrNotFound):
			return nil, sdk.ResourceNotFoundError(uri)
		case errors.Is(err, content.ErrUnsafePath):
			// A URI naming no page pt serves (kb://page/../x, kb.yaml) is
			// the client's mistake: invalid params, not a server failure.
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		return nil, err
	}
	meta := sdk.Meta{"revision": pg.Revision, "commit": pg.Commit}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: pg.Content, Meta: meta}}}, nil
}
