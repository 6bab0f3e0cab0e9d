package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/lint"
)

// TestPagesWithSecretsAreWithheld: a page a person commits with git, past
// the secret gate, is reported by lint as secret_in_page and is withheld
// from query_knowledge_base, read_page and resources until the credential
// is gone; the same page without it is served.
func TestPagesWithSecretsAreWithheld(t *testing.T) {
	ctx := context.Background()
	s := newSpace(t)
	cs := connect(t, s, "test-agent")
	const p = "pages/bastion.md"
	page := func(extra string) {
		body := "---\ntitle: Reaching the ledger database from the bastion\ntopics: [operations]\nauthor: {kind: human, name: dana}\n---\n" +
			"# Reaching the ledger database from the bastion\n\nOpen a tunnel through the bastion host, then connect the psql client to the ledger replica.\n" + extra
		full := filepath.Join(s.Dir(), filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, s, "add", "-A")
		git(t, s, "-c", "user.name=dana", "-c", "user.email=dana@example.com", "commit", "-qm", "bastion notes")
	}
	question := map[string]any{"question": "how do I connect psql to the ledger replica through the bastion tunnel"}
	served := func() (query, read, resource bool) {
		if r := call(t, cs, ToolQuery, question); !r.IsError {
			for _, h := range r.StructuredContent.(map[string]any)["results"].([]any) {
				if h.(map[string]any)["path"] == p {
					query = true
				}
			}
		}
		read = !call(t, cs, ToolReadPage, map[string]any{"path": p}).IsError
		_, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: PageURI(p)})
		return query, read, err == nil
	}

	page("")
	if q, r, rs := served(); !q || !r || !rs {
		t.Fatalf("a clean page: query %v, read_page %v, resource %v; want all served", q, r, rs)
	}

	page("\nThe replica's login: PGPASSWORD=" + "Xk9" + "mQ2vL7 psql -h replica\n")
	if q, r, rs := served(); q || r || rs {
		t.Errorf("a page with a password: query %v, read_page %v, resource %v; want it withheld from all", q, r, rs)
	}
	res := call(t, cs, ToolReadPage, map[string]any{"path": p})
	if msg := textOf(res); !strings.Contains(msg, "secret_in_page") || strings.Contains(msg, "mQ2vL7") {
		t.Errorf("read_page says %q; want the reason, never the secret", msg)
	}
	rep, err := lint.Run(ctx, s, lint.Options{Now: when.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range rep.Open() {
		found = found || f.Check == lint.CheckSecret && f.Path == p && f.Line == 10
	}
	if !found {
		t.Errorf("lint found no secret_in_page at %s:10: %+v", p, rep.Open())
	}

	page("\nThe replica's login is in the vault.\n")
	if q, r, rs := served(); !q || !r || !rs {
		t.Errorf("the fixed page: query %v, read_page %v, resource %v; want all served again", q, r, rs)
	}
}
