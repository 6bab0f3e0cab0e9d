package ingest

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// ConsultRecord is one line of the local consult log: the verdict, the
// gate and its reason, who asked and who filed, and nothing of the
// question or the answer.
type ConsultRecord struct {
	Time time.Time `json:"time"`
	// Head is the commit the consult was asked at: a retrospective places
	// the consult in a cycle by it, whatever the clocks said.
	Head    string `json:"head,omitempty"`
	Verdict string `json:"verdict"`
	Gate    string `json:"gate,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Page    string `json:"page,omitempty"`
	Batch   string `json:"batch,omitempty"`
	AskedBy string `json:"asked_by,omitempty"`
	By      string `json:"by,omitempty"`      // who filed it (Consult.Author); "" for pt itself
	ByKind  string `json:"by_kind,omitempty"` // human | agent
}

// consultLog is the local, never committed, append-only log of consult
// verdicts under the space's state directory. A skipped consult writes
// nothing to git by design, so this is the only trace of it: retrospectives
// count skipped consults from it, per clone.
func consultLog(s *wiki.Space) string { return filepath.Join(s.StateDir(), "consults.jsonl") }

// ReadConsultLog returns the consults of the local log made at or after
// since (all when since is zero), oldest first. A missing log is empty; a
// torn line (a crash mid-write) is skipped.
func ReadConsultLog(s *wiki.Space, since time.Time) ([]ConsultRecord, error) {
	f, err := os.Open(consultLog(s))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []ConsultRecord
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r ConsultRecord
		if json.Unmarshal(sc.Bytes(), &r) != nil {
			continue
		}
		if since.IsZero() || !r.Time.Before(since) {
			out = append(out, r)
		}
	}
	return out, sc.Err()
}
