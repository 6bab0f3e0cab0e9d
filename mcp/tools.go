package mcp

import (
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// Tool names: the contract of DESIGN.md §9.
const (
	ToolQuery     = "query_knowledge_base"
	ToolReadPage  = "read_page"
	ToolBrowse    = "browse_index"
	ToolIngest    = "ingest_source"
	ToolRevert    = "revert_ingest_batch"
	ToolFileBack  = "file_back_consult"
	ToolLint      = "lint_findings"
	ToolLog       = "kb_log"
	ToolSupersede = "supersede_page"
	ToolRetract   = "retract_page"
	ToolObsolete  = "obsolete_page"
	ToolArchive   = "archive_page"
	ToolPropose   = "propose_note"
)

// WriteTools are the tools that change the space; a read token cannot call
// them.
var WriteTools = []string{ToolIngest, ToolRevert, ToolFileBack, ToolSupersede, ToolRetract, ToolObsolete, ToolArchive, ToolPropose}

// tools holds what every tool handler needs: the space. Handlers are safe
// for concurrent use because wiki.Space is.
type tools struct {
	space   *wiki.Space
	engine  *retrieve.Engine // nil: one per call (Options.Engine)
	opts    Options
	confirm *confirmations
	queries querySlots // query_knowledge_base calls answered at once
}

// retriever returns the server's Engine, or one opened for a single call
// and the function that closes it.
func (t *tools) retriever() (*retrieve.Engine, func()) {
	if t.engine != nil {
		return t.engine, func() {}
	}
	e := retrieve.Open(t.space, retrieve.Options{})
	return e, func() { e.Close() }
}

func (t *tools) register(srv *sdk.Server) {
	t.addRead(srv)
	t.addWrite(srv)
	t.addLifecycle(srv)
}

// Annotation presets. Every tool works on this space alone, so none is
// open-world.
func readOnly(title string) *sdk.ToolAnnotations {
	return &sdk.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
}

func writes(title string, destructive, idempotent bool) *sdk.ToolAnnotations {
	return &sdk.ToolAnnotations{Title: title, DestructiveHint: new(destructive), IdempotentHint: idempotent, OpenWorldHint: new(false)}
}

// inputSchema infers the JSON Schema of a tool's input type and narrows the
// named string properties (or the items of string-array properties) to an
// enumeration, which struct tags cannot say.
func inputSchema[T any](enums map[string][]string) *jsonschema.Schema {
	s, err := jsonschema.ForType(reflect.TypeFor[T](), &jsonschema.ForOptions{})
	if err != nil {
		panic(fmt.Sprintf("input schema of %T: %v", *new(T), err))
	}
	for name, vals := range enums {
		p := s.Properties[name]
		if p == nil {
			panic(fmt.Sprintf("input schema of %T: no property %q", *new(T), name))
		}
		for _, v := range vals {
			p.Enum = append(p.Enum, v)
		}
	}
	return s
}
