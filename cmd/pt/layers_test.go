package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// layers is DESIGN.md §1: each package may import only those before it in
// the chain, and each third-party module belongs to one package.
var layers = []string{"content", "wiki", "lint", "retrieve", "ingest", "mcp", "cmd"}

var owners = map[string]string{
	"github.com/go-git/go-git/v5":            "wiki/internal/gitstore",
	"github.com/yuin/goldmark":               "content",
	"go.abhg.dev/goldmark/frontmatter":       "content",
	"github.com/microcosm-cc/bluemonday":     "content",
	"github.com/blugelabs/bluge":             "retrieve/internal/index",
	"github.com/modelcontextprotocol/go-sdk": "mcp",
}

const module = "github.com/ptwiki/pt"

func layerOf(pkg string) int {
	rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
	top, _, _ := strings.Cut(rel, "/")
	for i, l := range layers {
		if l == top {
			return i
		}
	}
	return -1
}

// TestImportDirection keeps the layers of DESIGN.md §1: imports point one
// way along content ← wiki ← lint ← retrieve ← ingest ← mcp ← cmd.
func TestImportDirection(t *testing.T) {
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports", "./...")
	cmd.Dir = "../.." // the module root: every package of pt
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for dec.More() {
		seen++
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		from := layerOf(p.ImportPath)
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module+"/") {
				if to := layerOf(imp); to > from {
					t.Errorf("%s imports %s, against the layers %v", p.ImportPath, imp, layers)
				}
				continue
			}
			for mod, owner := range owners {
				if (imp == mod || strings.HasPrefix(imp, mod+"/")) && !strings.HasPrefix(p.ImportPath, module+"/"+owner) {
					t.Errorf("%s imports %s, which only %s may import", p.ImportPath, imp, owner)
				}
			}
		}
	}
	if seen < len(layers) {
		t.Fatalf("go list saw %d packages; the check needs all of pt's", seen)
	}
}
