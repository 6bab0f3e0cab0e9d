package mcp

import (
	"context"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// Reader is who reads the space through a server: a token's clearance,
// UNCLASSIFIED for a client that did not authenticate, or the
// repository's owner (a local server a developer started), who reads
// everything. The web view reads through the same rules as the tools.
type Reader struct {
	Clearance string // "" is UNCLASSIFIED
	Owner     bool
}

// TokenReader is the reader a verified token stands for.
func TokenReader(t Token) Reader { return Reader{Clearance: t.Clearance} }

// clearance is the classification r reads up to.
func (r Reader) clearance() string {
	if r.Clearance == "" {
		return content.Unclassified
	}
	return r.Clearance
}

// ReadClearance is the clearance retrieval reads with: "" (everything)
// for the owner.
func (r Reader) ReadClearance() string {
	if r.Owner {
		return ""
	}
	return r.clearance()
}

// Sees reports whether r may read a page at head: its classification, and
// for a summary its source's, which it restates.
func (r Reader) Sees(ctx context.Context, s *wiki.Space, head wiki.Rev, pa *wiki.PageAt) bool {
	return visible(ctx, s, head, pa, r.caller())
}

// RedactIndex drops the lines of an index page (the hub, a spoke, the
// log) that link to a page r may not read, so that it is not even named.
func (r Reader) RedactIndex(ctx context.Context, s *wiki.Space, head wiki.Rev, p, text string) string {
	if r.Owner {
		return text
	}
	return redactIndex(ctx, s, head, p, text, r.caller())
}

func (r Reader) caller() caller { return caller{clearance: r.clearance(), owner: r.Owner} }
