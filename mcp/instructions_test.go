package mcp

import (
	"context"
	"strings"
	"testing"

	"github.com/ptwiki/pt/content/guidance"
)

// The instructions list every tool under the category its annotations
// give it, and every resource the server offers.
func TestInstructionsListEveryTool(t *testing.T) {
	cs := connect(t, newSpace(t), "test-agent")
	ctx := context.Background()
	ins := cs.InitializeResult().Instructions
	section := func(title string) string {
		_, rest, ok := strings.Cut(ins, "\n"+title)
		if !ok {
			t.Fatalf("instructions have no %q section:\n%s", title, ins)
		}
		block, _, _ := strings.Cut(rest, "\n\n")
		return block
	}
	read, write, destructive := section("Read "), section("Write "), section("Destructive ")
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		a := tool.Annotations
		want, name := write, "Write"
		switch {
		case a.ReadOnlyHint:
			want, name = read, "Read"
		case a.DestructiveHint != nil && *a.DestructiveHint:
			want, name = destructive, "Destructive"
		}
		if !strings.Contains(want, "- "+tool.Name+":") {
			t.Errorf("%s is not listed under %s", tool.Name, name)
		}
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	resources, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resources.Resources {
		if !strings.Contains(ins, r.URI) {
			t.Errorf("resource %s is not in the instructions", r.URI)
		}
	}
	for _, r := range templates.ResourceTemplates {
		if !strings.Contains(ins, r.URITemplate) {
			t.Errorf("resource template %s is not in the instructions", r.URITemplate)
		}
	}
	for _, w := range []string{guidance.Habits, "approved_by", "confirmation token", "path@revision"} {
		if !strings.Contains(ins, w) {
			t.Errorf("instructions do not say %q", w)
		}
	}
}

// The server advertises what it implements: its lists never change, so no
// listChanged; it takes no subscriptions and completes no arguments.
func TestCapabilitiesAreImplemented(t *testing.T) {
	cs := connect(t, newSpace(t), "test-agent")
	c := cs.InitializeResult().Capabilities
	switch {
	case c.Tools == nil || c.Resources == nil || c.Prompts == nil:
		t.Fatalf("tools, resources and prompts must be advertised: %+v", c)
	case c.Tools.ListChanged || c.Resources.ListChanged || c.Prompts.ListChanged:
		t.Errorf("listChanged advertised, but the server never sends it: %+v %+v %+v", c.Tools, c.Resources, c.Prompts)
	case c.Resources.Subscribe:
		t.Error("resource subscriptions advertised, but none are implemented")
	case c.Completions != nil:
		t.Errorf("completions advertised, but not implemented: %+v", c)
	}
}
