package wiki

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Gap is a question the space could not answer, as often as it was asked:
// the JSON of `pt gaps --json`.
type Gap struct {
	Question string    `json:"question"`
	Count    int       `json:"count"`
	First    time.Time `json:"first"`
	Last     time.Time `json:"last"`
	Coverage float64   `json:"coverage"`          // of the last answer
	Nearest  []string  `json:"nearest,omitempty"` // pages closest to an answer, at the last ask
}

// gapLogMax bounds the gap log: past it, the log is compacted to one line
// per question, keeping the questions asked most recently.
const gapLogMax = 1 << 20

// gapLog is the local, never committed log of unanswered questions.
func (s *Space) gapLog() string { return filepath.Join(s.StateDir(), "gaps.jsonl") }

// RecordGap appends one unanswered question to the space's local gap log
// (one short line in one write, so that processes do not interleave), and
// compacts the log to at most keep questions once it grows past a megabyte.
// The caller decides what is a gap and keeps secrets out of it.
func (s *Space) RecordGap(g Gap, keep int) error {
	g.Question = strings.Join(strings.Fields(g.Question), " ")
	if g.Question == "" {
		return nil
	}
	g.Count = max(g.Count, 1)
	if g.First.IsZero() {
		g.First = g.Last
	}
	line, err := json.Marshal(g)
	if err != nil {
		return err
	}
	p := s.gapLog()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	st, serr := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || serr != nil || st.Size() <= gapLogMax {
		return err
	}
	gaps, err := s.Gaps()
	if err != nil {
		return err
	}
	sort.SliceStable(gaps, func(i, j int) bool { return gaps[i].Last.After(gaps[j].Last) })
	if len(gaps) > keep {
		gaps = gaps[:keep]
	}
	var b bytes.Buffer
	for _, g := range gaps {
		l, _ := json.Marshal(g)
		b.Write(append(l, '\n'))
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// Gaps returns the questions of the gap log, one per question (compared
// without case, spacing or closing punctuation), most asked first.
func (s *Space) Gaps() ([]Gap, error) {
	data, err := os.ReadFile(s.gapLog())
	if errors.Is(err, fs.ErrNotExist) {
		return []Gap{}, nil
	}
	if err != nil {
		return nil, err
	}
	byKey := map[string]*Gap{}
	var order []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var g Gap
		if json.Unmarshal(sc.Bytes(), &g) != nil || g.Question == "" {
			continue // a torn line of a killed writer
		}
		k := GapKey(g.Question)
		cur := byKey[k]
		if cur == nil {
			byKey[k] = &g
			order = append(order, k)
			continue
		}
		cur.Count += g.Count
		if !g.Last.Before(cur.Last) {
			cur.Last, cur.Coverage, cur.Nearest, cur.Question = g.Last, g.Coverage, g.Nearest, g.Question
		}
		if g.First.Before(cur.First) {
			cur.First = g.First
		}
	}
	out := make([]Gap, 0, len(order))
	for _, k := range order {
		out = append(out, *byKey[k])
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Last.After(out[j].Last)
	})
	return out, nil
}

// GapKey is how questions are told apart: without case, spacing or
// closing punctuation.
func GapKey(q string) string {
	return strings.TrimRight(strings.ToLower(strings.Join(strings.Fields(q), " ")), "?!. ")
}
