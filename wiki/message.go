package wiki

import (
	"bufio"
	"fmt"
	"strings"
)

// Batch kinds, as written in the Batch-Kind trailer.
const (
	KindInit      = "init"
	KindIngest    = "ingest"
	KindImport    = "import"
	KindFileBack  = "file-back"
	KindRetro     = "retro"
	KindRevert    = "revert"
	KindLint      = "lint"
	KindReap      = "reap"
	KindSupersede = "supersede"
	KindRetract   = "retract"
	KindObsolete  = "obsolete"
	KindArchive   = "archive"
	KindCurate    = "curate" // a proposed fix of a curation finding (pt curate --propose)
)

// Trailers are the machine-readable lines at the end of a batch commit
// (DESIGN.md §4). They are how pt finds a batch again from plain git.
type Trailers struct {
	BatchID    string `json:"batch"`
	Kind       string `json:"kind"`
	ApprovedBy string `json:"approved_by,omitempty"`
	Reverts    string `json:"reverts,omitempty"`
	AgentName  string `json:"agent,omitempty"`
	Finding    string `json:"finding,omitempty"` // the lint or curation finding the batch fixes
}

// formatMessage builds the commit message of a batch.
func formatMessage(kind, title, body string, t Trailers) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", kind, oneLine(title))
	if body = strings.TrimSpace(body); body != "" {
		b.WriteString("\n" + body + "\n")
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "Batch-Id: %s\n", t.BatchID)
	fmt.Fprintf(&b, "Batch-Kind: %s\n", t.Kind)
	if t.ApprovedBy != "" {
		fmt.Fprintf(&b, "Approved-By: %s\n", oneLine(t.ApprovedBy))
	}
	if t.Reverts != "" {
		fmt.Fprintf(&b, "Reverts: %s\n", t.Reverts)
	}
	if t.AgentName != "" {
		fmt.Fprintf(&b, "Agent: %s\n", oneLine(t.AgentName))
	}
	if t.Finding != "" {
		fmt.Fprintf(&b, "Finding: %s\n", oneLine(t.Finding))
	}
	return b.String()
}

// ParseTrailers reads the batch trailers of a commit message; ok is false
// for commits that are not pt batches (a person's plain git commit).
func ParseTrailers(msg string) (t Trailers, ok bool) {
	sc := bufio.NewScanner(strings.NewReader(msg))
	for sc.Scan() {
		k, v, found := strings.Cut(sc.Text(), ": ")
		if !found {
			continue
		}
		v = strings.TrimSpace(v)
		switch k {
		case "Batch-Id":
			t.BatchID = v
		case "Batch-Kind":
			t.Kind = v
		case "Approved-By":
			t.ApprovedBy = v
		case "Reverts":
			t.Reverts = v
		case "Agent":
			t.AgentName = v
		case "Finding":
			t.Finding = v
		}
	}
	return t, t.BatchID != "" && t.Kind != ""
}

// Subject returns the first line of a commit message.
func Subject(msg string) string {
	s, _, _ := strings.Cut(msg, "\n")
	return s
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
