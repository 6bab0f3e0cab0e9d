package retrieve

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

// Unit types in the index.
const (
	typePage    = "page"    // a whole page: the plain BM25 baseline ranks these
	typeSection = "section" // one section: the unit Query ranks and returns
	typeSpoke   = "spoke"   // a topic's spoke (or one part of it): navigation
)

// indexed reports whether a file is a page the index holds. The hub and the
// log are navigation and history, not knowledge; spokes are indexed as
// spokes.
func indexed(p string) bool {
	if !strings.HasSuffix(strings.ToLower(p), ".md") || p == wiki.HubPath || p == wiki.LogPath || strings.HasPrefix(p, wiki.LogDir) || wiki.IsGuidance(p) {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return false
		}
	}
	return true
}

// maxSectionBody bounds the text indexed for one section: a meeting-notes
// archive can hold a quarter of a megabyte under one heading, and BM25's
// length normalisation already discounts it.
const maxSectionBody = 64 << 10

// pageDocs flattens a page file into its index units: one "page" Doc for the
// whole page and one "section" Doc per section, or a single "spoke" Doc for a
// topic's spoke. A file whose frontmatter does not parse is still indexed by
// its text: a person's broken YAML should not hide the page from search.
func pageDocs(p, rev string, data []byte) []index.Doc {
	pg, err := content.Parse(p, data)
	var meta content.Meta
	body := data
	if err == nil {
		meta, body = pg.Meta, pg.Body
	}
	title := strings.TrimSpace(meta.Title)
	if title == "" {
		title = content.TitleFromPath(p)
	}
	status := meta.Status
	if status == "" {
		status = content.StatusActive
	}
	if strings.HasPrefix(p, wiki.TopicsDir) || meta.Kind == content.KindTopic {
		return []index.Doc{{ID: p, Path: p, Type: typeSpoke, PageKind: content.KindTopic, Title: title,
			Summary: meta.Summary, Topics: meta.Topics, Body: spokeText(body), Revision: rev, Status: status}}
	}
	if meta.Kind == content.KindHub || meta.Kind == content.KindLog {
		return nil
	}
	kind := meta.Kind
	if kind == "" {
		kind = content.KindPage
	}
	fam := family(p)
	// The folders a page sits in name its subject as often as its title
	// does (sig-network/role-sig-chair.md); they are searched as title.
	searchTitle := title
	// A source titled by its first H1 is searched by its file name's words
	// (its alias) instead: the H1 is searched already, as the heading of
	// the sections under it, and a title field holding both measured worse
	// on k8s-community (docs/ingest.md).
	if len(meta.Aliases) > 0 {
		searchTitle = strings.Join(meta.Aliases, "; ")
	}
	if d := pathWords(p); d != "" {
		searchTitle += " (" + d + ")"
	}
	docs := []index.Doc{{ID: p, Path: p, Type: typePage, PageKind: kind, Title: searchTitle, Summary: meta.Summary,
		Topics: meta.Topics, Body: clip(string(body), 4*maxSectionBody), Revision: rev, Status: status, Family: fam}}
	var src []byte
	if err == nil {
		src = data
	} else {
		src = body
	}
	seen := map[string]bool{}
	for i, sec := range content.Analyze(src).Sections {
		id := p + "#" + sec.Anchor
		if seen[id] {
			id = fmt.Sprintf("%s#%s~%d", p, sec.Anchor, i)
		}
		seen[id] = true
		docs = append(docs, index.Doc{ID: id, Path: p, Type: typeSection, PageKind: kind, Title: searchTitle,
			Heading: sec.Path, Anchor: sec.Anchor, Topics: meta.Topics, Summary: meta.Summary,
			Body: clip(sec.Text, maxSectionBody), Revision: rev, Status: status, Family: fam, Ord: i})
	}
	if kind != content.KindSummary {
		// A summary quotes its source, whose definitions are read there.
		docs = append(docs, acronymDocs(p, rev, status, clip(string(body), 4*maxSectionBody))...)
	}
	return docs
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}

// spokeEntryRe is a member line of a spoke: "- [Title](rel.md) — summary".
var spokeEntryRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^- \[(.*)\]\(([^)\s]+)\)(?: — (.*))?$`) })

// spokeText is what a spoke says about its topic: its own prose and the
// titles and summaries of its members, without link targets.
func spokeText(body []byte) string {
	return spokeEntryRe().ReplaceAllString(string(body), "- $1 — $3")
}

// spokeMembers returns the pages a spoke (or part) at p lists, as space
// paths, and the parts it links to.
func spokeMembers(p string, body []byte) (members, parts []string) {
	for _, m := range spokeEntryRe().FindAllStringSubmatch(string(body), -1) {
		target := strings.NewReplacer("%20", " ", "%28", "(", "%29", ")").Replace(m[2])
		q := path.Join(path.Dir(p), target)
		if strings.HasPrefix(q, wiki.TopicsDir) {
			parts = append(parts, q)
		} else {
			members = append(members, q)
		}
	}
	return members, parts
}

// familyYearRe and familyLangRe find what tells the members of a family of
// near-duplicates apart: a year or other number (annual-report-2023.md,
// heapdump14.md, 2022-h1.md), a language code (README-de.md, README.zh.md).
var (
	familyNumRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d+`) })
	familyLangRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`[-_.](de|es|fr|hi|id|it|ja|ko|pt|uk|zh|ru|pl|nl|tr|vi|bn|zh-cn|zh-tw|pt-br)$`)
	})
)

// family is the key shared by pages that differ only by a number or a
// language code; results keep the best page of a family and let the others
// follow only when nothing else is left.
func family(p string) string {
	p = canonical(p)
	dir, base := path.Split(p)
	base = strings.TrimSuffix(base, path.Ext(base))
	base = familyLangRe().ReplaceAllString(strings.ToLower(base), "")
	dir = familyNumRe().ReplaceAllString(dir, "#")
	base = familyNumRe().ReplaceAllString(base, "#")
	return dir + base
}

// canonical maps a source and its summary to the knowledge they share:
// sources/x.md and summaries/x.md are both x.md.
func canonical(p string) string {
	for _, pre := range []string{"sources/", "summaries/"} {
		if strings.HasPrefix(p, pre) {
			return p[len(pre):]
		}
	}
	return p
}

// pathWords is the folders of a page's canonical path as words.
func pathWords(p string) string {
	d := path.Dir(canonical(p))
	if d == "." {
		return ""
	}
	return strings.NewReplacer("/", " ", "-", " ", "_", " ").Replace(d)
}
