package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// Source kinds, as written in a source page's source_kind key.
const (
	SourceMeetingNotes = "meeting-notes"
	SourceDecision     = "decision"
	SourcePostmortem   = "postmortem"
	SourceDoc          = "doc"
	SourceChat         = "chat"
	SourceOther        = "other"
)

// SourceKinds returns the accepted source kinds, for flag help and errors.
func SourceKinds() []string {
	return []string{SourceMeetingNotes, SourceDecision, SourcePostmortem, SourceDoc, SourceChat, SourceOther}
}

// Source is one piece of knowledge to ingest: its text and what the caller
// knows about it. Only Body, ApprovedBy and a title are required: Title,
// else the body's frontmatter title, else its first H1, else the first of
// Aliases.
type Source struct {
	Title string
	// Aliases are other names of the source, such as the words of its file
	// name: recorded on its pages and searched as the title is.
	Aliases []string
	// Body is the source verbatim. It may start with its own YAML
	// frontmatter, whose keys are kept on the source page.
	Body []byte
	// Kind is one of SourceKinds(); "" means other.
	Kind string
	// Summary is the caller's one-line summary; it wins over the extracted one.
	Summary string
	// Topics are the caller's topics; when empty they are assigned from the
	// space's taxonomy.
	Topics []string
	// Related are page paths that get a link back to the new summary
	// (fan-out). Each must exist; human-owned ones are left alone.
	Related []string
	// ApprovedBy is the person who approved the ingest: mandatory, but
	// for an agent's write made with an agent's token, which has none.
	ApprovedBy string
	// Author is who ingests: kind human for the CLI, agent for MCP.
	Author wiki.Author
	// When is the batch and page time; zero means now.
	When time.Time
	// Slug names sources/<slug>.md and summaries/<slug>.md; "" means the
	// slug of the title. A source already there is revised.
	Slug string
	// Update names a source page of the space to revise ("" for none);
	// it wins over Slug.
	Update string
	// AppliesTo are globs over the code repository (internal/ledger/**)
	// whose files the source governs; its summary carries them too.
	AppliesTo []string
	// File is the file the source was read from ("" for stdin or an
	// agent's text). Its source page records it as provenance.origin
	// (relative to the repository's root when the file lies inside the
	// repository), and ingesting the file again revises the page that
	// records it, wherever its slug put it. A file with no title of its own
	// takes its slug from the file name.
	File string
	// Propose writes the ingest as a proposal for a person to review
	// (wiki.Batch.Propose); ApprovedBy is then left to pt approve.
	Propose bool
}

// Errors callers branch on; each is wrapped with the page path and, where
// it has one, the line.
var (
	errNoApprover = errors.New("approved_by is required: name the person who approved this ingest")
	errNoTitle    = errors.New("a title is required")
	errEmpty      = errors.New("empty source")
	errTooLarge   = errors.New("source too large")
	ErrBadKind    = errors.New("unknown source kind")
	errRelated    = errors.New("related page")
	errRevision   = errors.New("cannot revise")
)

// checkKind returns the canonical source kind.
func checkKind(k string) (string, error) {
	k = strings.TrimSpace(strings.ToLower(k))
	if k == "" {
		return SourceOther, nil
	}
	if !slices.Contains(SourceKinds(), k) {
		return "", fmt.Errorf("%w %q (one of %s)", ErrBadKind, k, strings.Join(SourceKinds(), ", "))
	}
	return k, nil
}

// checkText is the gate every source passes before anything is written: the
// size limit, then binary and UTF-8 and frontmatter (content.Parse), then
// emptiness, then secrets. It returns the parsed page. name is the path
// used in errors.
func checkText(name string, data []byte, limit int64) (*content.Page, error) {
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("ingest %s: %w: %d bytes, limit %d (kb.yaml max_source_bytes)", name, errTooLarge, len(data), limit)
	}
	pg, err := content.Parse(name, data)
	if err != nil {
		return nil, fmt.Errorf("ingest %w", err)
	}
	if len(bytes.TrimSpace(pg.Body)) == 0 {
		return nil, fmt.Errorf("ingest %s: %w (no text after the frontmatter)", name, errEmpty)
	}
	if err := checkSecrets(name, data); err != nil {
		return nil, err
	}
	return pg, nil
}
