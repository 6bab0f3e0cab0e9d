package summary

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ptwiki/pt/content"
)

// factSplit limits TestFactCoverage to one half of the fact set: tune while
// changing the summarizer, check only to confirm a change.
var (
	factSplit = flag.String("split", "", "fact set half to measure: tune, check or both (empty)")
	factShow  = flag.String("show", "", "log the summary of this source id and the facts it misses")
)

// factSource is one line of testdata/summaries/facts.jsonl: a source and
// the facts its summary must carry (README.md there says how they count).
type factSource struct {
	ID    string `json:"id"`
	File  string `json:"file"`
	Kind  string `json:"kind"`
	Split string `json:"split"`
	Facts []struct {
		Fact string     `json:"fact"`
		Keys [][]string `json:"keys"`
	} `json:"facts"`
}

// ptKind is the pt source kind a person would give each kind of the fact
// set: pt has no runbook kind, and a runbook or how-to is ingested as a doc.
func ptKind(k string) string {
	if k == "runbook" {
		return "doc"
	}
	return k
}

// factScore is the facts a summary of src carries, out of its facts, and
// the summary body's length over the source body's.
func factScore(t *testing.T, src factSource, kind string) (carried, total int, ratio float64) {
	data, err := os.ReadFile(filepath.Join("testdata", "summaries", src.File))
	if err != nil {
		t.Fatal(err)
	}
	pg, err := content.Parse(src.File, data)
	if err != nil {
		t.Fatal(err)
	}
	title := content.FirstH1(pg.Body)
	if title == "" {
		title = content.TitleFromPath(path.Base(src.File))
	}
	s := Summarize(title, pg.Body, Options{Kind: kind})
	text := strings.ToLower(s.Line + "\n" + s.Markdown())
	show := src.ID == *factShow && kind != ""
	if show {
		t.Logf("%s\nline: %s\n\n%s", src.File, s.Line, s.Markdown())
	}
	for _, f := range src.Facts {
		ok := true
		for _, group := range f.Keys {
			any := false
			for _, alt := range group {
				any = any || strings.Contains(text, strings.ToLower(alt))
			}
			ok = ok && any
		}
		if ok {
			carried++
		} else if show {
			t.Logf("missed: %s %q", f.Fact, f.Keys)
		}
	}
	return carried, len(src.Facts), float64(len(s.Markdown())) / float64(len(strings.TrimSpace(string(pg.Body))))
}

// TestFactCoverage measures how many of the facts a reader needs first
// each summary carries, per kind and per half of the fact set, with the
// kind given (as pt ingest --kind does) and left to the summarizer (as pt
// import does). Run with -v to see the table:
//
//	go test ./ingest/internal/summary/ -run FactCoverage -v
func TestFactCoverage(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "summaries", "facts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var srcs []factSource
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var s factSource
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		if *factSplit == "" || s.Split == *factSplit {
			srcs = append(srcs, s)
		}
	}
	if len(srcs) == 0 {
		t.Fatal("no sources in facts.jsonl")
	}
	type cell struct {
		sum float64
		n   int
	}
	mean := map[string]*cell{} // "mode/split/kind" → mean per-source score
	add := func(key string, v float64) {
		if mean[key] == nil {
			mean[key] = &cell{}
		}
		mean[key].sum += v
		mean[key].n++
	}
	kinds := map[string]bool{}
	for _, mode := range []string{"given", "inferred"} {
		for _, s := range srcs {
			kind := ptKind(s.Kind)
			if mode == "inferred" {
				kind = ""
			}
			c, n, ratio := factScore(t, s, kind)
			if ratio > maxBodyShare {
				t.Errorf("%s (kind %q): summary body is %.2f of the source's, want at most 0.8", s.File, kind, ratio)
			}
			v := float64(c) / float64(n)
			kinds[s.Kind] = true
			for _, split := range []string{s.Split, "all"} {
				add(mode+"/"+split+"/"+s.Kind, v)
				add(mode+"/"+split+"/all", v)
			}
		}
	}
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	ks = append(ks, "all")
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-14s %-9s %6s %6s %6s\n", "kind", "kind is", "tune", "check", "all")
	for _, k := range ks {
		for _, mode := range []string{"given", "inferred"} {
			fmt.Fprintf(&b, "%-14s %-9s", k, mode)
			for _, split := range []string{"tune", "check", "all"} {
				if c := mean[mode+"/"+split+"/"+k]; c != nil {
					fmt.Fprintf(&b, " %6.2f", c.sum/float64(c.n))
				} else {
					fmt.Fprintf(&b, " %6s", "-")
				}
			}
			b.WriteString("\n")
		}
	}
	t.Log(b.String())
	// The floor sits a little under what the summarizer carries, so that a
	// change that loses facts fails here rather than in a reader's hands.
	if c := mean["given/all/all"]; c != nil && c.n == len(srcs) && c.sum/float64(c.n) < 0.85 {
		t.Errorf("summaries carry %.2f of the facts, want at least 0.85", c.sum/float64(c.n))
	}
}
