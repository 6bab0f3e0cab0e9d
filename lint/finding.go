package lint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// FindingsPath is the file, relative to the space root, where findings are
// kept and committed: one JSON document, so that a git host shows its
// history and CI can read it without pt.
const FindingsPath = "findings.json"

// Finding statuses.
const (
	StatusOpen     = "open"
	StatusResolved = "resolved"
)

// Finding is one problem lint found, as a row with a stable id: the same
// problem keeps its id across runs, so its first and last sighting and its
// resolution can be tracked.
type Finding struct {
	ID        string    `json:"id"`
	Check     string    `json:"check"`
	Severity  string    `json:"severity"`
	Path      string    `json:"path"`
	Line      int       `json:"line,omitempty"` // 0: the page as a whole (orphan_page)
	Target    string    `json:"target,omitempty"`
	Message   string    `json:"message"`
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
	Status    string    `json:"status"`
	// ResolvedAt is when a run first no longer saw the finding; resolved
	// rows are dropped once it is older than the retention.
	ResolvedAt time.Time `json:"resolved_at,omitzero"`
	// Evidence cites what a curation finding rests on: each page, line
	// and revision, and the value or sentence read there.
	Evidence []Evidence `json:"evidence,omitempty"`
	// Reason is a model's reason for confirming a curation finding.
	Reason string `json:"reason,omitempty"`
}

// Evidence is one place a finding rests on, pinned to the blob it was
// read at.
type Evidence struct {
	Path     string `json:"path"`
	Line     int    `json:"line,omitempty"`
	Revision string `json:"revision"`
	Value    string `json:"value,omitempty"`
	Text     string `json:"text,omitempty"`
}

// Open reports whether the finding still needs attention.
func (f Finding) Open() bool { return f.Status == StatusOpen }

// FindingID is the stable id of a finding: a hash of its check, page and
// target, and of nothing that moves when a page is edited elsewhere (line
// numbers, wording), so an edit above a broken link keeps its id.
func FindingID(check, path, target string) string {
	h := sha256.Sum256([]byte(check + "\x00" + path + "\x00" + target))
	return hex.EncodeToString(h[:8])
}

// findingsFile is the committed form of FindingsPath.
type findingsFile struct {
	Findings []Finding `json:"findings"`
}

// encodeFindings is the exact bytes committed at FindingsPath, so that an
// unchanged set of rows gives an unchanged file and no commit.
func encodeFindings(fs []Finding) []byte {
	if fs == nil {
		fs = []Finding{}
	}
	b, err := json.MarshalIndent(findingsFile{Findings: fs}, "", "  ")
	if err != nil {
		panic(err) // Finding holds only plain values
	}
	return append(b, '\n')
}

// Findings returns the findings recorded in the space at rev (all of them,
// open and resolved). A space never linted has none. An unreadable file is
// named from the repository's root, so that with several spaces the user
// knows which one to fix.
func Findings(ctx context.Context, s *wiki.Space, rev wiki.Rev) ([]Finding, error) {
	if rev == "" {
		return nil, nil
	}
	data, _, err := s.ReadFile(ctx, rev, FindingsPath)
	if errors.Is(err, wiki.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f findingsFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s%s: %w", s.Prefix(), FindingsPath, err)
	}
	return f.Findings, nil
}

// OpenPaths returns the pages that have open findings at rev: retrieval
// returns them with needs_review. Both pages of a contradiction have it,
// since which one is wrong is for a person to say.
func OpenPaths(ctx context.Context, s *wiki.Space, rev wiki.Rev) (map[string]bool, error) {
	fs, err := Findings(ctx, s, rev)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, f := range fs {
		if f.Status != StatusOpen {
			continue
		}
		out[f.Path] = true
		if f.Check == CheckContradiction {
			for _, e := range f.Evidence {
				out[e.Path] = true
			}
		}
	}
	return out, nil
}
