package mcp

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// Token scopes.
const (
	ScopeRead  = "read"
	ScopeWrite = "write"
)

// unnamedAgent is the author of a write by a client that gave no name.
const unnamedAgent = "mcp-client"

// agentOf is who a tool call writes as: always an agent, named after the
// bearer token over HTTP (the name a person gave it with pt token create,
// which a client cannot forge), else after the client's own name from the
// initialize request.
func agentOf(req *sdk.CallToolRequest) wiki.Author {
	name := ""
	if req.Extra != nil && req.Extra.TokenInfo != nil {
		name = req.Extra.TokenInfo.UserID
	}
	if name == "" && req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
			name = p.ClientInfo.Name
		}
	}
	return wiki.Author{Kind: content.AuthorAgent, Name: cleanName(name)}
}

// cleanName makes a client-chosen name fit one line of frontmatter and a
// commit header: printable, no angle brackets, at most 64 runes.
func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '<' || r == '>':
			return -1
		case unicode.IsSpace(r):
			return ' '
		case !unicode.IsPrint(r):
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 64 {
		s = string(r[:64])
	}
	if s == "" {
		return unnamedAgent
	}
	return s
}

// mayWrite refuses a write tool to a bearer token of read scope. Calls
// without a token (stdio, or HTTP with --auth none on loopback) may write.
func mayWrite(req *sdk.CallToolRequest, tool string) error {
	if req.Extra == nil || req.Extra.TokenInfo == nil {
		return nil
	}
	if slices.Contains(req.Extra.TokenInfo.Scopes, ScopeWrite) {
		return nil
	}
	return fmt.Errorf("%s: token %q has read scope; writing needs a token created with --scope write", tool, req.Extra.TokenInfo.UserID)
}
