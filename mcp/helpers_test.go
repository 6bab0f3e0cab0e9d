package mcp

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// when is the clock of the seeded batches, so their commits are stable.
var when = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)

// seeds are the sources every test space starts with, ingested by a person.
var seeds = []ingest.Source{
	{Title: "Why the index is keyed by commit", Kind: ingest.SourceDecision, Topics: []string{"storage"},
		Body: []byte("# Decision\n\nThe full-text index is keyed by the commit it reflects. After a pull it is updated incrementally from the tree diff between that commit and HEAD, never rebuilt from scratch.\n\n## Consequences\n\nDeleting the index is always safe: pt rebuilds it.\n")},
	{Title: "Ledger outage postmortem", Kind: ingest.SourcePostmortem, Topics: []string{"operations"},
		Body: []byte("# Postmortem\n\nThe ledger write queue stalled for 40 minutes because the replay worker retried without idempotency keys. Replays must carry idempotency keys so that a retried write is applied once.\n")},
	{Title: "Code review conventions", Kind: ingest.SourceDoc, Topics: []string{"conventions"},
		Body: []byte("# Code review\n\nEvery change gets one reviewer who did not write it. Reviews answer within one working day. Large changes are split before review.\n")},
}

// newSpace makes a space in a fresh git repository with the seeds ingested.
func newSpace(t testing.TB) *wiki.Space {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	s, _, err := wiki.Init(ctx, dir, wiki.InitOptions{Name: "test", When: when, Clock: wiki.SteppingClock(when, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for i, src := range seeds {
		src.ApprovedBy = "dana"
		src.Author = wiki.Author{Kind: content.AuthorHuman, Name: "dana", Email: "dana@example.com"}
		src.When = when.Add(time.Duration(i) * time.Minute)
		if _, err := ingest.Ingest(ctx, s, src); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// connect serves s over the SDK's in-memory transports to a client named
// name, as pt serve does over stdio (writes approved by the repository's
// person, dana), and returns the client's session.
func connect(t testing.TB, s *wiki.Space, name string) *sdk.ClientSession {
	t.Helper()
	return connectWith(t, s, name, Options{LocalApprover: "dana", LocalOwner: true})
}

// connectWith is connect with the server's options.
func connectWith(t testing.TB, s *wiki.Space, name string, opts Options) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	if opts.Engine == nil {
		e := retrieve.Open(s, retrieve.Options{})
		t.Cleanup(func() { e.Close() })
		opts.Engine = e
	}
	ss, err := NewServer(s, opts).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// git runs git in the space's directory and returns its trimmed output.
func git(t testing.TB, s *wiki.Space, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = s.Dir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// call calls a tool and fails the test on a protocol error.
func call(t testing.TB, cs *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	return res
}

// textOf is the text content of a tool result.
func textOf(r *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// confirmCall calls a destructive tool twice: for its preview, which must
// carry a confirm_token, then with that token. It returns the second result.
func confirmCall(t testing.TB, cs *sdk.ClientSession, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	pre := call(t, cs, name, args)
	tok := confirmToken(t, pre)
	with := map[string]any{"confirm_token": tok}
	for k, v := range args {
		with[k] = v
	}
	return call(t, cs, name, with)
}

// confirmToken is the top-level confirm_token of a preview.
func confirmToken(t testing.TB, pre *sdk.CallToolResult) string {
	t.Helper()
	if pre.IsError {
		t.Fatalf("preview isError: %s", textOf(pre))
	}
	m, _ := pre.StructuredContent.(map[string]any)
	tok, _ := m["confirm_token"].(string)
	if tok == "" {
		t.Fatalf("preview without confirm_token: %#v", pre.StructuredContent)
	}
	return tok
}
