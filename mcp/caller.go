package mcp

import (
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// Keys of a verified token's TokenInfo.Extra.
const (
	extraFor       = "for"       // the person the token belongs to; "" for an agent's token
	extraClearance = "clearance" // the token's clearance; "" is UNCLASSIFIED
)

// caller is who a tool call acts for. What it writes is always an agent's
// (the client's); it is approved by the token's person, by the developer
// who started a local server, or by nobody (an agent's token).
type caller struct {
	agent    wiki.Author
	approver string // "" for an agent's token: the batch carries Agent: only
	key      string // tells callers apart for confirmations
	// clearance is the highest classification it may read; owner reads
	// everything (a local server a developer started).
	clearance string
	owner     bool
}

// callerOf reads the caller from the bearer token, else from the server's
// options for calls without one. An approved_by a client sends is never
// read: an agent cannot name a person as its approver.
func (t *tools) callerOf(req *sdk.CallToolRequest) caller {
	c := t.callerFrom(req.Extra, req.Session)
	c.agent = agentOf(req)
	return c
}

// callerFrom reads the caller of any request (a tool call or a resource
// read) from its token, else from the server's options.
func (t *tools) callerFrom(extra *sdk.RequestExtra, session *sdk.ServerSession) caller {
	var c caller
	if extra != nil && extra.TokenInfo != nil {
		ti := extra.TokenInfo
		c.key = "token " + ti.UserID
		c.approver, _ = ti.Extra[extraFor].(string)
		c.clearance, _ = ti.Extra[extraClearance].(string)
		if c.clearance == "" {
			c.clearance = content.Unclassified
		}
		return c
	}
	c.key = "local"
	if session != nil {
		c.key += " " + session.ID()
	}
	c.approver = t.opts.LocalApprover
	c.owner = t.opts.LocalOwner
	c.clearance = content.Unclassified
	return c
}

// cleared reports whether the caller may read a page of meta m.
func (c caller) cleared(s *wiki.Space, m content.Meta) bool {
	return c.owner || content.Cleared(c.clearance, m.Classification, s.Config().SpaceClassification())
}

// readClearance is the clearance retrieval reads with: "" (everything) for
// the repository's owner.
func (c caller) readClearance() string {
	if c.owner {
		return ""
	}
	return c.clearance
}

// proposes reports whether the caller's writes go to the review queue when
// kb.yaml sends agents' writes there: every write but one a person's own
// token approves (an agent's token, or a local server an agent drives).
func (c caller) proposes(s *wiki.Space) bool {
	return s.Config().ProposeAgentWrites() && (c.approver == "" || c.owner)
}
