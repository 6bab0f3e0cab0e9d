package ingest

import (
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/ptwiki/pt/content"
)

// corpusIndex resolves links written in a corpus to the corpus's files, the
// way the corpus's own host would: relative paths, names without ".md"
// (gowiki's [x](PageName)), directories (their README.md or index.md),
// root-absolute paths ("/sig-apps/README.md"), and links under a site
// prefix ("/wiki/PageName", "https://go.dev/wiki/PageName").
type corpusIndex struct {
	files    map[string]string // lower-case rel path → rel path
	prefixes []string
}

func newCorpusIndex(rels []string, prefixes []string) *corpusIndex {
	ix := &corpusIndex{files: make(map[string]string, len(rels))}
	for _, r := range rels {
		ix.files[strings.ToLower(r)] = r
	}
	for _, p := range prefixes {
		if p = strings.TrimSpace(p); p != "" {
			ix.prefixes = append(ix.prefixes, p)
		}
	}
	return ix
}

// resolve returns the corpus file a link in file from points at, and the
// link's anchor; ok is false for links that leave the corpus.
func (ix *corpusIndex) resolve(from string, l content.Link) (to, anchor string, ok bool) {
	if l.Wiki {
		return "", "", false
	}
	var p string
	for _, pre := range ix.prefixes {
		if rest, found := strings.CutPrefix(l.Target, pre); found {
			rest, anchor, _ = strings.Cut(rest, "#")
			rest, _, _ = strings.Cut(rest, "?")
			if u, err := url.PathUnescape(rest); err == nil {
				rest = u
			}
			p = "/" + strings.TrimPrefix(rest, "/")
			break
		}
	}
	if p == "" {
		if l.External || l.Path == "" {
			return "", "", false
		}
		p, anchor = l.Path, l.Anchor
	}
	if strings.HasPrefix(p, "/") {
		p = path.Clean(strings.TrimPrefix(p, "/"))
	} else {
		p = path.Join(path.Dir(from), p)
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", "", false
	}
	p = strings.TrimSuffix(p, "/")
	for _, c := range []string{p, p + ".md", path.Join(p, "README.md"), path.Join(p, "index.md"), path.Join(p, "_index.md")} {
		if r, found := ix.files[strings.ToLower(c)]; found {
			return r, anchor, true
		}
	}
	return "", "", false
}

// rewriteLinks returns body with every link to another corpus file pointing
// at that file's place in the space (dest maps a rel path to its space
// path). s is content.Analyze(body), which the caller already has: parsing
// the body again would double the cost of the link pass. Only the link
// destination changes; a link that cannot be found in the text as written is
// left alone.
func rewriteLinks(body []byte, s *content.Structure, from string, ix *corpusIndex, dest func(rel string) string) []byte {
	if len(s.Links) == 0 {
		return body
	}
	lines := strings.SplitAfter(string(body), "\n")
	fromSpace := dest(from)
	changed := false
	done := map[string]bool{}
	for _, l := range s.Links {
		to, anchor, ok := ix.resolve(from, l)
		if !ok || l.Line < 1 || l.Line > len(lines) {
			continue
		}
		nd := linkDest(content.RelLink(fromSpace, dest(to)))
		if anchor != "" {
			nd += "#" + anchor
		}
		if nd == l.Target {
			continue
		}
		key := l.Target + "\x00" + strconv.Itoa(l.Line)
		if done[key] {
			continue
		}
		done[key] = true
		line := lines[l.Line-1]
		nl := line
		for _, end := range []string{")", " ", "\t"} {
			nl = strings.ReplaceAll(nl, "]("+l.Target+end, "]("+nd+end)
			nl = strings.ReplaceAll(nl, "](<"+l.Target+">"+end, "]("+nd+end)
		}
		if nl == line {
			// a reference definition: [label]: target
			for i, rl := range lines {
				t := strings.TrimSpace(rl)
				if strings.HasPrefix(t, "[") && strings.Contains(t, "]: "+l.Target) {
					lines[i] = strings.Replace(rl, "]: "+l.Target, "]: "+nd, 1)
					changed = true
				}
			}
			continue
		}
		lines[l.Line-1] = nl
		changed = true
	}
	if !changed {
		return body
	}
	return []byte(strings.Join(lines, ""))
}
