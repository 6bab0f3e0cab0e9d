package wiki

import (
	"context"
	"slices"
	"strings"

	"github.com/ptwiki/pt/content"
)

// PageInfo is one page of a listing: its path, the revision it was read at
// and what its frontmatter says of it. Status is "active" when the page
// names none.
type PageInfo struct {
	Path       string   `json:"path"`
	Revision   string   `json:"revision"`
	Title      string   `json:"title"`
	Kind       string   `json:"kind"`
	SourceKind string   `json:"source_kind,omitempty"`
	Status     string   `json:"status"`
	Topics     []string `json:"topics,omitempty"`
	Summary    string   `json:"summary,omitempty"`
}

// PageFilter narrows a listing. An empty field matches every page; Kind
// matches a page's kind or its source kind (meeting-notes, decision...);
// Topic matches by slug, so "Release Process" finds release-process.
type PageFilter struct {
	Topic, Kind, Status string
}

func (f PageFilter) match(pi PageInfo) bool {
	if f.Status != "" && !strings.EqualFold(pi.Status, f.Status) {
		return false
	}
	if f.Kind != "" && !strings.EqualFold(pi.Kind, f.Kind) && !strings.EqualFold(pi.SourceKind, f.Kind) {
		return false
	}
	if f.Topic != "" && !hasTopic(pi.Topics, content.TopicSlug(f.Topic)) {
		return false
	}
	return true
}

// Catalog lists the content pages of the space at rev (HEAD when "") that
// match f, sorted by path. The hub, the spokes and the log are navigation,
// not content, and are left out.
func (s *Space) Catalog(ctx context.Context, rev Rev, f PageFilter) ([]PageInfo, error) {
	if rev == "" {
		h, err := s.Head(ctx)
		if err != nil || h == "" {
			return nil, err
		}
		rev = h
	}
	es, err := s.Pages(ctx, rev)
	if err != nil {
		return nil, err
	}
	out := []PageInfo{}
	for _, e := range es {
		if IsIndexPage(e.Path) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pi := PageInfo{Path: e.Path, Revision: e.Blob, Status: content.StatusActive}
		if data, err := s.ReadBlob(ctx, e.Blob); err == nil {
			if pg, err := content.Parse(e.Path, data); err == nil {
				m := pg.Meta
				pi.Title, pi.Kind, pi.SourceKind, pi.Topics, pi.Summary = m.Title, m.Kind, m.SourceKind, m.Topics, m.Summary
				if m.Status != "" {
					pi.Status = m.Status
				}
			}
		}
		if pi.Title == "" {
			pi.Title = content.TitleFromPath(e.Path)
		}
		if pi.Kind == "" {
			pi.Kind = content.KindPage
		}
		if f.match(pi) {
			out = append(out, pi)
		}
	}
	slices.SortFunc(out, func(a, b PageInfo) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// TopicCount is one topic of the space and how many content pages name it.
type TopicCount struct {
	Topic string `json:"topic"`
	Spoke string `json:"spoke"`
	Pages int    `json:"pages"`
}

// TopicCounts counts the pages of each topic named by the pages, sorted by
// topic; a topic written two ways ("Release Process", "release-process")
// is counted once, under the spelling seen first.
func TopicCounts(pages []PageInfo) []TopicCount {
	at := map[string]int{}
	var out []TopicCount
	for _, pi := range pages {
		seen := map[string]bool{}
		for _, t := range pi.Topics {
			t = strings.TrimSpace(t)
			slug := content.TopicSlug(t)
			if !content.IsTopic(t) || seen[slug] {
				continue
			}
			seen[slug] = true
			i, ok := at[slug]
			if !ok {
				i = len(out)
				at[slug] = i
				out = append(out, TopicCount{Topic: t, Spoke: SpokePath(t)})
			}
			out[i].Pages++
		}
	}
	slices.SortFunc(out, func(a, b TopicCount) int {
		return strings.Compare(content.TopicSlug(a.Topic), content.TopicSlug(b.Topic))
	})
	return out
}
